package codec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

func mustHex(t *testing.T, s string) []byte { return vectors.MustHex(t, s) }

// The hex examples of codec.md 2.3.
func TestBitExamples(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *Writer)
		want  string
	}{
		{"one false", func(w *Writer) { w.Bit(false) }, "20"},
		{"one true", func(w *Writer) { w.Bit(true) }, "21"},
		{"settings 1,0,0", func(w *Writer) { w.Bit(true); w.Bit(false); w.Bit(false) }, "61"},
		{"1,0,1 then int32", func(w *Writer) { w.Bit(true); w.Bit(false); w.Bit(true); w.I32(0x11223344) }, "6544332211"},
		{"five ones then one", func(w *Writer) {
			for range 5 {
				w.Bit(true)
			}
			w.Bit(true)
		}, "BF21"},
		{"bit byte bit", func(w *Writer) { w.Bit(true); w.U8(0xAA); w.Bit(true) }, "43AA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Writer
			tt.write(&w)
			if got := hex.EncodeToString(w.Bytes()); got != hex.EncodeToString(mustHex(t, tt.want)) {
				t.Fatalf("got %s want %s", got, tt.want)
			}
		})
	}
}

func TestBitReaderExamples(t *testing.T) {
	r := NewReader(mustHex(t, "6544332211"))
	if !r.Bit() || r.Bit() || !r.Bit() {
		t.Fatal("bits 1,0,1 not read back")
	}
	if v := r.I32(); v != 0x11223344 {
		t.Fatalf("int after bits = %#x", v)
	}
	r = NewReader(mustHex(t, "43AA"))
	if !r.Bit() || r.U8() != 0xAA || !r.Bit() || r.Len() != 0 || r.Err() != nil {
		t.Fatalf("bit byte bit: err=%v len=%d", r.Err(), r.Len())
	}
	r = NewReader(mustHex(t, "BF21"))
	for i := range 6 {
		if !r.Bit() {
			t.Fatalf("bit %d false", i)
		}
	}
	if r.Err() != nil || r.Len() != 0 {
		t.Fatalf("err=%v len=%d", r.Err(), r.Len())
	}
	// A seventh read needs a new packed byte and must fail cleanly.
	if r.Bit() || !errors.Is(r.Err(), ErrShort) {
		t.Fatalf("read past end: %v", r.Err())
	}
	for _, bad := range []string{"00", "C1", "E1"} {
		r = NewReader(mustHex(t, bad))
		r.Bit()
		if !errors.Is(r.Err(), ErrBadBits) {
			t.Errorf("%s: want ErrBadBits, got %v", bad, r.Err())
		}
	}
}

// Settings (handshake.md 2.5): WriteBit, WriteBit, WriteByte, WriteShort,
// WriteBytes, WriteBit gives one packed byte 0x61 — the captured payload.
func TestSettingsCapture(t *testing.T) {
	var vecs []struct {
		Name       string `json:"name"`
		PayloadHex string `json:"payload_hex"`
	}
	vectors.MustLoad(t, "session.json", &vecs)
	want := map[string][]byte{}
	for _, v := range vecs {
		want[v.Name] = mustHex(t, v.PayloadHex)
	}
	build := func(time float32, slot uint8) []byte {
		var w Writer
		w.U8(0x00)
		w.F32(time)
		w.Bit(true)
		w.Bit(false)
		w.U8(slot)
		w.Str16("Multiplayer.Episode.Mission1.Mission1")
		w.Bit(false)
		return w.Bytes()
	}
	if got := build(33.25, 0); !bytes.Equal(got, want["settings"]) {
		t.Errorf("settings:\n got %X\nwant %X", got, want["settings"])
	}
	if got := build(23.890625, 0); !bytes.Equal(got, want["settings_first_player_battle"]) {
		t.Errorf("settings (battle):\n got %X\nwant %X", got, want["settings_first_player_battle"])
	}
	// And read it back with the stock reader rules.
	r := NewReader(want["settings"])
	if r.U8() != 0 || r.F32() != 33.25 || !r.Bit() || r.Bit() || r.U8() != 0 {
		t.Fatal("settings header mismatch")
	}
	if s := string(r.Str16()); s != "Multiplayer.Episode.Mission1.Mission1" {
		t.Fatalf("map %q", s)
	}
	if r.Bit() || r.Err() != nil || r.Len() != 0 {
		t.Fatalf("correction bit: err=%v left=%d", r.Err(), r.Len())
	}
}

