package world

import (
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/ships"
)

// Env is the world's way out to the players: the engine implements it
// with its sessions, its broadcast group and its timers; a test passes a
// recording fake. The world calls it only from the goroutine that owns the
// game, and only while one of its own methods runs.
type Env interface {
	// Emit raises an event to missions and plugins.
	Emit(ev Event)
	// Broadcast sends a reliable message to every player in the game (the
	// stock "NoMe" group of a dedicated host).
	Broadcast(payload []byte)
	// Viewers appends to dst the players in the game, in slot order: the
	// receivers of the host's StateUpdates.
	Viewers(dst []*Owner) []*Owner
	// Send sends a message to one viewer.
	Send(to *Owner, payload []byte, reliable bool)
	// After runs fn once d of game time has passed, with the time it runs
	// at; the returned func cancels it.
	After(d time.Duration, fn func(now time.Time)) (cancel func())
	// Now is the game's clock: the time of what the game is doing.
	Now() time.Time
}

// Owner is a player as the world knows it: the owner of a ship and of the
// other objects in its id block. The engine's Player embeds one, so the
// session and the world share one record of who a player is.
type Owner struct {
	// ID is the wire peer id (2, 3, …): the "player id" of the script
	// messages and of 0x17 (handshake.md 1), which kill credit names.
	ID byte
	// Slot is the 0-based player slot: Settings' slot and the owner of the
	// object-id block 0x3FFFFFFF + Slot*0x40000.
	Slot int
	// Team is the mission's team number, -1 for none.
	Team int
	// ShipID is the object id of the player's current ship, 0 without one.
	ShipID int32

	torpedoType int // last TorpedoTypeChange value

	// torpedoes are the ids of the owner's latest torpedo objects, a ring:
	// the host keeps at most maxTorpedoObjects of them (Create).
	torpedoes    [maxTorpedoObjects]int32
	torpedoesPos int
}

// maxTorpedoObjects bounds the torpedo objects the host keeps per owner.
// Nothing tells the host when a torpedo's flight ends, so without a bound
// an owner's creations would pile up for the whole game (and go to every
// late joiner); far more than a ship can have in flight at once.
const maxTorpedoObjects = 128

// Stats counts what the world did or refused; readable from any goroutine.
type Stats struct {
	Collisions        atomic.Uint64 // collision reports that caused damage
	CollisionsDropped atomic.Uint64 // collision reports refused (dead ship, duplicate, too far, cooldown)
	WeaponHits        atomic.Uint64 // weapon hits the host damage model applied
	WeaponRejected    atomic.Uint64 // fire messages the weapon model refused (no such weapon, destroyed, too fast)
	// IntegrityMismatches counts ships whose integrity hash differed from
	// the reference of their species.
	IntegrityMismatches atomic.Uint64
}

// Options configures a World.
type Options struct {
	// Env receives the world's events and outgoing messages. Required.
	Env Env
	// Ships is the ship data ships are modelled with; nil models none
	// (every ship is then relayed only, as one of unknown species).
	Ships  *ships.Registry
	Logger *slog.Logger
	// Epoch is the zero of the game clock StateUpdates carry.
	Epoch time.Time
	// NoWeaponDamage turns host-side weapon damage off: fire is relayed
	// and nothing the host computes is hurt by it (weapon kills then go
	// unnoticed by the host).
	NoWeaponDamage bool
	// CollisionPowerPlant appends the power plant to every collision
	// contact's hit set, as the stock code reads (simulation.md 5.2-5.3,
	// FUN_005aecc0); off by default because the published measurements
	// contradict it (a Galaxy survived 5,870 + 4,487 of ram damage with a
	// 7,000 warp core) and simulation.md 15 leaves it open. Off, the power
	// plant is hit when a contact is near it, like any subsystem.
	CollisionPowerPlant bool
	// ExplosionRadius and ExplosionDamage are the values of the Explosion
	// 0x29 sent for a weapon kill (simulation.md 15).
	ExplosionRadius float32
	ExplosionDamage float32
	// CheckIntegrity compares ships' integrity hashes with the reference of
	// their species; IntegrityHashes are known references by species.
	CheckIntegrity  bool
	IntegrityHashes map[int]uint16
	// Stats is where the world counts; nil gives it its own.
	Stats *Stats
	// HostSlot is the owner byte of host-created objects' ObjCreate: a
	// player slot no player is given while host objects exist (opcodes.md
	// 6); 0 means DefaultHostSlot.
	HostSlot int
}

// DefaultHostSlot is the last slot of the stock 16-slot table (opcodes.md
// 6 suggests 0x0F): players take the lowest free slot, so it is the last
// one a player would need.
const DefaultHostSlot = 15

