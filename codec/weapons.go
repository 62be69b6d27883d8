package codec

// Weapon messages: TorpedoFire 0x19, PulseFire 0x1A, Explosion 0x29
// (opcodes.md 3.5-3.7, simulation.md 9.3). Direction fields are kept as raw
// wire values so a decoded message re-encodes byte for byte; a relay
// forwards the received bytes anyway (opcodes.md 4.1). The layouts are the
// stock reader's (FUN_0069f930, FUN_0069fbb0, FUN_006a0080) and are tested
// against the captured targeted TorpedoFire and PulseFire messages.

// TorpedoFire flag bits (opcodes.md 3.5).
const (
	// TorpedoArg is bit 0: the sender's first boolean argument.
	TorpedoArg = 0x01
	// TorpedoTubeFlag is bit 1: a flag of the tube (+0xA8).
	TorpedoTubeFlag = 0x02
	// TorpedoNoTarget is bit 2: set when no target block follows (no
	// target, or fired unguided).
	TorpedoNoTarget = 0x04
)

// PulseFire flag bits (opcodes.md 3.6).
const (
	// PulseArg is bit 0: a boolean of the sender passed to the receiver's
	// bolt creation (meaning open, opcodes.md 6).
	PulseArg = 0x01
	// PulseHasTarget is bit 1: a target id follows.
	PulseHasTarget = 0x02
)

// ScaledPoint is the 4-byte point form of a TorpedoFire target point and a
// CollisionEffect contact (codec.md 4.3, opcodes.md 3.5): a direction
// scaled by 127 and a magnitude byte scaled by the object's radius.
type ScaledPoint struct {
	Dir  Dir3
	Dist uint8 // magnitude / radius × 255
}

// Vector returns the point for an object of the given radius: direction ×
// Dist/255 × radius. A radius that is not positive counts as 0.01, as the
// stock writer scales it (opcodes.md 3.5).
func (p ScaledPoint) Vector(radius float32) [3]float32 {
	if !(radius > 0) {
		radius = 0.01
	}
	x, y, z := p.Dir.Vector()
	r := float32(p.Dist) / 255 * radius
	return [3]float32{x * r, y * r, z * r}
}

// NewScaledPoint encodes v (object-relative) for an object of the given
// radius; magnitudes beyond the radius are clamped to it.
func NewScaledPoint(v [3]float32, radius float32) ScaledPoint {
	if !(radius > 0) {
		radius = 0.01
	}
	f := magnitude(v[0], v[1], v[2]) / radius * 255
	if !(f > 0) {
		f = 0
	} else if f > 255 {
		f = 255
	}
	return ScaledPoint{Dir: NewDir3(v[0], v[1], v[2]), Dist: uint8(f)}
}

// TorpedoFire is opcode 0x19: a torpedo launched by its owner, relayed to
// the other peers (opcodes.md 3.5). 10 bytes, or 18 when the target block
// is present (Flags bit 2 clear).
type TorpedoFire struct {
	TubeID int32 // torpedo tube subsystem id, in the owner's id block
	// FiringPlayer is the network player id of the firing ship's owner, 0
	// for torpedoes of host objects (opcodes.md 3.5, Correction 24).
	FiringPlayer uint8
	Flags        uint8       // TorpedoArg | TorpedoTubeFlag | TorpedoNoTarget
	Dir          Dir3        // launch direction
	Target       int32       // when HasTarget
	Point        ScaledPoint // target-relative aim point, when HasTarget
}

// HasTarget reports whether the target block is on the wire: bit 2 clear.
func (m TorpedoFire) HasTarget() bool { return m.Flags&TorpedoNoTarget == 0 }

// AppendTo appends the encoded message to b: 10 bytes, or 18 with a target.
func (m TorpedoFire) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpTorpedoFire)
	w.I32(m.TubeID)
	w.U8(m.FiringPlayer)
	w.U8(m.Flags)
	w.dir3(m.Dir)
	if m.HasTarget() {
		w.I32(m.Target)
		w.dir3(m.Point.Dir)
		w.U8(m.Point.Dist)
	}
	return w.buf
}

