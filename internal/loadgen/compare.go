package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Side is one server binary of a side-by-side comparison.
type Side struct {
	Name string // "base", "new"
	Bin  string // path of the bcserver binary
}

// Profile is one load of a comparison: Games games × Bots bots × Rate
// messages a second for Duration, against a fresh server.
type Profile struct {
	Games, Bots int
	Rate        float64
	Duration    time.Duration
}

func (p Profile) String() string {
	return fmt.Sprintf("%dx%dx%gx%v", p.Games, p.Bots, p.Rate, p.Duration)
}

// ParseProfiles reads "GAMESxBOTSxRATExSECS,..." (e.g. "1x6x10x4").
func ParseProfiles(s string) ([]Profile, error) {
	var out []Profile
	for _, f := range strings.Split(s, ",") {
		parts := strings.Split(strings.TrimSpace(f), "x")
		if len(parts) != 4 {
			return nil, fmt.Errorf("profile %q: want GAMESxBOTSxRATExSECS", f)
		}
		g, e1 := strconv.Atoi(parts[0])
		b, e2 := strconv.Atoi(parts[1])
		r, e3 := strconv.ParseFloat(parts[2], 64)
		secs, e4 := strconv.ParseFloat(parts[3], 64)
		if err := errors.Join(e1, e2, e3, e4); err != nil || g < 1 || b < 2 || r <= 0 || secs <= 0 {
			return nil, fmt.Errorf("profile %q: want GAMESxBOTSxRATExSECS with positive numbers", f)
		}
		out = append(out, Profile{Games: g, Bots: b, Rate: r, Duration: time.Duration(secs * float64(time.Second))})
	}
	return out, nil
}

// CompareConfig is a side-by-side run: every round runs each side in turn
// (the order alternating between rounds, so drift in the machine's load
// falls on both), each profile against a fresh server started for it.
type CompareConfig struct {
	Sides    []Side
	Rounds   int           // default 3
	Profiles []Profile     // default 1x6x10x4, 1x8x10x3 (the issue's)
	Idle     time.Duration // idle measurement after the first start (default 5 s)
	// Starts is how many more times each side is started (and stopped)
	// every round for the start-up figures alone, which vary the most:
	// the page faults of a fresh process cost what the machine's memory
	// costs at that moment. Default 5; negative for none.
	Starts int
	Port   int       // first UDP port of the servers (default 41101)
	Args   []string  // more server flags
	Out    io.Writer // a line per run
}

// sideRun is what one start of one side measured.
type sideRun struct {
	startup   time.Duration // exec to the first GameSpy answer
	startCPU  time.Duration // the server's CPU time by then
	idleCPU   float64       // ms a second
	idleWakes float64       // context switches a second
	idleRSS   int64
	rep       Report
}

// Comparison holds every run of every side.
type Comparison struct {
	cfg    CompareConfig
	runs   map[string]map[int][]sideRun // side, profile index
	starts map[string][]sideRun         // side: the start-only runs (Starts)
}

