// Package world is the host's model of a game's objects: ships and their
// subsystems, damage, weapons, collisions, deaths and kill credit,
// self-destruct, repair, power and shields, the ships' movement as their
// owners report it, and the StateUpdates the host builds from all of it
// (simulation.md). It knows nothing of sockets, sessions or scripts: it
// imports neither net nor lua (a test checks), so a whole battle runs in a
// test with no network and a fake clock.
//
// # In and out
//
// The engine drives the world with decoded messages whose sender it has
// already validated (Create, StateUpdate, Collision, the weapon messages
// OwnerStartFiring/OwnerStopFiring/OwnerStopFiringAt/SetPhaserLevel/
// PulseFired/TorpedoFired, SelfDestruct, the owner's controls) and with
// the game tick (Tick, then SendStateUpdates). Every call that makes time pass takes the time as an
// argument, the others read the game's clock through the Env; the world
// never reads the wall clock. What the world has to
// say goes out through the Env the engine implements, the way
// dragonfly's world talks to its viewers: events for missions and plugins
// (ship_created, ship_damaged, ship_destroyed, object_destroyed, weapon_hit), reliable
// broadcasts to the players in the game, unreliable StateUpdates to each
// viewer, and timers on the game clock (torpedo flight, the late repair
// events of a self-destruct).
//
// # Owners
//
// An Owner is a player as the world sees it (wire id, slot, team, current
// ship); the engine's Player embeds one. An object with no owner belongs
// to the host. The rules are the same for every ship whoever drives it:
// damage, health and death do not look at who the owner is, only kill
// credit names the owner's id.
//
// # Host ships
//
// The host creates ships of its own (simulation.md 3.5: the Mission5
// starbase, a mission's AI ships) with ids outside every player block and
// announces them with ObjCreate 0x02. It flies them (MoveTo, Face,
// SetSpeed) and fires their weapons (FireAt) each tick within the class's
// data: turn rate, speed, acceleration, phaser charge, torpedo reload and
// ammunition. Their fire goes to the players as a stock owner's would
// (StartFiring 0x07 for phasers, PulseFire 0x1A per bolt, TorpedoFire 0x19
// per torpedo) and through the same weapon model as a player's. What a ship
// should do — its AI — is the mission's business.
//
// # Combat
//
// Every modelled ship carries the host's copy of its weapon systems, as
// every stock peer does (simulation.md 5.5): phaser systems with their
// target lists and levels, whose banks start, run and drain beams each
// tick; pulse cannons and torpedo tubes whose bolts and torpedoes fly as
// projectiles and hit the first ship on their path. Every hit goes
// through one pipeline in the stock order (damage.go): the shield facing
// the shot enters through, then the hull and the subsystems in the hit's
// footprint, once each. The constants the code cannot show are in
// constants.go, each with its source.
//
// # Files
//
// In the order a call runs through them: each file calls only files below
// it, but for one arrow (a new ship's weapon systems, objects.go →
// arms.go), so a torpedo's hit reads top to bottom — projectiles.go,
// damage.go, death.go, with geometry.go's paths and helpers last.
//
// sim.go (the tick: repair, shields, power, the weapon systems' charge
// and each system's pass), weapons.go (the players' weapon messages),
// controls.go (subsystem power, repair priority, torpedo type,
// self-destruct), state.go (the owners' movement in, the host's
// StateUpdates out), integrity.go (ship integrity hashes), fairplay.go
// (the fair-play judgements), hostships.go (host-created ships: ids,
// ObjCreate, removal), hostweapons.go (their orders to fire, their
// cannons and tubes), hostmove.go (flying them), damagehook.go (a
// mission's damage rules and the damage it deals), collision.go
// (collision reports), tractors.go (tractor beams and the Multi6 nebula),
// projectiles.go (torpedoes and bolts in flight), beams.go (phaser beams,
// target lists), damage.go (one hit: the shooter's modifiers, the
// mission's rule, the shield facing, hull and footprint, the repair
// queue), modifiers.go (custom-rule factors), death.go (the death
// sequence), arms.go (every ship's weapon systems), objects.go (objects,
// creation, removal), world.go (the World, its options and its Env),
// events.go, constants.go (the combat constants and their sources) and
// geometry.go (ship shapes, the paths that meet them, frames, vectors).
package world
