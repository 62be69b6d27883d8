package codec

import (
	"errors"
	"fmt"
	"math"
)

// ErrMalformed is wrapped by game and script message decode errors that are
// not truncation (truncation wraps ErrShort): a wrong opcode, trailing bytes
// after a closed layout, or a field value the layout forbids.
var ErrMalformed = errors.New("malformed message")

// ErrNeedSubsystems is wrapped when a StateUpdate carries the flag-0x20
// subsystem block and the caller gave no block reader: the block has no
// length field and cannot be delimited without the ship's subsystem list
// (simulation.md 4.2-4.3).
var ErrNeedSubsystems = errors.New("state update has a subsystem block and no block reader")

// decoder is a Reader that remembers which message and field it was reading
// when the first error happened, so every decode error says what failed
// without allocating on the happy path.
type decoder struct {
	Reader
	msg   string
	field string
}

func newDecoder(payload []byte, msg string) decoder {
	return decoder{Reader: NewReader(payload), msg: msg}
}

// at names the field about to be read and returns the Reader. The name is
// kept only while no error has occurred, so it points at the failing field.
func (d *decoder) at(field string) *Reader {
	if d.err == nil {
		d.field = field
	}
	return &d.Reader
}

// fail records a semantic error (wrapping ErrMalformed) for field.
func (d *decoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.field = field
		d.err = fmt.Errorf(format+": %w", append(args, ErrMalformed)...)
	}
}

// opcode reads byte 0 and fails unless it equals want.
func (d *decoder) opcode(want byte) byte {
	op := d.at("opcode").U8()
	if d.err == nil && op != want {
		d.fail("opcode", "opcode 0x%02X, want 0x%02X", op, want)
	}
	return op
}

// end fails when bytes are left after a closed layout: the sender and we
// disagree on the layout, and a relay must not guess.
func (d *decoder) end() {
	if d.err == nil && d.Len() != 0 {
		d.fail("end", "%d trailing bytes at offset %d", d.Len(), d.off)
	}
}

// result returns nil or the first error with the message and field names.
func (d *decoder) result() error {
	if d.err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s: %w", d.msg, d.field, d.err)
}

// rawStr16 writes a u16 length and b, cut to 65535 bytes like Writer.Str16.
// It takes bytes so decoded sub-slices re-encode without a string copy.
func (w *Writer) rawStr16(b []byte) {
	if len(b) > math.MaxUint16 {
		b = b[:math.MaxUint16]
	}
	w.U16(uint16(len(b)))
	w.Raw(b)
}

// rawStr8 writes a u8 length and b, cut to 255 bytes like Writer.Str8.
func (w *Writer) rawStr8(b []byte) {
	if len(b) > math.MaxUint8 {
		b = b[:math.MaxUint8]
	}
	w.U8(uint8(len(b)))
	w.Raw(b)
}

// Dir3 is a direction as its three raw wire bytes (codec.md 4.1). Relayed
// and rebuilt messages carry it unchanged: decoding and re-encoding a
// direction is lossy.
type Dir3 [3]int8

// Vector decodes d to a (near) unit vector.
func (d Dir3) Vector() (x, y, z float32) { return DecodeDir3(d) }

// NewDir3 encodes a direction (normalised first, codec.md 4.1).
func NewDir3(x, y, z float32) Dir3 {
	b := EncodeDir3(x, y, z)
	return Dir3{int8(b[0]), int8(b[1]), int8(b[2])}
}

// DirMag is the 5-byte Dir3+CF16 vector form (codec.md 4.2) kept as raw
// wire values: a direction and a CompressedFloat16 magnitude.
type DirMag struct {
	Dir Dir3
	Mag uint16 // raw CF16
}

// Magnitude decodes the CF16 magnitude.
func (v DirMag) Magnitude() float32 { return DecodeCF16(v.Mag) }

// Vector returns direction × decoded magnitude.
func (v DirMag) Vector() (x, y, z float32) {
	x, y, z = v.Dir.Vector()
	m := v.Magnitude()
	return x * m, y * m, z * m
}

// NewDirMag encodes a vector as the stock writer does (Writer.Dir3CF16).
func NewDirMag(x, y, z float32) DirMag {
	return DirMag{Dir: NewDir3(x, y, z), Mag: EncodeCF16(magnitude(x, y, z))}
}

func (r *Reader) dir3() Dir3 { return Dir3(r.Dir3Raw()) }

func (r *Reader) dirMag() DirMag {
	d := r.dir3()
	return DirMag{Dir: d, Mag: r.U16()}
}

func (w *Writer) dir3(d Dir3) { w.buf = append(w.buf, byte(d[0]), byte(d[1]), byte(d[2])) }

func (w *Writer) dirMag(v DirMag) {
	w.dir3(v.Dir)
	w.U16(v.Mag)
}
