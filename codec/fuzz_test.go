package codec

import (
	"bytes"
	"math"
	"testing"
)

// FuzzReader drives a Reader over arbitrary bytes with a read program taken
// from the first input byte: nothing may panic, offsets stay in range, and
// once an error is seen it stays.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0x07, 0x00, 0x00, 0x00, 0x05, 0x42, 0x61, 0x00, 0x25, 0x00})
	f.Add([]byte{0x33, 0x1C, 0xFF, 0xFF, 0xFF, 0x3F, 0x00, 0x80, 0xE1, 0x41, 0x9D})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0x00})
	f.Add([]byte{0x10, 0x43, 0xAA})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		prog := data[0]
		r := NewReader(data[1:])
		var sawErr bool
		for i := 0; i < 64; i++ {
			switch (int(prog) + i*7) % 13 {
			case 0:
				r.U8()
			case 1:
				r.U16()
			case 2:
				r.U24()
			case 3:
				r.U32()
			case 4:
				r.F32()
			case 5:
				r.F64()
			case 6:
				if s := r.Str16(); len(s) > len(data) {
					t.Fatal("string longer than input")
				}
			case 7:
				r.Str8()
			case 8:
				r.Bit()
			case 9:
				r.CF16()
			case 10:
				r.Dir3CF16()
			case 11:
				r.Raw(int(prog) % 5)
			case 12:
				r.Dir3F32()
			}
			if r.Offset() < 0 || r.Offset() > len(data)-1 {
				t.Fatalf("offset %d out of range", r.Offset())
			}
			if sawErr && r.Err() == nil {
				t.Fatal("error not sticky")
			}
			sawErr = r.Err() != nil
		}
	})
}

// FuzzRoundTrip writes values taken from the input and reads them back.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint8(1), uint16(2), uint32(3), float32(1.5), "scripts/", true, false, float32(5.13))
	f.Add(uint8(0xFF), uint16(0xFFFF), uint32(0xFFFFFFFF), float32(math.Copysign(0, -1)), "", false, true, float32(-12345))
	f.Fuzz(func(t *testing.T, a uint8, b uint16, c uint32, fl float32, s string, b1, b2 bool, cf float32) {
		var w Writer
		w.Bit(b1)
		w.U8(a)
		w.U16(b)
		w.Bit(b2)
		w.U24(c)
		w.U32(c)
		w.F32(fl)
		w.Str16(s)
		w.Bit(b1)
		w.CF16(cf)
		w.Str8(s)
		w.Bit(b2)
		w.Bit(b1)
		w.Bit(b2) // sixth bit: opens a second packed byte
		r := NewReader(w.Bytes())
		if r.Bit() != b1 || r.U8() != a || r.U16() != b || r.Bit() != b2 || r.U24() != c&0xFFFFFF || r.U32() != c {
			t.Fatal("scalar mismatch")
		}
		if got := r.F32(); math.Float32bits(got) != math.Float32bits(fl) {
			t.Fatalf("f32 %v != %v", got, fl)
		}
		s16 := s
		if len(s16) > 0xFFFF {
			s16 = s16[:0xFFFF]
		}
		if !bytes.Equal(r.Str16(), []byte(s16)) || r.Bit() != b1 {
			t.Fatal("str16/bit mismatch")
		}
		if got := r.CF16Raw(); got != EncodeCF16(cf) {
			t.Fatal("cf16 mismatch")
		}
		s8 := s
		if len(s8) > 255 {
			s8 = s8[:255]
		}
		if !bytes.Equal(r.Str8(), []byte(s8)) || r.Bit() != b2 || r.Bit() != b1 || r.Bit() != b2 {
			t.Fatal("str8/bits mismatch")
		}
		if r.Err() != nil || r.Len() != 0 {
			t.Fatalf("err=%v left=%d", r.Err(), r.Len())
		}
	})
}

// FuzzCF16 checks the encoder never leaves its bucket rules for any float32.
func FuzzCF16(f *testing.F) {
	f.Add(float32(0.5))
	f.Add(float32(9999.99))
	f.Add(float32(-1e-9))
	f.Fuzz(func(t *testing.T, v float32) {
		e := EncodeCF16(v)
		d := DecodeCF16(e)
		if math.IsNaN(float64(v)) || math.Abs(float64(v)) >= 10000.001 {
			if e&0x7FFF != 0x7FFF {
				t.Fatalf("overflow %v -> %#04x", v, e)
			}
			return
		}
		// Decoding never overshoots the input's magnitude by more than
		// float32 noise (the encoder truncates toward zero).
		if math.Abs(float64(d)) > math.Abs(float64(v))*(1+1e-6)+1e-9 {
			t.Fatalf("%v -> %#04x -> %v overshoots", v, e, d)
		}
	})
}

func BenchmarkWriterStateUpdate(b *testing.B) {
	buf := make([]byte, 0, 64)
	var w Writer
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		w.U8(0x1C)
		w.I32(0x3FFFFFFF)
		w.F32(28.1875)
		w.U8(0x9D)
		w.F32(88)
		w.F32(-66)
		w.F32(-73)
		w.Bit(true)
		w.U16(0xFB37)
		w.Dir3(0.087, 0.819, 0.551)
		w.Dir3(0.378, -0.543, 0.74)
		w.CF16(12.5)
	}
}

func BenchmarkReaderStateUpdate(b *testing.B) {
	msg := []byte{0x1C, 0xFF, 0xFF, 0xFF, 0x3F, 0x00, 0x80, 0xE1, 0x41, 0x9D, 0x00, 0x00, 0xB0, 0x42, 0x00, 0x00,
		0x84, 0xC2, 0x00, 0x00, 0x92, 0xC2, 0x21, 0x37, 0xFB, 0x0B, 0x68, 0x46, 0x30, 0xBB, 0x5E, 0x00, 0x00}
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		r := NewReader(msg)
		r.U8()
		r.I32()
		r.F32()
		r.U8()
		r.F32()
		r.F32()
		r.F32()
		r.Bit()
		r.U16()
		r.Dir3()
		r.Dir3()
		r.CF16()
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
}
