package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/httpserve"
)

// floodHeapBound is what the flood may add to the process's Go heap and
// stacks (the attacker's own 5,000 sockets in this process included):
// without the caps each idle connection held a goroutine and its buffers
// (19,990 of them grew the server by 371 MB).
const floodHeapBound = 32 << 20

// rss is the process's resident memory (Linux; 0 elsewhere), for the log.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// One address opening thousands of idle connections to the public
// spectator port, then a hundred addresses filling every connection the
// public side may have, leave the admin API, /metrics and /healthz
// answering; the refused connections are answered 503 and closed, counted
// in /metrics, and the process's memory stays bounded.
func TestSpectatorFloodLeavesAdminAnswering(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of connections")
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	// The attacker's sockets are this process's too: leave a margin for
	// the server, the admin client and the test binary.
	n := min(5000, int(rl.Cur)-600)
	if n < 500 {
		t.Skipf("descriptor limit %d: too low for the flood", rl.Cur)
	}
	const pool = 256
	a := serveAdmin(t, func(uc *Config) {
		uc.Spectate.Listen = "127.0.0.1:0"
		uc.httpConns = pool
	})
	spec := a.s.SpectateAddr().String()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse + ms.StackInuse
	}
	before, rssBefore := heap(), rss()

	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
		c, err := d.Dial("tcp", spec)
		if err != nil {
			t.Fatalf("dial %d from %s: %v", len(held), from, err)
		}
		held = append(held, c)
		return c
	}
	// probe asks the admin side while the flood holds: every answer must
	// come (the bound is the client's 10 s); the slowest is reported.
	client := &http.Client{Timeout: 10 * time.Second}
	probe := func(phase string) time.Duration {
		var worst time.Duration
		for i := range 10 {
			for _, path := range []string{"/healthz", "/api/v1/status", "/metrics"} {
				req, _ := http.NewRequest("GET", a.base+path, nil)
				req.Header.Set("Authorization", "Bearer "+testToken)
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					t.Fatalf("%s: %s request %d: %v", phase, path, i, err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: %s answered %d", phase, path, resp.StatusCode)
				}
				worst = max(worst, time.Since(start))
			}
		}
		return worst
	}

	// Phase 1: one address, n idle connections.
	for range n {
		dial("127.0.0.2")
	}
	worst1 := probe("one address")
	// Accept is first come, first served: once the last connection is
	// answered, every one before it was taken or refused.
	last := held[len(held)-1]
	_ = last.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, _ := io.ReadAll(last); len(b) < 12 || string(b[:12]) != "HTTP/1.1 503" {
		t.Fatalf("connection %d from the flooding address: read %q, want the 503 refusal", n, b)
	}
	st := a.s.p.specStats
	if open := st.Open(); open > int64(a.s.p.cfg.Spectate.Connections()) {
		t.Errorf("the flooding address holds %d connections", open)
	}
	if got := st.Refused(httpserve.PerAddress); got < uint64(n/2) {
		t.Errorf("%d per-address refusals of %d connections", got, n)
	}

	// Phase 2: a hundred addresses, 16 connections each, more than the
	// public side's share of the pool.
	for i := range 100 {
		for range 16 {
			dial(fmt.Sprintf("127.0.1.%d", i+1))
		}
	}
	worst2 := probe("many addresses")
	last = held[len(held)-1]
	_ = last.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, _ := io.ReadAll(last); len(b) < 12 || string(b[:12]) != "HTTP/1.1 503" {
		t.Fatalf("the last connection of the second flood: read %q, want the 503 refusal", b)
	}
	if used := a.s.p.httpPool.Used(); used > pool {
		t.Errorf("pool holds %d of %d", used, pool)
	}
	if st.Refused(httpserve.Connections) == 0 {
		t.Error("no refusal for the full pool")
	}
	grown := int64(heap()) - int64(before)
	t.Logf("%d + 1600 connections: slowest admin answer %v (one address), %v (pool full); heap and stacks grew %.1f MiB, resident memory %.1f MiB (the attacker's sockets included); refused %d per address, %d pool",
		n, worst1, worst2, float64(grown)/(1<<20), float64(rss()-rssBefore)/(1<<20), st.Refused(httpserve.PerAddress), st.Refused(httpserve.Connections))
	if grown > floodHeapBound {
		t.Errorf("heap and stacks grew %d bytes under the flood, bound %d", grown, floodHeapBound)
	}
	// The refusals are in /metrics and in the log (throttled).
	fams := a.scrape(t)
	refused := map[string]float64{}
	if f := fams["bcserver_http_refused_total"]; f != nil {
		for _, m := range f.Metric {
			lv := map[string]string{}
			for _, l := range m.Label {
				lv[l.GetName()] = l.GetValue()
			}
			refused[lv["listener"]+"/"+lv["reason"]] = m.GetCounter().GetValue()
		}
	}
	if refused["spectate/per_address"] < float64(n/2) || refused["spectate/connections"] < 1 {
		t.Errorf("/metrics: refusals %v", refused)
	}
	if c := strings.Count(a.logs.String(), "http connections or requests refused"); c < 1 || c > 2 {
		t.Errorf("%d refusal lines in the log, want 1 or 2 (one per listener per 10 s)", c)
	}
}