// Compare runs the comparison and returns it; String prints the table.
func Compare(ctx context.Context, cfg CompareConfig) (*Comparison, error) {
	if len(cfg.Sides) < 1 {
		return nil, errors.New("compare: no server binary")
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = 3
	}
	if len(cfg.Profiles) == 0 {
		cfg.Profiles = []Profile{{1, 6, 10, 4 * time.Second}, {1, 8, 10, 3 * time.Second}}
	}
	if cfg.Idle <= 0 {
		cfg.Idle = 5 * time.Second
	}
	if cfg.Port <= 0 {
		cfg.Port = 41101
	}
	if cfg.Starts == 0 {
		cfg.Starts = 5
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	for i, side := range cfg.Sides {
		// The servers run in a scratch folder of their own.
		abs, err := filepath.Abs(side.Bin)
		if err != nil {
			return nil, err
		}
		cfg.Sides[i].Bin = abs
	}
	c := &Comparison{cfg: cfg, runs: map[string]map[int][]sideRun{}, starts: map[string][]sideRun{}}
	dir, err := os.MkdirTemp("", "bcserver-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for round := 0; round < cfg.Rounds; round++ {
		order := slices.Clone(cfg.Sides)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, side := range order {
			for range cfg.Starts {
				sr, err := c.startOnly(ctx, side, dir)
				if err != nil {
					return c, fmt.Errorf("round %d, %s, a start: %w", round+1, side.Name, err)
				}
				c.starts[side.Name] = append(c.starts[side.Name], sr)
			}
			if cfg.Starts > 0 {
				xs := c.starts[side.Name][len(c.starts[side.Name])-cfg.Starts:]
				fmt.Fprintf(cfg.Out, "round %d %-5s %d starts: %s ms\n", round+1, side.Name, cfg.Starts, startList(xs))
			}
			for pi, prof := range cfg.Profiles {
				sr, err := c.runOnce(ctx, side, prof, pi == 0, dir)
				if err != nil {
					return c, fmt.Errorf("round %d, %s, %v: %w", round+1, side.Name, prof, err)
				}
				if c.runs[side.Name] == nil {
					c.runs[side.Name] = map[int][]sideRun{}
				}
				c.runs[side.Name][pi] = append(c.runs[side.Name][pi], sr)
				fmt.Fprintf(cfg.Out, "round %d %-5s %-12v start %6.2f ms (cpu %5.1f ms)  idle %s  %6.1f µs/copy whole, %6.1f sending  p99 %-8v rss peak %.1f MB  %d/%d delivered\n",
					round+1, side.Name, prof, ms(sr.startup), ms(sr.startCPU), idleText(sr, pi == 0),
					sr.rep.WholeMicrosPerCopy(), sr.rep.MicrosPerCopy(), rd(sr.rep.P99), mb(sr.rep.RSSPeak), sr.rep.Delivered, sr.rep.Expected)
			}
		}
	}
	return c, nil
}

func idleText(sr sideRun, measured bool) string {
	if !measured {
		return "-"
	}
	return fmt.Sprintf("%5.2f ms/s %5.1f wakes/s rss %.1f MB", sr.idleCPU, sr.idleWakes, mb(sr.idleRSS))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// startOnly starts a fresh server of side with as many games as the first
// profile (the start-up row is the loads' starts and these), measures its
// start and stops it.
func (c *Comparison) startOnly(ctx context.Context, side Side, dir string) (sideRun, error) {
	var sr sideRun
	cmd, err := c.start(ctx, side, c.cfg.Profiles[0].Games, dir, &sr)
	if cmd != nil {
		stopServer(cmd)
	}
	return sr, err
}

// start starts a server of side with games games and measures the time to
// its first answer and the CPU it used by then. The caller stops the
// server it returns (non-nil once started, whatever the error).
func (c *Comparison) start(ctx context.Context, side Side, games int, dir string, sr *sideRun) (*exec.Cmd, error) {
	port := c.cfg.Port
	args := append([]string{"-addr", "127.0.0.1", "-port", strconv.Itoa(port), "-games", strconv.Itoa(games),
		"-max-players", "16", "-log-level", "warn"}, c.cfg.Args...)
	cmd := exec.CommandContext(ctx, side.Bin, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	probe, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if sr.startup, err = firstAnswer(probe, netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(port)), start); err != nil {
		return cmd, err
	}
	sr.startCPU, _ = processCPU(strconv.Itoa(cmd.Process.Pid))
	return cmd, nil
}

// runOnce starts a fresh server of side for one profile, measures its
// start (and, if idle, an idle spell), runs the load and stops it.
func (c *Comparison) runOnce(ctx context.Context, side Side, prof Profile, idle bool, dir string) (sideRun, error) {
	var sr sideRun
	port := c.cfg.Port
	cmd, err := c.start(ctx, side, prof.Games, dir, &sr)
	if cmd != nil {
		defer stopServer(cmd)
	}
	if err != nil {
		return sr, err
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	// Let start-up's stragglers (the first collection, released pages)
	// settle before measuring: players arrive later than a millisecond
	// after the first answer.
	if err := sleep(ctx, time.Second); err != nil {
		return sr, err
	}
	if idle {
		cpu0, _ := processCPU(pid)
		sw0, _ := processSwitches(pid)
		t0 := time.Now()
		if err := sleep(ctx, c.cfg.Idle); err != nil {
			return sr, err
		}
		cpu1, _ := processCPU(pid)
		sw1, _ := processSwitches(pid)
		secs := time.Since(t0).Seconds()
		sr.idleCPU = ms(cpu1-cpu0) / secs
		sr.idleWakes = float64(sw1-sw0) / secs
		sr.idleRSS, _ = processRSS(pid)
	}
	var servers []netip.AddrPort
	for i := range prof.Games {
		servers = append(servers, netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(port+i)))
	}
	sr.rep, err = Run(ctx, Config{Servers: servers, Bots: prof.Bots, Rate: prof.Rate, Duration: prof.Duration, Pids: []int{cmd.Process.Pid}})
	if err != nil {
		return sr, err
	}
	if sr.rep.Delivered < sr.rep.Expected {
		fmt.Fprintf(c.cfg.Out, "warning: %s delivered %d of %d\n", side.Name, sr.rep.Delivered, sr.rep.Expected)
	}
	return sr, nil
}

// startList is the start-up times of runs, in ms.
func startList(runs []sideRun) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = strconv.FormatFloat(ms(r.startup), 'f', 2, 64)
	}
	return strings.Join(parts, " ")
}

