package loadgen

import (
	"math/bits"
	"time"
)

// hist is a log-linear latency histogram in microseconds: exact below
// 64 µs, then 32 buckets per power of two (about 3 % precision). Adding a
// sample is a few instructions and allocates nothing, so every bot keeps
// its own and the report merges them.
type hist struct {
	n      [64 + 40*32]uint64
	count  uint64
	max    time.Duration
	sumMic uint64
}

func bucket(us uint64) int {
	if us < 64 {
		return int(us)
	}
	e := bits.Len64(us) - 6
	i := 64 + (e-1)*32 + int(us>>e) - 32
	return min(i, len(hist{}.n)-1)
}

// lower returns the smallest value of bucket i in microseconds.
func lower(i int) uint64 {
	if i < 64 {
		return uint64(i)
	}
	e := (i-64)/32 + 1
	return uint64((i-64)%32+32) << e
}

func (h *hist) add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	us := uint64(d / time.Microsecond)
	h.n[bucket(us)]++
	h.count++
	h.sumMic += us
	if d > h.max {
		h.max = d
	}
}

func (h *hist) merge(o *hist) {
	for i, v := range o.n {
		h.n[i] += v
	}
	h.count += o.count
	h.sumMic += o.sumMic
	h.max = max(h.max, o.max)
}

// quantile returns the q-quantile (0..1), reported as the middle of its
// bucket and never above the maximum seen.
func (h *hist) quantile(q float64) time.Duration {
	if h.count == 0 {
		return 0
	}
	rank := uint64(q*float64(h.count-1)) + 1
	var seen uint64
	for i, v := range h.n {
		seen += v
		if seen >= rank {
			lo := lower(i)
			hi := lo + 1
			if i+1 < len(h.n) {
				hi = lower(i + 1)
			}
			d := time.Duration((lo+hi)/2) * time.Microsecond
			return min(d, h.max)
		}
	}
	return h.max
}
