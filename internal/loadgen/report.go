package loadgen

import (
	"fmt"
	"strings"
	"time"
)

// Report is the outcome of a run.
type Report struct {
	Games, BotsPerGame int
	Sent               int64 // messages the bots sent
	Expected           int64 // copies owed: each message to every other bot of its game
	Delivered          int64 // copies received (first time)
	Duplicates         int64
	// Relay latency, from the send to the datagram's arrival in the
	// receiving bot's socket (the kernel's stamp, Linux; elsewhere the
	// read); ReadP99 and ReadMax to the bot reading it, which also counts
	// the generator's own waits for CPU.
	P50, P90, P99, Max time.Duration
	ReadP50, ReadP99   time.Duration
	Stamped            bool
	// Elapsed runs from the first send to the end of the drain; Sending
	// is the sending part of it.
	Elapsed, Sending time.Duration
	// TickRate is each game's tick rate as seen by its first bot (host
	// StateUpdate stamps a second); zero when the server sends none.
	TickRate []float64
	// ServerCPU is the CPU time of the server processes over Elapsed;
	// GeneratorCPU the generator's own.
	ServerCPU, GeneratorCPU time.Duration
	// WholeCPU is the servers' CPU time over the whole run, Whole: the
	// joins, the ships, the sending and the drain.
	WholeCPU, Whole time.Duration
	// RSS of the server processes before the bots joined, after, and at
	// the end, and the most seen at any 50 ms sample of the run (0 without
	// pids).
	RSSIdle, RSSJoined, RSSEnd, RSSPeak int64
	// Blackout: messages sent while the links were down, and the time from
	// the links' return to the last of them arriving.
	Backlog      int64
	BacklogAfter time.Duration
	// Flood: datagrams sent, and the real joiners that tried and got in
	// meanwhile.
	FloodSent              int64
	JoinersTried, JoinedIn int
	FloodError             string
	Errors                 []string

	measured time.Duration // the window the tick rates were counted in
}

// DeliveredPct is Delivered/Expected in percent.
func (r Report) DeliveredPct() float64 {
	if r.Expected == 0 {
		return 0
	}
	return 100 * float64(r.Delivered) / float64(r.Expected)
}

// MicrosPerCopy is the server CPU per relayed copy delivered.
func (r Report) MicrosPerCopy() float64 {
	if r.Delivered == 0 {
		return 0
	}
	return float64(r.ServerCPU.Microseconds()) / float64(r.Delivered)
}

// WholeMicrosPerCopy is the server CPU of the whole run (joins, ships,
// sending, drain) per relayed copy delivered: what a short game costs.
func (r Report) WholeMicrosPerCopy() float64 {
	if r.Delivered == 0 {
		return 0
	}
	return float64(r.WholeCPU.Microseconds()) / float64(r.Delivered)
}

