package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf16"
)

// ErrShort is wrapped by every error caused by reading past the end.
var ErrShort = errors.New("short buffer")

// ErrBadBits is wrapped when a packed-bit byte has a count outside 1..5.
var ErrBadBits = errors.New("bad packed-bit byte")

// Reader decodes TGBufferStream primitives from a byte slice. It never
// panics and never allocates on success: string and byte reads return
// sub-slices of the input. After the first failure every read returns a zero
// value and Err reports what went wrong, so a decoder checks once at the end.
type Reader struct {
	buf      []byte
	off      int
	err      error
	bookmark int // offset of the open packed-bit byte
	bitCount int // bits stored in it (from its count field)
	bitPos   int // bits already consumed; bitPos == bitCount means none open
}

// NewReader returns a Reader over b.
func NewReader(b []byte) Reader { return Reader{buf: b} }

// Reset makes r read b from the start with no error and no open bit group.
func (r *Reader) Reset(b []byte) { *r = Reader{buf: b} }

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the number of bytes consumed.
func (r *Reader) Offset() int { return r.off }

// Len returns the number of unread bytes.
func (r *Reader) Len() int { return len(r.buf) - r.off }

// Rest returns the unread bytes without consuming them.
func (r *Reader) Rest() []byte { return r.buf[r.off:] }

// Fail records err as the Reader's error if none is recorded yet. Message
// decoders use it to report semantic errors through the same channel.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *Reader) need(n int, what string) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || len(r.buf)-r.off < n {
		r.err = fmt.Errorf("reading %s at offset %d: need %d bytes, have %d: %w",
			what, r.off, n, len(r.buf)-r.off, ErrShort)
		return false
	}
	return true
}

// U8 reads one byte.
func (r *Reader) U8() uint8 {
	if !r.need(1, "u8") {
		return 0
	}
	v := r.buf[r.off]
	r.off++
	return v
}

// I8 reads one signed byte.
func (r *Reader) I8() int8 { return int8(r.U8()) }

// U16 reads a little-endian u16.
func (r *Reader) U16() uint16 {
	if !r.need(2, "u16") {
		return 0
	}
	v := binary.LittleEndian.Uint16(r.buf[r.off:])
	r.off += 2
	return v
}

// U24 reads a little-endian 24-bit value.
func (r *Reader) U24() uint32 {
	if !r.need(3, "u24") {
		return 0
	}
	b := r.buf[r.off:]
	r.off += 3
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
}

// U32 reads a little-endian u32.
func (r *Reader) U32() uint32 {
	if !r.need(4, "u32") {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.buf[r.off:])
	r.off += 4
	return v
}

// I32 reads a little-endian i32.
func (r *Reader) I32() int32 { return int32(r.U32()) }

// F32 reads an IEEE-754 single.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// F64 reads an IEEE-754 double.
func (r *Reader) F64() float64 {
	if !r.need(8, "f64") {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.buf[r.off:])
	r.off += 8
	return math.Float64frombits(v)
}

// Raw reads n bytes and returns them as a sub-slice of the input.
func (r *Reader) Raw(n int) []byte {
	if !r.need(n, "raw bytes") {
		return nil
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b
}

// Str16 reads a u16 length and that many bytes (a sub-slice of the input).
// The length is checked against what is left before anything is returned.
func (r *Reader) Str16() []byte {
	n := r.U16()
	if r.err != nil {
		return nil
	}
	if !r.need(int(n), "u16-prefixed string") {
		return nil
	}
	return r.Raw(int(n))
}

// Str8 reads a u8 length and that many bytes (a sub-slice of the input).
func (r *Reader) Str8() []byte {
	n := r.U8()
	if r.err != nil {
		return nil
	}
	if !r.need(int(n), "u8-prefixed string") {
		return nil
	}
	return r.Raw(int(n))
}

// Bit reads one packed boolean (codec.md 2.2). Byte reads in between do not
// close the open group, exactly like the stock reader. A packed byte whose
// count is 0 or more than 5 is malformed.
func (r *Reader) Bit() bool {
	if r.err != nil {
		return false
	}
	if r.bitPos >= r.bitCount {
		if !r.need(1, "packed bits") {
			return false
		}
		b := r.buf[r.off]
		count := int(b >> 5)
		if count == 0 || count > 5 {
			r.err = fmt.Errorf("packed-bit byte 0x%02X at offset %d has count %d: %w", b, r.off, count, ErrBadBits)
			return false
		}
		r.bookmark = r.off
		r.off++
		r.bitCount = count
		r.bitPos = 0
	}
	v := r.buf[r.bookmark]>>r.bitPos&1 == 1
	r.bitPos++
	return v
}

// BitsLeft returns the packed bits of the open group not read yet: a
// stream whose writer closed its last group leaves none.
func (r *Reader) BitsLeft() int { return r.bitCount - r.bitPos }

// CF16Raw reads a CompressedFloat16 without decoding it. Relays copy these
// two bytes; decoding and re-encoding is lossy (codec.md 3.2).
func (r *Reader) CF16Raw() uint16 { return r.U16() }

// CF16 reads and decodes a CompressedFloat16.
func (r *Reader) CF16() float32 { return DecodeCF16(r.U16()) }

// Dir3Raw reads a 3-byte direction without decoding it.
func (r *Reader) Dir3Raw() [3]int8 {
	b := r.Raw(3)
	if b == nil {
		return [3]int8{}
	}
	return [3]int8{int8(b[0]), int8(b[1]), int8(b[2])}
}

// Dir3 reads and decodes a 3-byte unit direction.
func (r *Reader) Dir3() (x, y, z float32) {
	d := r.Dir3Raw()
	return DecodeDir3(d)
}

// Dir3CF16 reads the 5-byte vector form and returns direction × magnitude.
func (r *Reader) Dir3CF16() (x, y, z float32) {
	x, y, z = r.Dir3()
	m := r.CF16()
	return x * m, y * m, z * m
}

// Dir3F32 reads the 7-byte vector form and returns direction × magnitude.
func (r *Reader) Dir3F32() (x, y, z float32) {
	x, y, z = r.Dir3()
	m := r.F32()
	return x * m, y * m, z * m
}

// TGString reads a TGString written by Writer.TGString: a u16 count of
// UTF-16 code units, checked against what is left, then the units.
func (r *Reader) TGString() string {
	n := int(r.U16())
	if r.err != nil || !r.need(2*n, "TGString") {
		return ""
	}
	units := make([]uint16, n)
	for i := range units {
		units[i] = r.U16()
	}
	return string(utf16.Decode(units))
}
