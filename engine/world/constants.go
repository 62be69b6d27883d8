package world

import "time"

// The combat model's constants, in one place. Each says where its value
// comes from: [code] read in the decompiled stock executable, [measured] a
// published single-player measurement of it, [inferred] derived from
// those, [open] not established (the value chosen is then explained).
// simulation.md 5 and its open list (15) are the source of every one.

// Beams (simulation.md 5.5, Corrections 34 and 45).
const (
	// beamRange is R, the class constant 0x008E53DC: a bank starts a beam
	// only at a target within R, and its ray is R long. Not published: all
	// four forward beams of a Kessok Heavy started at 600 GU centre to
	// centre, so R ≥ ≈ 605 GU bank to aim point [measured §2.1 B4], and the
	// measurements mention a "700 GU engine gate" in passing. A host must
	// never refuse a beam a stock client starts, so R is taken inside
	// [605, 700) (Correction 45) [open].
	beamRange float32 = 650
	// beamWindup is the time from a bank's start to its ray (state 1), and
	// beamExtend the time the ray is traced and the bank drains but deals
	// nothing (state 2): ≈ 0.46 s and ≈ 0.16 s in the raw Galaxy capture
	// [measured §2.2, Correction 45]. With one quantum they make the
	// measured 1.156 s from the start to the first damage.
	beamWindup = 465 * time.Millisecond
	beamExtend = 160 * time.Millisecond
	// beamQuantum is the accumulator threshold 0x008E53E0: while a beam
	// hits the same object, one quantum lands for each 0.53125 s of
	// hitting time gathered, whatever the tick rate [measured §2.2: 32
	// frames of 16.6 ms; Correction 45].
	beamQuantum float32 = 0.53125
	// rechargeMultiplier is the multiplayer factor 0x00890550 on the
	// recharge of every phaser bank not on the local player's ship — on a
	// dedicated host, every bank. The stock-server RE notes say 2,
	// unverified [open]. Pulse cannons have no such term (Correction 44).
	rechargeMultiplier float32 = 2
)

// measuredRadius is the stock bounding radius (GetRadius) of the classes it
// was measured for [measured: stbc-oracle capture meta, simulation.md 15];
// every other class uses the estimate from its subsystems (BoundingRadius),
// which is low for the big hulls [open].
var measuredRadius = map[string]float32{
	"Galaxy":      4.366,
	"KessokHeavy": 6.174,
	"BirdOfPrey":  1.349,
}

// Phaser levels (0x12 SetPhaserLevel, the ObjCreate tail's level byte).
const (
	LevelLow  = 0
	LevelMed  = 1
	LevelHigh = 2
)

// beamLevelFactor is the damage factor of each phaser level (constants
// 0x00893170/74/78: LOW 0.25, MED 0.5, HIGH 0.5) [measured §2.1], and
// beamDrain the charge a beaming bank loses per second (0x0089317C/80/84:
// 0.35, 1.0, 1.0) [code: FUN_00572b80; measured §2.2].
var (
	beamLevelFactor = [3]float32{0.25, 0.5, 0.5}
	beamDrain       = [3]float32{0.35, 1, 1}
)

// Pulse weapons (simulation.md 5.5, Corrections 35 and 44).
const (
	// pulseScaleLow is the LOW damage scale 0x0088D890: a Warbird bolt
	// deals 80 at LOW, 200 at MED, 400 at HIGH [measured: dscale_warbird_low,
	// Correction 44].
	pulseScaleLow float32 = 0.2
	// defaultBoltLifetime is the reach of a bolt whose script sets no
	// lifetime: 8 s [code: FUN_00575610].
	defaultBoltLifetime float32 = 8
	// hostPulseRefire is the least time between two bolts of one host
	// cannon. A cannon fires while its charge covers the shot's cost, not
	// after its CooldownTime (Correction 44); a stock Warbird's four
	// cannons fire, then fire again 0.34 s later [measured §3 P1]. Players'
	// cannons are paced by their own clients.
	hostPulseRefire = 340 * time.Millisecond
)

// pulseDamageScale is a cannon's damage scale by its setting: LOW (open,
// above), MED 0.5, HIGH 1.0 [code: FUN_00575270; measured §3: a Warbird
// bolt is 400 × 0.5 = 200]; pulseCostFactor multiplies the cannon's
// NormalDischargeRate into the charge one bolt costs [code: FUN_00575230;
// measured P4]. Every cannon is built at MED and no message carries its
// setting to other peers, so the host uses MED for everyone's cannons.
var (
	pulseDamageScale = [3]float32{pulseScaleLow, 0.5, 1}
	pulseCostFactor  = [3]float32{0.5, 1, 2}
)

// Torpedoes (simulation.md 5.5, Correction 36).
const (
	// torpedoLifetime is how long a torpedo whose script sets no lifetime
	// flies before it is removed. The engine default is not published; the
	// slowest stock torpedo (Positron, 3.8 GU/s, 40 s of guidance) reaches
	// a target 57 GU away in 13.3 s [measured §4]; 60 s lets every stock
	// torpedo use its whole guidance and then some [open].
	torpedoLifetime float32 = 60
	// tubeSpacing is the least time between two torpedoes of one tube
	// that the host accepts from a player, as a share of the tube's
	// immediate delay: stock tubes fire 0.656 s apart [measured §4];
	// the slack absorbs network jitter.
	tubeSpacing = 0.8
)

// Shields (simulation.md 5.5, Correction 37).
const (
	// shieldStep is the regeneration step: facings regain charge every
	// 0.656 s of game time [measured §5.3 S4].
	shieldStep = 656 * time.Millisecond
	// shieldStepGain is what a facing regains per step for each HP/s of
	// its hardpoint recharge rate: a Galaxy facing (11/s) regains 6.15 per
	// step, ≈ 9.4/s, the same at every alert level and at 50 % generator
	// power [measured §5.3 S4, S5].
	shieldStepGain float32 = 6.15 / 11
)

// Hit test and collisions (simulation.md 5.2-5.3, Corrections 31-33).
const (
	// collisionHitRadius is R of the collision hit set [code: FUN_005afad0].
	collisionHitRadius float32 = 1.5
	// minHitRadius is the hit radius of a weapon whose data gives none.
	minHitRadius float32 = 0.1
)

// maxProjectiles bounds the torpedoes and bolts in flight in one game:
// far more than 16 ships can keep in the air (a Bird of Prey's cannons
// fire every 0.2 s for a few seconds), so only a hostile client reaches it;
// then its newest shots are not simulated (they are still relayed).
const maxProjectiles = 1024