// ChecksumReq payloads (handshake.md 2.2) exercise Str16 and a lone bit.
func TestChecksumRequestCapture(t *testing.T) {
	tests := []struct {
		round     uint8
		dir, filt string
		rec       bool
		want      string
	}{
		{0, "scripts/", "App.pyc", false, "20000800736372697074732F07004170702E70796320"},
		{1, "scripts/", "Autoexec.pyc", false, "20010800736372697074732F0C004175746F657865632E70796320"},
		{2, "scripts/ships", "*.pyc", true, "20020D00736372697074732F736869707305002A2E70796321"},
		{3, "scripts/mainmenu", "*.pyc", false, "20031000736372697074732F6D61696E6D656E7505002A2E70796320"},
		{0xFF, "Scripts/Multiplayer", "*.pyc", true, "20FF1300536372697074732F4D756C7469706C6179657205002A2E70796321"},
	}
	for _, tt := range tests {
		var w Writer
		w.U8(0x20)
		w.U8(tt.round)
		w.Str16(tt.dir)
		w.Str16(tt.filt)
		w.Bit(tt.rec)
		if want := mustHex(t, tt.want); !bytes.Equal(w.Bytes(), want) {
			t.Errorf("round %d: got %X want %X", tt.round, w.Bytes(), want)
		}
	}
}

// StateUpdate 0x9D from a client (opcodes.md 3.3): f32 position, a packed
// has_hash bit, u16 hash, Dir3 forward/up, CF16 speed and weapon bytes.
func TestStateUpdateCaptureFields(t *testing.T) {
	b := mustHex(t, "1CFFFFFF3F0080E1419D0000B042000084C2000092C22137FB0B684630BB5E000001CC02CC04CC")
	r := NewReader(b)
	if r.U8() != 0x1C || uint32(r.I32()) != 0x3FFFFFFF || r.F32() != 28.1875 || r.U8() != 0x9D {
		t.Fatal("header")
	}
	if x, y, z := r.F32(), r.F32(), r.F32(); x != 88 || y != -66 || z != -73 {
		t.Fatalf("position %v %v %v", x, y, z)
	}
	if !r.Bit() || r.U16() != 0xFB37 {
		t.Fatal("hash")
	}
	fx, fy, fz := r.Dir3()
	if !near(fx, 0.087, 0.001) || !near(fy, 0.819, 0.001) || !near(fz, 0.551, 0.001) {
		t.Fatalf("forward %v %v %v", fx, fy, fz)
	}
	r.Dir3()
	if r.CF16() != 0 {
		t.Fatal("speed")
	}
	for _, want := range []uint8{1, 2, 4} {
		if r.U8() != want || r.U8() != 0xCC {
			t.Fatal("weapons")
		}
	}
	if r.Err() != nil || r.Len() != 0 {
		t.Fatalf("err=%v left=%d", r.Err(), r.Len())
	}
}

func near(a, b, eps float32) bool { return float32(math.Abs(float64(a-b))) <= eps }