// World is the host's model of one game's objects: ships and their
// subsystems, damage, weapons, collisions, deaths, repair and power. All
// methods must be called from the goroutine that owns the game; every
// method that makes time pass takes the time as an argument, and the
// others read the game's clock through the Env (one clock per game).
type World struct {
	env     Env
	log     *slog.Logger
	ships   *ships.Registry
	stats   *Stats
	epoch   time.Time
	now     time.Time // the time of the call being processed
	tickAt  time.Time // the time of the last Tick
	objects map[int32]*Object
	// fleet is every modelled ship, ordered by id: the order the tick
	// runs them in, so a battle plays out the same way every time.
	fleet       []*Object
	projectiles []projectile
	// noWeaponDamage and collisionPP are Options.NoWeaponDamage and
	// Options.CollisionPowerPlant.
	noWeaponDamage bool
	collisionPP    bool
	rules          *ModifierRules // nil: no class or team modifiers
	collisions     map[[2]int32]time.Time
	integrity      map[int]uint16 // species -> reference integrity hash
	checkHash      bool
	explRadius     float32
	explDamage     float32
	buf            []byte               // scratch for building messages
	viewers        []*Owner             // scratch for Host.Viewers
	hostSlot       int                  // owner byte of host objects
	fair           *fairplay.Tolerances // nil: players are not judged (SetFairPlay)
	hostNext       int32                // next host object id to try
	hostCount      int                  // host objects in objects
	// hitCheck, when set (the fuzz target's invariants), sees every
	// application of damage with the hull as it stood before.
	hitCheck func(o *Object, h *hit, res hitResult, dead bool, hullBefore float32)
	// damageHook, when set, decides every weapon hit (damagehook.go).
	damageHook  DamageHook
	hookScratch DamageHit
}

// New builds an empty world.
func New(opts Options) *World {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st := opts.Stats
	if st == nil {
		st = new(Stats)
	}
	w := &World{
		env:            opts.Env,
		log:            log.With("component", "world"),
		ships:          opts.Ships,
		stats:          st,
		epoch:          opts.Epoch,
		now:            opts.Epoch,
		tickAt:         opts.Epoch,
		noWeaponDamage: opts.NoWeaponDamage,
		collisionPP:    opts.CollisionPowerPlant,
		objects:        make(map[int32]*Object),
		collisions:     make(map[[2]int32]time.Time),
		integrity:      make(map[int]uint16),
		checkHash:      opts.CheckIntegrity,
		explRadius:     opts.ExplosionRadius,
		explDamage:     opts.ExplosionDamage,
		buf:            make([]byte, 0, 512),
		hostSlot:       opts.HostSlot,
		hostNext:       FirstHostObjectID,
	}
	if w.hostSlot <= 0 || w.hostSlot > 255 {
		w.hostSlot = DefaultHostSlot
	}
	for sp, h := range opts.IntegrityHashes {
		w.integrity[sp] = h
	}
	return w
}

// Stats returns the world's counters.
func (w *World) Stats() *Stats { return w.stats }

// Ships returns the ship data registry (nil when ships are not modelled).
func (w *World) Ships() *ships.Registry { return w.ships }

// SetWeaponDamage turns host-side weapon damage on or off
// (Options.NoWeaponDamage).
func (w *World) SetWeaponDamage(on bool) { w.noWeaponDamage = !on }

// Now returns the time of the call being processed.
func (w *World) Now() time.Time { return w.now }

// sync takes the game's time for a call that does not pass it: the
// owners' and the missions' orders between two datagrams act at the
// game's now, never at the time of the world's last call. The world has
// no clock of its own.
func (w *World) sync() { w.now = w.env.Now() }

// GameTime is the game clock in seconds at now, as StateUpdates carry it.
func (w *World) GameTime(now time.Time) float32 { return float32(now.Sub(w.epoch).Seconds()) }

// Object returns the live object with id, or nil.
func (w *World) Object(id int32) *Object { return w.objects[id] }

// Objects returns the live objects ordered by id.
func (w *World) Objects() []*Object {
	out := make([]*Object, 0, len(w.objects))
	for _, o := range w.objects {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b *Object) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// ShipOf returns the owner's current ship, or nil.
func (w *World) ShipOf(o *Owner) *Object {
	if o == nil || o.ShipID == 0 {
		return nil
	}
	return w.objects[o.ShipID]
}

// broadcast sends w.buf, just built, to every player in the game.
func (w *World) broadcast() { w.env.Broadcast(w.buf) }
