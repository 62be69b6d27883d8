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
