package sandbox

import (
	"testing"
	"time"

	glua "github.com/yuin/gopher-lua"
)

// A call past its limit on the clock is stopped by the CPU time it goes on
// using, not by the time it was kept waiting: one that waited finishes,
// one that computes is stopped a quarter of its limit later, one kept
// waiting 50 ms past its limit is stopped, and without a CPU reading the
// limit on the clock stands.
func TestLateCallsAreStoppedByCPUTime(t *testing.T) {
	const limit = 5 * time.Millisecond
	for _, tt := range []struct {
		name     string
		code     string
		jump     time.Duration // added to the clock at its second reading (the call waited)
		wallStep time.Duration // added to the clock at every reading
		cpuStep  time.Duration // added to the thread's CPU time at every reading
		noCPU    bool
		stopped  bool
		minWall  time.Duration // the clock when stopped, at least
		maxTook  time.Duration // charged, at most (0: not checked)
	}{
		{name: "kept waiting", code: "for i = 1, 20000 do local x = i * 2 end", jump: 7 * time.Millisecond, wallStep: time.Microsecond, cpuStep: time.Microsecond, maxTook: limit + time.Millisecond},
		{name: "computes", code: "while true do end", wallStep: 100 * time.Microsecond, cpuStep: 100 * time.Microsecond, stopped: true, minWall: limit + limit/lateGrace},
		{name: "kept waiting too long", code: "while true do end", jump: 60 * time.Millisecond, wallStep: time.Microsecond, cpuStep: time.Microsecond, stopped: true, minWall: limit + lateWait},
		{name: "no CPU reading", code: "while true do end", wallStep: 100 * time.Microsecond, noCPU: true, stopped: true, minWall: limit},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var wall, cpu time.Duration
			reads := 0
			L := glua.NewState(glua.Options{SkipOpenLibs: true})
			defer L.Close()
			m := NewMeter(L, Budget{
				MaxString: 1 << 20,
				Clock: func() time.Duration {
					reads++
					if reads == 2 {
						wall += tt.jump
					}
					wall += tt.wallStep
					return wall
				},
				ThreadCPU: func() (time.Duration, bool) {
					cpu += tt.cpuStep
					return cpu, !tt.noCPU
				},
				Why: func(Kind, time.Duration) string { return "time budget exceeded" },
			})
			L.SetContext(m)
			m.Arm(limit, KindCall)
			err := L.DoString(tt.code)
			took, stopped := m.Disarm()
			if got := stopped != nil; got != tt.stopped || (err != nil) != tt.stopped {
				t.Fatalf("stopped %v (%v, %v), want %v", got, stopped, err, tt.stopped)
			}
			if tt.stopped && !IsTimeout(stopped) {
				t.Fatalf("stopped by %v, want the time budget", stopped)
			}
			if tt.stopped && wall < tt.minWall {
				t.Errorf("stopped at %v on the clock, want at least %v", wall, tt.minWall)
			}
			if tt.maxTook != 0 && took > tt.maxTook {
				t.Errorf("charged %v, want at most %v (the limit and the CPU time after it)", took, tt.maxTook)
			}
		})
	}
}
