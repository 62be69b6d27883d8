package httpserve

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/testutil"
)

func TestKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7/32"},
		{"::ffff:192.0.2.7", "192.0.2.7/32"},
		{"2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
	} {
		if got := Key(netip.MustParseAddr(tc.in)).String(); got != tc.want {
			t.Errorf("Key(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// X-Forwarded-For is believed only from a trusted proxy, and only up to
// the first entry the proxies did not write.
func TestClientBehindProxies(t *testing.T) {
	ps, err := ParseProxies("trusted_proxies", []string{"10.0.0.0/8", "192.0.2.1", "::1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseProxies("k", []string{"10.0.0.0/33"}); err == nil {
		t.Error("a bad network is accepted")
	}
	if _, err := ParseProxies("k", []string{"proxy.example"}); err == nil || !strings.Contains(err.Error(), "k ") {
		t.Errorf("a name: %v", err)
	}
	long := strings.Repeat("203.0.113.9, ", 100) + "198.51.100.4"
	for _, tc := range []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no proxy: the peer", "198.51.100.1:5000", []string{"203.0.113.5"}, "198.51.100.1"},
		{"proxy, one hop", "10.1.2.3:5000", []string{"203.0.113.5"}, "203.0.113.5"},
		{"proxy chain", "10.1.2.3:5000", []string{"203.0.113.5, 10.9.9.9"}, "203.0.113.5"},
		{"client-written entries are skipped", "10.1.2.3:5000", []string{"1.2.3.4, 203.0.113.5"}, "203.0.113.5"},
		{"two headers", "192.0.2.1:5000", []string{"1.2.3.4", "203.0.113.5"}, "203.0.113.5"},
		{"garbage: the proxy", "10.1.2.3:5000", []string{"<script>"}, "10.1.2.3"},
		{"only proxies: the proxy", "10.1.2.3:5000", []string{"10.4.4.4"}, "10.1.2.3"},
		{"no header: the proxy", "[::1]:5000", nil, "::1"},
		{"ipv6 client", "[::1]:5000", []string{"2001:db8::5"}, "2001:db8::5"},
		{"an endless header: the proxy", "10.1.2.3:5000", []string{long}, "10.1.2.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for _, h := range tc.xff {
				r.Header.Add("X-Forwarded-For", h)
			}
			if got := ps.Client(r).String(); got != tc.want {
				t.Errorf("client %s, want %s", got, tc.want)
			}
			var seen string
			ps.RealIP(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = AddrOf(r.RemoteAddr).String() })).ServeHTTP(httptest.NewRecorder(), r)
			if seen != tc.want {
				t.Errorf("RealIP: handler saw %s, want %s", seen, tc.want)
			}
		})
	}
}

// A full table forgets the oldest address: a new one always gets its
// budget, and every address of one IPv6 /64 shares one bucket.
func TestRateLimiterCannotLockOut(t *testing.T) {
	now := time.Unix(1e9, 0)
	l := NewRateLimiter(1, 2, 100, func() time.Time { return now })
	for i := range 1000 {
		a := netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)})
		if !l.Allow(a) {
			t.Fatalf("address %d refused its first request", i)
		}
	}
	if l.Len() != 100 {
		t.Fatalf("table holds %d", l.Len())
	}
	if !l.Allow(netip.MustParseAddr("198.51.100.7")) {
		t.Fatal("a new address is locked out of a full table")
	}
	// One /64, many addresses: one budget.
	for i := range 2 {
		if !l.Allow(netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: byte(i)})) {
			t.Fatalf("request %d of the /64 refused", i)
		}
	}
	if l.Allow(netip.MustParseAddr("2001:db8::ffff:1")) {
		t.Fatal("a third address of the same /64 gets a budget of its own")
	}
	if !l.Allow(netip.MustParseAddr("2001:db8:0:1::1")) {
		t.Fatal("the next /64 shares its neighbour's budget")
	}
	now = now.Add(time.Second)
	if !l.Allow(netip.MustParseAddr("2001:db8::ffff:1")) {
		t.Fatal("the /64's bucket does not refill")
	}
}

// dialFrom connects to addr from the loopback address from.
func dialFrom(t testing.TB, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	return c
}

// refused reports whether the server answered c with the refusal and
// closed it (it waits for one or the other, at most 10 s).
func refused(t testing.TB, c net.Conn) bool {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return bytes.HasPrefix(b, []byte("HTTP/1.1 503"))
}

