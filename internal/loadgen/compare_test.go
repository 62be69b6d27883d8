package loadgen

import (
	"strings"
	"testing"
	"time"
)

func TestParseProfiles(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []Profile
		err  string
	}{
		{in: "1x6x10x4,1x8x10x3", want: []Profile{{1, 6, 10, 4 * time.Second}, {1, 8, 10, 3 * time.Second}}},
		{in: "64x16x10x10", want: []Profile{{64, 16, 10, 10 * time.Second}}},
		{in: "1x6x2.5x0.5", want: []Profile{{1, 6, 2.5, 500 * time.Millisecond}}},
		{in: "1x6x10", err: "want GAMESxBOTSxRATExSECS"},
		{in: "0x6x10x4", err: "positive"},
		{in: "1x1x10x4", err: "positive"},
		{in: "1xAx10x4", err: "positive"},
	} {
		got, err := ParseProfiles(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one with %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Fatalf("%q: %v %v", tt.in, got, err)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: profile %d is %+v, want %+v", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// The start-up row is the median over the loads' starts and the
// start-only runs of each side, with the ratio to the first side.
func TestCompareStartRow(t *testing.T) {
	run := func(ms float64) sideRun { return sideRun{startup: time.Duration(ms * float64(time.Millisecond))} }
	c := &Comparison{
		cfg: CompareConfig{Sides: []Side{{Name: "base"}, {Name: "new"}}, Rounds: 1, Profiles: []Profile{{1, 6, 10, time.Second}, {64, 16, 10, time.Second}}},
		runs: map[string]map[int][]sideRun{
			// the 64-game starts are left out of the one-game row
			"base": {0: {run(30)}, 1: {run(500), run(500)}},
			"new":  {0: {run(1)}, 1: {run(40), run(40)}},
		},
		starts: map[string][]sideRun{
			"base": {run(10), run(12), run(14), run(16)},
			"new":  {run(5), run(6), run(7), run(40)},
		},
	}
	out := c.String()
	if !strings.Contains(out, "start-up: medians of 5 starts of each side with 1 game") {
		t.Errorf("no start count in\n%s", out)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "start to first answered GameSpy query") {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) < 3 || f[len(f)-3] != "14.00" || f[len(f)-2] != "6.00" || f[len(f)-1] != "0.43x" {
		t.Errorf("start row %q, want medians 14.00 and 6.00, ratio 0.43x", line)
	}
}
