package codec

import (
	"encoding/binary"
	"math"
	"unicode/utf16"
)

// Writer appends TGBufferStream primitives to a byte slice. The zero Writer
// is ready to use; Reset reuses a buffer so a hot path allocates nothing.
//
// Packed booleans keep their state across byte writes, exactly like the
// stock stream (codec.md 2.1): a bit written after other fields goes back
// into the open packed byte until it holds five bits.
type Writer struct {
	buf      []byte
	bookmark int // offset of the open packed-bit byte
	nbits    int // bits stored in it; 0 = none open
}

// NewWriter returns a Writer appending to buf (usually buf[:0]).
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Reset makes the Writer append to buf and forgets any open bit group, as a
// fresh stock stream does for every message.
func (w *Writer) Reset(buf []byte) {
	w.buf = buf
	w.bookmark = 0
	w.nbits = 0
}

// Bytes returns the bytes written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Len returns the number of bytes written so far.
func (w *Writer) Len() int { return len(w.buf) }

// U8 writes one byte.
func (w *Writer) U8(v uint8) { w.buf = append(w.buf, v) }

// I8 writes one signed byte.
func (w *Writer) I8(v int8) { w.buf = append(w.buf, byte(v)) }

// U16 writes a little-endian u16.
func (w *Writer) U16(v uint16) { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }

// U24 writes the low 24 bits of v little-endian (the stream's "dword24").
func (w *Writer) U24(v uint32) { w.buf = append(w.buf, byte(v), byte(v>>8), byte(v>>16)) }

// U32 writes a little-endian u32.
func (w *Writer) U32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }

// I32 writes a little-endian i32.
func (w *Writer) I32(v int32) { w.U32(uint32(v)) }

// F32 writes an IEEE-754 single, little-endian.
func (w *Writer) F32(v float32) { w.U32(math.Float32bits(v)) }

// F64 writes an IEEE-754 double, little-endian.
func (w *Writer) F64(v float64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v)) }

// Raw writes b verbatim.
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// Str16 writes a u16 length and the bytes of s, no terminator. Strings longer
// than 65535 bytes are cut, since the prefix cannot say more.
func (w *Writer) Str16(s string) {
	if len(s) > math.MaxUint16 {
		s = s[:math.MaxUint16]
	}
	w.U16(uint16(len(s)))
	w.buf = append(w.buf, s...)
}

// Str8 writes a u8 length and the bytes of s (cut to 255 bytes).
func (w *Writer) Str8(s string) {
	if len(s) > math.MaxUint8 {
		s = s[:math.MaxUint8]
	}
	w.U8(uint8(len(s)))
	w.buf = append(w.buf, s...)
}

// Bit writes one packed boolean (codec.md 2.1): the count field holds the
// real count (1..5), and a group stays open across other writes.
func (w *Writer) Bit(v bool) {
	if w.nbits == 0 || w.nbits == 5 {
		w.bookmark = len(w.buf)
		w.buf = append(w.buf, 0)
		w.nbits = 0
	}
	b := w.buf[w.bookmark]
	if v {
		b |= 1 << w.nbits
	}
	w.nbits++
	w.buf[w.bookmark] = b&0x1F | byte(w.nbits)<<5
}

// CF16 writes v as a CompressedFloat16.
func (w *Writer) CF16(v float32) { w.U16(EncodeCF16(v)) }

// Dir3 writes a unit direction as three signed bytes (codec.md 4.1).
func (w *Writer) Dir3(x, y, z float32) {
	d := EncodeDir3(x, y, z)
	w.buf = append(w.buf, d[0], d[1], d[2])
}

// Dir3CF16 writes the 5-byte vector form: direction then CF16 magnitude
// (codec.md 4.2).
func (w *Writer) Dir3CF16(x, y, z float32) {
	w.Dir3(x, y, z)
	w.CF16(magnitude(x, y, z))
}

// Dir3F32 writes the 7-byte vector form: direction then f32 magnitude.
func (w *Writer) Dir3F32(x, y, z float32) {
	w.Dir3(x, y, z)
	w.F32(magnitude(x, y, z))
}

// TGString writes a TGString, the engine's wide string (codec.md 1): a u16
// count of UTF-16 code units, then the units little-endian. The width of
// the count is an open question of the spec (handshake.md 7); u16 is the
// width of every other length in the stream, and only the renamed-player
// Settings tail uses this form. Strings over 65535 units are cut.
func (w *Writer) TGString(s string) {
	units := utf16.Encode([]rune(s))
	if len(units) > math.MaxUint16 {
		units = units[:math.MaxUint16]
	}
	w.U16(uint16(len(units)))
	for _, u := range units {
		w.U16(u)
	}
}