// stillOpen reports whether the server kept c: a request on it is answered.
func stillOpen(t testing.TB, c net.Conn) bool {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return false
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// One address holds at most PerAddress connections; the public listener
// never takes the admin listener's reserve; what is over a cap is told
// so and closed at once, counted, and logged once per LogEvery.
func TestConnectionCaps(t *testing.T) {
	var logs testutil.LogBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	now := time.Unix(1e9, 0)
	clock := func() time.Time { return now }
	pool := NewPool(8)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	pubStats, admStats := NewStats("spectate", log, clock), NewStats("admin", log, clock)
	pub, err := Listen(Options{Addr: "127.0.0.1:0", Handler: ok, Pool: pool, Reserve: 4, PerAddress: 2, Stats: pubStats, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	adm, err := Listen(Options{Addr: "127.0.0.1:0", Handler: ok, Pool: pool, PerAddress: 2, Stats: admStats, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	p, a := pub.Addr().String(), adm.Addr().String()

	// Per address: the third connection from 127.0.0.2 is refused, one
	// from 127.0.0.3 is not.
	c1, c2 := dialFrom(t, "127.0.0.2", p), dialFrom(t, "127.0.0.2", p)
	defer c1.Close()
	defer c2.Close()
	if !stillOpen(t, c1) || !stillOpen(t, c2) {
		t.Fatal("connections within the cap are not served")
	}
	if c3 := dialFrom(t, "127.0.0.2", p); !refused(t, c3) {
		t.Fatal("a third connection from one address is kept")
	}
	// Total: the public listener stops at 8-4 = 4 connections.
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for _, from := range []string{"127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		c := dialFrom(t, from, p)
		held = append(held, c)
		if from != "127.0.0.5" && !stillOpen(t, c) {
			t.Fatalf("connection from %s not served", from)
		}
	}
	if !refused(t, held[2]) {
		t.Fatal("the public listener takes the admin reserve")
	}
	// The admin listener still has its reserve.
	for _, from := range []string{"127.0.0.6", "127.0.0.7", "127.0.0.8", "127.0.0.10"} {
		c := dialFrom(t, from, a)
		held = append(held, c)
		if !stillOpen(t, c) {
			t.Fatalf("admin connection from %s refused with the public side full", from)
		}
	}
	if c := dialFrom(t, "127.0.0.9", a); !refused(t, c) {
		t.Fatal("the pool is not a bound")
	}
	if got := pubStats.Refused(PerAddress); got != 1 {
		t.Errorf("per-address refusals %d, want 1", got)
	}
	if got := pubStats.Refused(Connections) + admStats.Refused(Connections); got != 2 {
		t.Errorf("pool refusals %d, want 2", got)
	}
	if pool.Used() != 8 {
		t.Errorf("pool used %d, want 8", pool.Used())
	}
	// Refusals are logged once per LogEvery and listener.
	if n := strings.Count(logs.String(), "listener=spectate"); n != 1 {
		t.Errorf("%d refusal lines for the public listener, want 1:\n%s", n, logs.String())
	}
	// A closed connection gives its place back (the server closes it
	// after its answer; the client reads to the end).
	_ = c1.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c1, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(c1); err != nil {
		t.Fatal(err)
	}
	c4 := dialFrom(t, "127.0.0.11", a)
	held = append(held, c4)
	if !stillOpen(t, c4) {
		t.Fatal("a freed place is not taken again")
	}
}

// A stream outlives the listener's read and write timeouts while its
// reader reads: Extend moves the write deadline on before each event (and
// net/http lifts the read deadline for a request without a body).
func TestStreamOutlivesTimeouts(t *testing.T) {
	const events = 12
	h := http.NewServeMux()
	h.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		tk := time.NewTicker(25 * time.Millisecond)
		defer tk.Stop()
		for i := range events {
			Extend(w, time.Second)
			if _, err := io.WriteString(w, "data: x\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if i < events-1 {
				select {
				case <-r.Context().Done():
					return
				case <-tk.C:
				}
			}
		}
	})
	srv, err := Listen(Options{Addr: "127.0.0.1:0", Handler: h, Pool: NewPool(16), Stats: NewStats("t", nil, nil),
		Timeouts: Timeouts{Header: time.Second, Read: 100 * time.Millisecond, Write: 100 * time.Millisecond, Idle: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + srv.Addr().String() + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "data: x"); n != events {
		t.Fatalf("%d events of %d: the stream was cut", n, events)
	}
}
