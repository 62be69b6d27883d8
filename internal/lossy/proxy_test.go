package lossy

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

func listen(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The proxy forwards both ways, gives each client its own upstream address,
// and a blackout stops everything until it is lifted.
func TestProxyForwardsAndBlacksOut(t *testing.T) {
	server := listen(t)
	handled := make(chan bool, 16)
	p, err := New(Options{Upstream: server.LocalAddr().(*net.UDPAddr).AddrPort(), Handled: func(up bool) { handled <- up }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a, b := listen(t), listen(t)
	buf := make([]byte, 100)
	deadline := time.Now().Add(10 * time.Second)
	_ = server.SetReadDeadline(deadline)
	_ = a.SetReadDeadline(deadline)

	seen := map[netip.AddrPort]bool{}
	for _, c := range []*net.UDPConn{a, b} {
		if _, err := c.WriteToUDPAddrPort([]byte("hi"), p.Addr()); err != nil {
			t.Fatal(err)
		}
		n, from, err := server.ReadFromUDPAddrPort(buf)
		if err != nil || string(buf[:n]) != "hi" {
			t.Fatalf("server got %q %v", buf[:n], err)
		}
		seen[from] = true
	}
	if len(seen) != 2 {
		t.Fatalf("two clients share an upstream address: %v", seen)
	}
	// Reply to the first client through its upstream socket.
	var first netip.AddrPort
	for a := range seen {
		first = a
	}
	p.mu.Lock()
	var target *net.UDPConn
	for cl, s := range p.sessions {
		if s.conn.LocalAddr().(*net.UDPAddr).AddrPort() == first {
			target = map[bool]*net.UDPConn{true: a, false: b}[cl == a.LocalAddr().(*net.UDPAddr).AddrPort()]
		}
	}
	p.mu.Unlock()
	if _, err := server.WriteToUDPAddrPort([]byte("back"), first); err != nil {
		t.Fatal(err)
	}
	_ = target.SetReadDeadline(deadline)
	if n, _, err := target.ReadFromUDPAddrPort(buf); err != nil || string(buf[:n]) != "back" {
		t.Fatalf("client got %q %v", buf[:n], err)
	}

	p.SetBlackout(true)
	if _, err := a.WriteToUDPAddrPort([]byte("lost"), p.Addr()); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for up, _ := p.Stats(); up.Blackouts == 0; up, _ = p.Stats() {
		select {
		case <-handled:
		case <-timeout:
			t.Fatal("the proxy never handled the datagram sent in the blackout")
		}
	}
	p.SetBlackout(false)
	if _, err := a.WriteToUDPAddrPort([]byte("after"), p.Addr()); err != nil {
		t.Fatal(err)
	}
	// Datagrams on one loopback path arrive in order: the first one the
	// server sees after the blackout is the one sent after it.
	if n, _, err := server.ReadFromUDPAddrPort(buf); err != nil || string(buf[:n]) != "after" {
		t.Fatalf("server got %q %v after the blackout", buf[:n], err)
	}
	up, _ := p.Stats()
	if up.Blackouts != 1 {
		t.Fatalf("up stats %+v", up)
	}
}
