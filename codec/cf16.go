package codec

import "math"

// CompressedFloat16 constants (codec.md 3). All arithmetic is float32; the
// explicit float32 conversions below force rounding after every operation
// so the compiler cannot fuse a multiply-add, which would change the last
// bit on some inputs and break byte equality with the stock encoder.
const (
	cf16Base    float32 = 0.001
	cf16Mult    float32 = 10.0
	cf16Scale   float32 = 4095.0
	cf16Inverse float32 = 1.0 / 4095.0 // float32 0x39800801
)

// cf16Bounds[e] and cf16Bounds[e+1] are the lo/hi of scale e, built by the
// same repeated float32 multiplication as the stock code, so each boundary
// lies slightly above its decimal value (codec.md 3.1).
var cf16Bounds = func() [9]float32 {
	var b [9]float32
	b[0] = 0
	hi := cf16Base
	for e := 1; e <= 8; e++ {
		b[e] = hi
		hi = float32(hi * cf16Mult)
	}
	return b
}()

// EncodeCF16 encodes v exactly as the stock encoder: bucket by repeated
// float32 boundaries, mantissa = trunc((v-lo)/(hi-lo) * 4095), clamp on
// overflow to 0x7FFF / 0xFFFF.
func EncodeCF16(v float32) uint16 {
	var s uint16
	if v < 0 {
		s = 8
		v = -v
	}
	if v != v { // NaN compares false everywhere; the stock loop ends in the clamp
		return (s|7)<<12 | 0xFFF
	}
	e := 0
	for e < 8 {
		if v < cf16Bounds[e+1] {
			break
		}
		e++
	}
	if e == 8 {
		return (s|7)<<12 | 0xFFF
	}
	lo, hi := cf16Bounds[e], cf16Bounds[e+1]
	frac := float32(float32(v-lo) / float32(hi-lo))
	mf := float32(frac * cf16Scale)
	var m int32
	if mf >= 4095 {
		m = 4095
	} else if mf > 0 {
		m = int32(mf) // truncation toward zero
	}
	return (s|uint16(e))<<12 | uint16(m)
}

// DecodeCF16 decodes a CompressedFloat16 with the stock 1/4095 inverse.
func DecodeCF16(r uint16) float32 {
	m := float32(r & 0xFFF)
	e := (r >> 12) & 7
	lo, hi := cf16Bounds[e], cf16Bounds[e+1]
	x := float32(float32(float32(hi-lo)*m) * cf16Inverse)
	x = float32(x + lo)
	if r>>15 != 0 {
		return -x
	}
	return x
}

// EncodeDir3 encodes a direction as three signed bytes: normalise (unless
// the vector is ~zero), multiply by 127 and truncate toward zero.
func EncodeDir3(x, y, z float32) [3]byte {
	mag := magnitude(x, y, z)
	if mag > 1e-6 {
		x = float32(x / mag)
		y = float32(y / mag)
		z = float32(z / mag)
	}
	return [3]byte{dirByte(x), dirByte(y), dirByte(z)}
}

func dirByte(v float32) byte {
	f := float32(v * 127.0)
	switch {
	case f != f:
		return 0
	case f >= 127:
		return 127
	case f <= -128:
		return 0x80
	}
	return byte(int8(f))
}

// DecodeDir3 decodes three signed direction bytes to a (near) unit vector.
func DecodeDir3(d [3]int8) (x, y, z float32) {
	return float32(d[0]) / 127, float32(d[1]) / 127, float32(d[2]) / 127
}

func magnitude(x, y, z float32) float32 {
	s := float32(float32(float32(x*x)+float32(y*y)) + float32(z*z))
	return float32(math.Sqrt(float64(s)))
}
