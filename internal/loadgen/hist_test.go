package loadgen

import (
	"testing"
	"time"
)

func TestHistQuantiles(t *testing.T) {
	var h hist
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Millisecond)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Millisecond}, {0.99, 990 * time.Millisecond}, {1, time.Second}} {
		got := h.quantile(c.q)
		if d := got - c.want; d < -c.want/25 || d > c.want/25 {
			t.Errorf("q%.2f = %v, want about %v", c.q, got, c.want)
		}
	}
	var small hist
	small.add(3 * time.Microsecond)
	if got := small.quantile(0.5); got != 3*time.Microsecond {
		t.Errorf("exact bucket: %v", got)
	}
	for i := range len(h.n) {
		if lower(bucket(lower(i))) != lower(i) {
			t.Fatalf("bucket %d does not round-trip", i)
		}
	}
}
