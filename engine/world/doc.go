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
// already validated (Create, StateUpdate, Collision, Fire, SelfDestruct,
// the owner's controls) and with the game tick (Tick, then
// SendStateUpdates). Every call that makes time pass takes the time as an
// argument; the world never reads the wall clock. What the world has to
// say goes out through the Host the engine implements, the way
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
// ammunition. Their shots go to the players as a stock owner's BeamFire and
// TorpedoFire would and through the same weapon model as a player's. What
// a ship should do — its AI — is the mission's business.
//
// # Files
//
// objects.go (objects, creation, removal), state.go (movement and the
// host's StateUpdates), sim.go (the tick: repair, shields, power),
// damage.go (shields and the damage distributor), collision.go,
// weapons.go (WeaponModel and the data-file model), death.go (the death
// sequence and self-destruct), controls.go (subsystem power, repair
// priority, torpedo type), integrity.go (ship integrity hashes),
// hostships.go (host-created ships: ids, ObjCreate, removal), hostmove.go
// (flying them) and hostweapons.go (their weapon systems).
package world