// The CF16 table of codec.md 3.3.
func TestCF16Table(t *testing.T) {
	tests := []struct {
		v      float32
		enc    uint16
		decode float32
		eps    float32
	}{
		{0, 0x0000, 0, 0},
		{0.5, 0x371B, 0.4998, 0.0001},
		{1.0, 0x3FFE, 0.9998, 0.0001},
		{5.0, 0x471B, 4.9978, 0.0001},
		{5.13, 0x4757, 5.1297, 0.0001},
		{15.0, 0x50E3, 14.989, 0.001},
		{25.0, 0x52AA, 24.989, 0.001},
		{100.0, 0x5FFE, 99.978, 0.001},
		{273.0, 0x6313, 272.967, 0.001},
		{1000.0, 0x6FFE, 999.780, 0.001},
		{1500.0, 0x70E3, 1498.90, 0.01},
		{2063.0, 0x71E3, 2061.54, 0.01},
		{5000.0, 0x771B, 4997.80, 0.01},
		{-7.5, 0xCB8D, -7.4989, 0.0001},
		{12345.0, 0x7FFF, 10000.0, 0.01},
		{10000.0, 0x7FFE, 9997.8, 0.1},
	}
	for _, tt := range tests {
		if got := EncodeCF16(tt.v); got != tt.enc {
			t.Errorf("Encode(%v) = %#04x, want %#04x", tt.v, got, tt.enc)
		}
		if got := DecodeCF16(tt.enc); !near(got, tt.decode, tt.eps) {
			t.Errorf("Decode(%#04x) = %v, want %v", tt.enc, got, tt.decode)
		}
		var w Writer
		w.CF16(tt.v)
		if b := w.Bytes(); b[0] != byte(tt.enc) || b[1] != byte(tt.enc>>8) {
			t.Errorf("wire bytes of %v = %X", tt.v, b)
		}
	}
	// The float32 boundary constants of codec.md 3 and 3.1.
	if math.Float32bits(cf16Inverse) != 0x39800801 || math.Float32bits(cf16Base) != 0x3A83126F {
		t.Errorf("constants: inv %#x base %#x", math.Float32bits(cf16Inverse), math.Float32bits(cf16Base))
	}
	if cf16Bounds[2] != float32(0.0100000007) || cf16Bounds[4] != float32(1.00000012) || cf16Bounds[7] != float32(1000.00006) {
		t.Errorf("boundaries %v", cf16Bounds)
	}
}

// Properties over the whole 16-bit domain: decoding is monotonic within a
// scale, stays inside its bucket, and re-encoding a decoded value lands on
// the same code or the one below it (the encoder truncates).
func TestCF16WholeDomain(t *testing.T) {
	prev := float32(-1)
	for r := 0; r <= 0xFFFF; r++ {
		c := uint16(r)
		v := DecodeCF16(c)
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("Decode(%#04x) = %v", c, v)
		}
		if c&0x8000 != 0 && c&0x7FFF != 0 && v >= 0 {
			t.Fatalf("Decode(%#04x) = %v not negative", c, v)
		}
		if c < 0x8000 {
			// Within a scale decoding is monotonic; mantissa 4095 of one
			// scale may decode a hair above mantissa 0 of the next.
			if v < prev && (c&0x0FFF != 0 || prev-v > prev*1e-6) {
				t.Fatalf("not monotonic at %#04x: %v < %v", c, v, prev)
			}
			prev = v
		}
		if c == 0x8000 { // negative zero decodes to -0, which encodes as +0
			continue
		}
		// Truncation may land one code lower; mantissa 4095 decodes to
		// (almost exactly) hi, which may encode as mantissa 0 of the next
		// bucket, one code higher.
		e := EncodeCF16(v)
		if e != c && e != c-1 && !(c&0x0FFF == 0x0FFF && e == c+1) {
			t.Fatalf("Encode(Decode(%#04x)=%v) = %#04x", c, v, e)
		}
		if -v != DecodeCF16(c^0x8000) {
			t.Fatalf("sign symmetry broken at %#04x", c)
		}
	}
}