// firstAnswer sends GameSpy status queries every millisecond until one is
// answered, and returns the time from start to that answer.
func firstAnswer(conn *net.UDPConn, to netip.AddrPort, start time.Time) (time.Duration, error) {
	buf := make([]byte, 2048)
	deadline := start.Add(10 * time.Second)
	for time.Now().Before(deadline) {
		_, _ = conn.WriteToUDPAddrPort([]byte(`\status\`), to)
		_ = conn.SetReadDeadline(time.Now().Add(time.Millisecond))
		for {
			n, _, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				break
			}
			if n > 0 {
				return time.Since(start), nil
			}
		}
	}
	return 0, errors.New("no answer to a GameSpy status query within 10 s")
}

// stopServer ends a server the way a host does (SIGTERM) and waits; it
// kills a server that does not stop within 20 s.
func stopServer(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// median returns the median of xs (the mean of the middle two for an even
// count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// String prints the table: the median of each measure per side,
// and each side's ratio to the first.
func (c *Comparison) String() string {
	var b strings.Builder
	sides := c.cfg.Sides
	fmt.Fprintf(&b, "\nmedians of %d rounds (sides alternating)\n", c.cfg.Rounds)
	fmt.Fprintf(&b, "%-48s", "measure")
	for _, s := range sides {
		fmt.Fprintf(&b, " %12s", s.Name)
	}
	for _, s := range sides[1:] {
		fmt.Fprintf(&b, " %12s", s.Name+"/"+sides[0].Name)
	}
	b.WriteByte('\n')
	row := func(name, unit string, f func(sideRun) float64, pi int) {
		var meds []float64
		for _, s := range sides {
			var xs []float64
			for _, r := range c.runs[s.Name][pi] {
				xs = append(xs, f(r))
			}
			meds = append(meds, median(xs))
		}
		fmt.Fprintf(&b, "%-48s", name+" ("+unit+")")
		for _, m := range meds {
			fmt.Fprintf(&b, " %12.2f", m)
		}
		for _, m := range meds[1:] {
			if meds[0] != 0 {
				fmt.Fprintf(&b, " %11.2fx", m/meds[0])
			}
		}
		b.WriteByte('\n')
	}
	for pi, p := range c.cfg.Profiles {
		row("server CPU per relayed copy, whole run, "+p.String(), "µs", func(r sideRun) float64 { return r.rep.WholeMicrosPerCopy() }, pi)
		row("server CPU per relayed copy, sending, "+p.String(), "µs", func(r sideRun) float64 { return r.rep.MicrosPerCopy() }, pi)
		row("server cores while sending, "+p.String(), "cores", func(r sideRun) float64 { return r.rep.ServerCPU.Seconds() / r.rep.Elapsed.Seconds() }, pi)
		row("relay p50, "+p.String(), "ms", func(r sideRun) float64 { return ms(r.rep.P50) }, pi)
		row("relay p99, "+p.String(), "ms", func(r sideRun) float64 { return ms(r.rep.P99) }, pi)
		row("RSS peak, "+p.String(), "MB", func(r sideRun) float64 { return mb(r.rep.RSSPeak) }, pi)
	}
	row("idle CPU, one game, nobody connected", "ms/s", func(r sideRun) float64 { return r.idleCPU }, 0)
	row("idle wake-ups (context switches)", "/s", func(r sideRun) float64 { return r.idleWakes }, 0)
	row("RSS idle (VmRSS)", "MB", func(r sideRun) float64 { return mb(r.idleRSS) }, 0)
	// The start-up row compares starts of as many games as the first
	// profile, like the start-only runs: a load of 64 games starts in
	// tens of milliseconds and would only move a one-game median.
	var all []int
	for pi, p := range c.cfg.Profiles {
		if p.Games == c.cfg.Profiles[0].Games {
			all = append(all, pi)
		}
	}
	startRow := func(name string, f func(sideRun) float64) {
		var meds []float64
		for _, s := range sides {
			var xs []float64
			for _, pi := range all {
				for _, r := range c.runs[s.Name][pi] {
					xs = append(xs, f(r))
				}
			}
			for _, r := range c.starts[s.Name] {
				xs = append(xs, f(r))
			}
			meds = append(meds, median(xs))
		}
		fmt.Fprintf(&b, "%-48s", name)
		for _, m := range meds {
			fmt.Fprintf(&b, " %12.2f", m)
		}
		for _, m := range meds[1:] {
			if meds[0] != 0 {
				fmt.Fprintf(&b, " %11.2fx", m/meds[0])
			}
		}
		b.WriteByte('\n')
	}
	n := 0
	for _, pi := range all {
		n += len(c.runs[sides[0].Name][pi])
	}
	n += len(c.starts[sides[0].Name])
	games := "1 game"
	if g := c.cfg.Profiles[0].Games; g != 1 {
		games = strconv.Itoa(g) + " games"
	}
	fmt.Fprintf(&b, "start-up: medians of %d starts of each side with %s\n", n, games)
	startRow("start to first answered GameSpy query (ms)", func(r sideRun) float64 { return ms(r.startup) })
	startRow("server CPU until then (ms)", func(r sideRun) float64 { return ms(r.startCPU) })
	return b.String()
}