func (r *runner) collect(rep *Report) {
	var h, hr hist
	for _, g := range r.games {
		var sent int64
		var ticks int64
		for _, b := range g.bots {
			sent += b.sent.Load()
			rep.Delivered += b.delivered.Load()
			rep.Duplicates += b.dups
			h.merge(&b.lat)
			hr.merge(&b.latRead)
			rep.Stamped = b.stamps
			if b.idx == 0 {
				ticks = b.ticks
			}
			if b.backlogN > 0 {
				rep.Backlog += b.backlogN
				if end := r.blackoutEnd.Load(); end > 0 {
					rep.BacklogAfter = max(rep.BacklogAfter, time.Duration(b.backlogLast-end))
				}
			}
			if b.err != nil {
				rep.Errors = append(rep.Errors, fmt.Sprintf("game %s bot %d: %v", g.server, b.idx, b.err))
			}
		}
		rep.Sent += sent
		rep.Expected += sent * int64(len(g.bots)-1)
		rep.TickRate = append(rep.TickRate, float64(ticks)/rep.measured.Seconds())
	}
	rep.P50, rep.P90, rep.P99, rep.Max = h.quantile(0.5), h.quantile(0.9), h.quantile(0.99), h.max
	rep.ReadP50, rep.ReadP99 = hr.quantile(0.5), hr.quantile(0.99)
	rep.FloodSent = r.floodSent.Load()
	if e := r.floodErr.Load(); e != nil {
		rep.FloodError = (*e).Error()
	}
	rep.JoinersTried = len(r.joiners)
	for _, b := range r.joiners {
		if b.reached.Load() {
			rep.JoinedIn++
		} else if b.err != nil {
			rep.Errors = append(rep.Errors, fmt.Sprintf("joiner %d: %v", b.idx, b.err))
		}
	}
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d games x %d bots: sent %d, delivered %d/%d (%.3f%%), %d duplicates\n",
		r.Games, r.BotsPerGame, r.Sent, r.Delivered, r.Expected, r.DeliveredPct(), r.Duplicates)
	what := "to the receiving socket"
	if !r.Stamped {
		what = "to the receiving bot"
	}
	fmt.Fprintf(&b, "relay latency (%s): p50 %v  p90 %v  p99 %v  max %v\n", what, rd(r.P50), rd(r.P90), rd(r.P99), rd(r.Max))
	if r.Stamped {
		fmt.Fprintf(&b, "  as the bots read it: p50 %v  p99 %v (adds the generator's own waits for CPU)\n", rd(r.ReadP50), rd(r.ReadP99))
	}
	if len(r.TickRate) > 0 {
		lo, hi, sum := r.TickRate[0], r.TickRate[0], 0.0
		for _, t := range r.TickRate {
			lo, hi, sum = min(lo, t), max(hi, t), sum+t
		}
		fmt.Fprintf(&b, "tick rate per game: min %.2f  mean %.2f  max %.2f Hz\n", lo, sum/float64(len(r.TickRate)), hi)
	}
	secs := r.Elapsed.Seconds()
	if r.RSSIdle > 0 {
		fmt.Fprintf(&b, "server CPU: %v over %v = %.2f cores, %.2f µs per relayed copy\n",
			r.ServerCPU, r.Elapsed.Round(time.Millisecond), r.ServerCPU.Seconds()/secs, r.MicrosPerCopy())
		fmt.Fprintf(&b, "  whole run (joins, ships, sending, drain): %v over %v, %.2f µs per relayed copy\n",
			r.WholeCPU, r.Whole.Round(time.Millisecond), r.WholeMicrosPerCopy())
		players := int64(r.Games * r.BotsPerGame)
		fmt.Fprintf(&b, "server RSS: %.1f MB before the bots, %.1f MB joined (%.1f kB per player), %.1f MB at the end, %.1f MB at most\n",
			mb(r.RSSIdle), mb(r.RSSJoined), float64(r.RSSJoined-r.RSSIdle)/1024/float64(players), mb(r.RSSEnd), mb(r.RSSPeak))
	}
	fmt.Fprintf(&b, "generator CPU: %v = %.2f cores\n", r.GeneratorCPU, r.GeneratorCPU.Seconds()/secs)
	if r.FloodSent > 0 || r.FloodError != "" {
		fmt.Fprintf(&b, "flood: %d datagrams (%.0f a second) at the first game; real joiners got in: %d of %d\n",
			r.FloodSent, float64(r.FloodSent)/r.Sending.Seconds(), r.JoinedIn, r.JoinersTried)
		if r.FloodError != "" {
			fmt.Fprintf(&b, "flood error: %s\n", r.FloodError)
		}
	}
	if r.Backlog > 0 {
		fmt.Fprintf(&b, "blackout: %d messages sent while the links were down, the last delivered %v after they came back\n", r.Backlog, rd(r.BacklogAfter))
	}
	for i, e := range r.Errors {
		if i == 5 {
			fmt.Fprintf(&b, "... and %d more errors\n", len(r.Errors)-5)
			break
		}
		fmt.Fprintf(&b, "error: %s\n", e)
	}
	return b.String()
}

func rd(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