// DecodeTorpedoFire parses an opcode-0x19 payload: 10 bytes with flag bit
// 2 set, 18 with it clear. On error the fields read before the failure are
// returned, so a relay can still check the tube's owner.
func DecodeTorpedoFire(payload []byte) (TorpedoFire, error) {
	var m TorpedoFire
	d := newDecoder(payload, "torpedo fire")
	d.opcode(OpTorpedoFire)
	m.TubeID = d.at("tube id").I32()
	m.FiringPlayer = d.at("firing player").U8()
	m.Flags = d.at("flags").U8()
	m.Dir = d.at("direction").dir3()
	if m.HasTarget() {
		m.Target = d.at("target").I32()
		m.Point.Dir = d.at("target point").dir3()
		m.Point.Dist = d.at("target point").U8()
	}
	d.end()
	return m, d.result()
}

// PulseFire is opcode 0x1A: one bolt of a pulse weapon (disruptor
// cannon), sent by the firing owner and relayed to the other peers; every
// receiver spawns the bolt projectile named by the cannon's module
// (opcodes.md 3.6, Correction 21: formerly read as "BeamFire", a phaser
// beam). 10 bytes, or 14 when Flags bit 1 says a target id follows.
type PulseFire struct {
	CannonID int32 // pulse weapon (cannon) subsystem id, in the owner's id block
	// FiringPlayer is the network player id of the firing ship's owner, 0
	// for bolts of host objects (opcodes.md 3.6, Correction 24).
	FiringPlayer uint8
	Dir          Dir3  // the bolt's launch direction
	Flags        uint8 // PulseArg | PulseHasTarget
	Target       int32 // the cannon's current target, when HasTarget
}

// HasTarget reports whether the target id is on the wire: bit 1 set.
func (m PulseFire) HasTarget() bool { return m.Flags&PulseHasTarget != 0 }

// AppendTo appends the encoded message to b: 10 bytes, or 14 with a target.
func (m PulseFire) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpPulseFire)
	w.I32(m.CannonID)
	w.U8(m.FiringPlayer)
	w.dir3(m.Dir)
	w.U8(m.Flags)
	if m.HasTarget() {
		w.I32(m.Target)
	}
	return w.buf
}

// DecodePulseFire parses an opcode-0x1A payload: 14 bytes with flag bit 1
// set, 10 with it clear.
func DecodePulseFire(payload []byte) (PulseFire, error) {
	var m PulseFire
	d := newDecoder(payload, "pulse fire")
	d.opcode(OpPulseFire)
	m.CannonID = d.at("cannon id").I32()
	m.FiringPlayer = d.at("firing player").U8()
	m.Dir = d.at("direction").dir3()
	m.Flags = d.at("flags").U8()
	if m.HasTarget() {
		m.Target = d.at("target").I32()
	}
	d.end()
	return m, d.result()
}

// Explosion is opcode 0x29: area damage the host announces (weapon kills,
// torpedo/explosion damage; never collision kills or self-destruct,
// simulation.md 9.3). 14 bytes.
//
// Field order: radius, then damage; the stock writer (FUN_00595c60) writes
// them in that order and the reader (FUN_006a0080) stores the first as the
// radius (opcodes.md 3.7, 5). Raw CF16 values are kept for exact bytes.
type Explosion struct {
	ObjectID int32  // the ship that is hit / dying
	Position DirMag // Dir3+CF16 position
	Radius   uint16 // raw CF16 (first value)
	Damage   uint16 // raw CF16 (second value)
}

// NewExplosion encodes the floating-point values as the stock writer does.
func NewExplosion(objectID int32, x, y, z, radius, damage float32) Explosion {
	return Explosion{
		ObjectID: objectID,
		Position: NewDirMag(x, y, z),
		Radius:   EncodeCF16(radius),
		Damage:   EncodeCF16(damage),
	}
}

// RadiusValue decodes Radius.
func (m Explosion) RadiusValue() float32 { return DecodeCF16(m.Radius) }

// DamageValue decodes Damage.
func (m Explosion) DamageValue() float32 { return DecodeCF16(m.Damage) }

// AppendTo appends the encoded message to b.
func (m Explosion) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpExplosion)
	w.I32(m.ObjectID)
	w.dirMag(m.Position)
	w.U16(m.Radius)
	w.U16(m.Damage)
	return w.buf
}

// DecodeExplosion parses an opcode-0x29 payload.
func DecodeExplosion(payload []byte) (Explosion, error) {
	var m Explosion
	d := newDecoder(payload, "explosion")
	d.opcode(OpExplosion)
	m.ObjectID = d.at("object id").I32()
	m.Position = d.at("position").dirMag()
	m.Radius = d.at("radius").CF16Raw()
	m.Damage = d.at("damage").CF16Raw()
	d.end()
	return m, d.result()
}
