package lua

import (
	"fmt"
	"math"

	glua "github.com/yuin/gopher-lua"
	luar "layeh.com/gopher-luar"

	"github.com/bcserver/bcserver/codec"
)

// Writer is what bc.writer() returns: a script message under construction,
// written with the same primitives as the Go codec (codec.Writer), so a
// mission can reproduce any stock or mod layout byte for byte. Every
// method checks its argument's range and returns the writer for chaining:
//
//	local b = bc.writer():u8(0x2C):i32(2):str16("hi"):bytes()
//
// The message may not grow beyond the runtime's message cap.
type Writer struct {
	w    codec.Writer
	max  int
	self glua.LValue
}

// Reader is what bc.reader(bytes) returns: a cursor over a received
// message. Reading past the end raises a Lua error.
type Reader struct {
	r codec.Reader
}

// newWriter wraps a fresh Writer for L.
func newWriter(L *glua.LState, max int) glua.LValue {
	w := &Writer{max: max}
	w.w.Reset(make([]byte, 0, 32))
	w.self = luar.New(L, w)
	return w.self
}

func newReader(L *glua.LState, b []byte) glua.LValue {
	return luar.New(L, &Reader{r: codec.NewReader(b)})
}

// checkIntArg reads argument n as an integer in [lo, hi].
func checkIntArg(L *glua.LState, n int, what string, lo, hi float64) int64 {
	v := L.CheckNumber(n)
	f := float64(v)
	if f != math.Trunc(f) || f < lo || f > hi {
		L.ArgError(n, fmt.Sprintf("%s: %v is not an integer in %v..%v", what, f, lo, hi))
	}
	return int64(f)
}

func (w *Writer) grow(L *glua.LState, n int) {
	if w.w.Len()+n > w.max {
		L.RaiseError("message longer than %d bytes", w.max)
	}
}

func (w *Writer) ret(L *luar.LState) int {
	L.Push(w.self)
	return 1
}

// U8 writes one unsigned byte (0..255).
func (w *Writer) U8(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "u8", 0, math.MaxUint8)
	w.grow(L.LState, 1)
	w.w.U8(uint8(v))
	return w.ret(L)
}

// I8 writes one signed byte (-128..127).
func (w *Writer) I8(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "i8", math.MinInt8, math.MaxInt8)
	w.grow(L.LState, 1)
	w.w.I8(int8(v))
	return w.ret(L)
}

// U16 writes a little-endian u16 (WriteShort).
func (w *Writer) U16(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "u16", 0, math.MaxUint16)
	w.grow(L.LState, 2)
	w.w.U16(uint16(v))
	return w.ret(L)
}

// I16 writes a little-endian signed 16-bit integer.
func (w *Writer) I16(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "i16", math.MinInt16, math.MaxInt16)
	w.grow(L.LState, 2)
	w.w.U16(uint16(int16(v)))
	return w.ret(L)
}

// I32 writes a little-endian i32 (WriteInt/WriteLong).
func (w *Writer) I32(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "i32", math.MinInt32, math.MaxInt32)
	w.grow(L.LState, 4)
	w.w.I32(int32(v))
	return w.ret(L)
}

// U32 writes a little-endian u32.
func (w *Writer) U32(L *luar.LState) int {
	v := checkIntArg(L.LState, 1, "u32", 0, math.MaxUint32)
	w.grow(L.LState, 4)
	w.w.U32(uint32(v))
	return w.ret(L)
}

// F32 writes an IEEE single (WriteFloat).
func (w *Writer) F32(L *luar.LState) int {
	v := L.CheckNumber(1)
	w.grow(L.LState, 4)
	w.w.F32(float32(v))
	return w.ret(L)
}

// F64 writes an IEEE double.
func (w *Writer) F64(L *luar.LState) int {
	v := L.CheckNumber(1)
	w.grow(L.LState, 8)
	w.w.F64(float64(v))
	return w.ret(L)
}

// Bit writes one packed boolean (codec.md 2.1): up to five share a byte,
// and a group stays open across other writes, as in the stock stream.
func (w *Writer) Bit(L *luar.LState) int {
	w.grow(L.LState, 1)
	w.w.Bit(L.ToBool(1))
	return w.ret(L)
}

// Bits writes each argument as a packed boolean.
func (w *Writer) Bits(L *luar.LState) int {
	n := L.GetTop()
	for i := 1; i <= n; i++ {
		w.grow(L.LState, 1)
		w.w.Bit(L.ToBool(i))
	}
	return w.ret(L)
}