func TestDir3(t *testing.T) {
	// TorpedoFire capture: DF 87 11 -> (-33, -121, 17)/127.
	x, y, z := DecodeDir3([3]int8{-33, -121, 17})
	if !near(x, -0.260, 0.001) || !near(y, -0.953, 0.001) || !near(z, 0.134, 0.001) {
		t.Fatalf("decode %v %v %v", x, y, z)
	}
	tests := []struct {
		x, y, z float32
		want    [3]byte
	}{
		{1, 0, 0, [3]byte{127, 0, 0}},
		{0, 0, -2, [3]byte{0, 0, 0x81}},
		{0, 0, 0, [3]byte{0, 0, 0}},
		{3, 4, 0, [3]byte{76, 101, 0}}, // 0.6*127=76.2, 0.8*127=101.6, truncated
		{x, y, z, [3]byte{0xDF, 0x87, 0x11}},
	}
	for _, tt := range tests {
		if got := EncodeDir3(tt.x, tt.y, tt.z); got != tt.want {
			t.Errorf("EncodeDir3(%v,%v,%v) = %X want %X", tt.x, tt.y, tt.z, got, tt.want)
		}
	}
	var w Writer
	w.Dir3CF16(0, 0, 0)
	if !bytes.Equal(w.Bytes(), []byte{0, 0, 0, 0, 0}) {
		t.Errorf("zero vector = %X", w.Bytes())
	}
	w.Reset(nil)
	w.Dir3CF16(0, 5, 0)
	if !bytes.Equal(w.Bytes(), mustHex(t, "007F001B47")) {
		t.Errorf("Dir3CF16 = %X", w.Bytes())
	}
	r := NewReader(w.Bytes())
	if x, y, z := r.Dir3CF16(); x != 0 || !near(y, 4.9978, 0.0001) || z != 0 {
		t.Errorf("read back %v %v %v", x, y, z)
	}
	w.Reset(nil)
	w.Dir3F32(0, -2, 0)
	if !bytes.Equal(w.Bytes(), mustHex(t, "0081000000 0040")) {
		t.Errorf("Dir3F32 = %X", w.Bytes())
	}
	r = NewReader(w.Bytes())
	if x, y, z := r.Dir3F32(); x != 0 || y != -2 || z != 0 {
		t.Errorf("read back F32 form %v %v %v", x, y, z)
	}
}

func TestScalarsRoundTrip(t *testing.T) {
	var w Writer
	w.U8(0xAB)
	w.I8(-2)
	w.U16(0xBEEF)
	w.U24(0x123456)
	w.U32(0xDEADBEEF)
	w.I32(-5)
	w.F32(1.5)
	w.F64(-2.25)
	w.Raw([]byte{1, 2, 3})
	w.Str8("Cady2")
	w.Str16("")
	want := mustHex(t, "AB FE EFBE 563412 EFBEADDE FBFFFFFF 0000C03F 00000000000002C0 010203 054361647932 0000")
	if !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("got  %X\nwant %X", w.Bytes(), want)
	}
	r := NewReader(want)
	ok := r.U8() == 0xAB && r.I8() == -2 && r.U16() == 0xBEEF && r.U24() == 0x123456 &&
		r.U32() == 0xDEADBEEF && r.I32() == -5 && r.F32() == 1.5 && r.F64() == -2.25 &&
		bytes.Equal(r.Raw(3), []byte{1, 2, 3}) && string(r.Str8()) == "Cady2" && len(r.Str16()) == 0
	if !ok || r.Err() != nil || r.Len() != 0 {
		t.Fatalf("read back failed: %v", r.Err())
	}
}

// Every read past the end fails, is sticky, and returns zero values.
func TestReaderShortEverywhere(t *testing.T) {
	full := mustHex(t, "AB EFBE 563412 EFBEADDE 0000C03F 00000000000002C0 0300 616263 02 6869 21")
	read := func(r *Reader) {
		r.U8()
		r.U16()
		r.U24()
		r.U32()
		r.F32()
		r.F64()
		r.Str16()
		r.Str8()
		r.Bit()
	}
	r := NewReader(full)
	read(&r)
	if r.Err() != nil || r.Len() != 0 {
		t.Fatalf("full read: %v", r.Err())
	}
	for n := 0; n < len(full); n++ {
		r := NewReader(full[:n])
		read(&r)
		if !errors.Is(r.Err(), ErrShort) {
			t.Fatalf("truncated at %d: err = %v", n, r.Err())
		}
		if r.U32() != 0 || r.Str16() != nil {
			t.Fatalf("reads after an error must return zero values")
		}
	}
	// A length prefix larger than what is left is refused before any slice.
	r = NewReader(mustHex(t, "FFFF 00"))
	if r.Str16() != nil || !errors.Is(r.Err(), ErrShort) {
		t.Fatal("oversized Str16 accepted")
	}
}

func TestStringCaps(t *testing.T) {
	var w Writer
	long := string(make([]byte, 300))
	w.Str8(long)
	if w.Len() != 256 || w.Bytes()[0] != 255 {
		t.Fatalf("Str8 cap: len %d", w.Len())
	}
}
