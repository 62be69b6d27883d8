package capture

import "math"

// Quantisation of the values a recording keeps (docs/replay-format.md;
// Quant): positions to 1/8 world unit, directions to 1/1000, speeds to 0.1 unit/s,
// fractions (hull, shields, subsystems) to 1/1000, damage to 0.01.
const (
	PosScale    = 8
	DirScale    = 1000
	SpeedScale  = 10
	FracScale   = 1000
	DamageScale = 100
)

// Quant is v to scale, rounded and clamped to the int32 range (NaN is 0):
// two samples with the same quantised value are the same to a recording.
func Quant(v float32, scale float64) int64 {
	f := float64(v) * scale
	switch {
	case math.IsNaN(f):
		return 0
	case f > math.MaxInt32:
		return math.MaxInt32
	case f < math.MinInt32:
		return math.MinInt32
	}
	return int64(math.Round(f))
}

// Frac is a fraction (0..1) quantised to FracScale.
func Frac(v float32) uint64 {
	q := Quant(v, FracScale)
	if q < 0 {
		return 0
	}
	if q > FracScale {
		return FracScale
	}
	return uint64(q)
}

// Unquant is the value a quantised one stands for.
func Unquant(q int64, scale float64) float32 { return float32(float64(q) / scale) }