// Str16 writes a u16 length and the bytes (the chat text layout).
func (w *Writer) Str16(L *luar.LState) int {
	s := L.CheckString(1)
	if len(s) > math.MaxUint16 {
		L.ArgError(1, "string longer than 65535 bytes")
	}
	w.grow(L.LState, 2+len(s))
	w.w.Str16(s)
	return w.ret(L)
}

// Str8 writes a u8 length and the bytes.
func (w *Writer) Str8(L *luar.LState) int {
	s := L.CheckString(1)
	if len(s) > math.MaxUint8 {
		L.ArgError(1, "string longer than 255 bytes")
	}
	w.grow(L.LState, 1+len(s))
	w.w.Str8(s)
	return w.ret(L)
}

// Raw writes the bytes of a string verbatim (an embedded message, say).
func (w *Writer) Raw(L *luar.LState) int {
	s := L.CheckString(1)
	w.grow(L.LState, len(s))
	w.w.Raw([]byte(s))
	return w.ret(L)
}

// CF16 writes a CompressedFloat16.
func (w *Writer) CF16(L *luar.LState) int {
	v := L.CheckNumber(1)
	w.grow(L.LState, 2)
	w.w.CF16(float32(v))
	return w.ret(L)
}

// Len returns the number of bytes written.
func (w *Writer) Len(L *luar.LState) int {
	L.Push(glua.LNumber(w.w.Len()))
	return 1
}

// Bytes returns the message as a Lua string, ready for bc.send.
func (w *Writer) Bytes(L *luar.LState) int {
	L.Push(glua.LString(w.w.Bytes()))
	return 1
}

func (r *Reader) check(L *luar.LState) {
	if err := r.r.Err(); err != nil {
		L.RaiseError("%v", err)
	}
}

func (r *Reader) num(L *luar.LState, v float64) int {
	r.check(L)
	L.Push(glua.LNumber(v))
	return 1
}

// U8 reads one unsigned byte.
func (r *Reader) U8(L *luar.LState) int { return r.num(L, float64(r.r.U8())) }

// I8 reads one signed byte.
func (r *Reader) I8(L *luar.LState) int { return r.num(L, float64(r.r.I8())) }

// U16 reads a little-endian u16.
func (r *Reader) U16(L *luar.LState) int { return r.num(L, float64(r.r.U16())) }

// I16 reads a little-endian signed 16-bit integer.
func (r *Reader) I16(L *luar.LState) int { return r.num(L, float64(int16(r.r.U16()))) }

// U32 reads a little-endian u32.
func (r *Reader) U32(L *luar.LState) int { return r.num(L, float64(r.r.U32())) }

// I32 reads a little-endian i32.
func (r *Reader) I32(L *luar.LState) int { return r.num(L, float64(r.r.I32())) }

// F32 reads an IEEE single.
func (r *Reader) F32(L *luar.LState) int { return r.num(L, float64(r.r.F32())) }

// F64 reads an IEEE double.
func (r *Reader) F64(L *luar.LState) int { return r.num(L, r.r.F64()) }

// CF16 reads a CompressedFloat16.
func (r *Reader) CF16(L *luar.LState) int { return r.num(L, float64(r.r.CF16())) }

// Bit reads one packed boolean.
func (r *Reader) Bit(L *luar.LState) int {
	v := r.r.Bit()
	r.check(L)
	L.Push(glua.LBool(v))
	return 1
}

// Str16 reads a u16-length string.
func (r *Reader) Str16(L *luar.LState) int {
	s := r.r.Str16()
	r.check(L)
	L.Push(glua.LString(s))
	return 1
}

// Str8 reads a u8-length string.
func (r *Reader) Str8(L *luar.LState) int {
	s := r.r.Str8()
	r.check(L)
	L.Push(glua.LString(s))
	return 1
}

// Raw reads n bytes (all the rest without an argument).
func (r *Reader) Raw(L *luar.LState) int {
	n := r.r.Len()
	if L.GetTop() >= 1 {
		n = int(checkIntArg(L.LState, 1, "raw", 0, math.MaxInt32))
	}
	b := r.r.Raw(n)
	r.check(L)
	L.Push(glua.LString(b))
	return 1
}

// Remaining returns the number of unread bytes.
func (r *Reader) Remaining(L *luar.LState) int {
	L.Push(glua.LNumber(r.r.Len()))
	return 1
}

// Pos returns the number of bytes read so far.
func (r *Reader) Pos(L *luar.LState) int {
	L.Push(glua.LNumber(r.r.Offset()))
	return 1
}
