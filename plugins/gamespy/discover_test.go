package gamespy

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestParseReply(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr bool
	}{
		{name: "final then queryid", in: `\a\1\final\\queryid\2.1`, want: map[string]string{"a": "1", "final": "", "queryid": "2.1"}},
		{name: "trailing backslash", in: `\a\1\`, want: map[string]string{"a": "1"}},
		{name: "key without value", in: `\a\1\b`, want: map[string]string{"a": "1", "b": ""}},
		{name: "empty key skipped", in: `\\x\a\1`, want: map[string]string{"a": "1"}},
		{name: "last duplicate wins", in: `\a\1\a\2`, want: map[string]string{"a": "2"}},
		{name: "lone backslash", in: `\`, want: map[string]string{}},
		{name: "empty", in: ``, wantErr: true},
		{name: "not a reply", in: "\x01\x02", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReply([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !tt.wantErr && !maps.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	var many []byte
	for i := range maxReplyKeys + 1 {
		many = fmt.Appendf(many, `\k%d\v`, i)
	}
	if _, err := ParseReply(many); err == nil {
		t.Error("unbounded key count accepted")
	}
}

func TestParseQueryID(t *testing.T) {
	tests := []struct {
		in   string
		n, m int
		ok   bool
	}{
		{"2.1", 2, 1, true},
		{"17.3", 17, 3, true},
		{"2", 0, 0, false},
		{"2.0", 0, 0, false},
		{"x.1", 0, 0, false},
		{"-1.1", 0, 0, false},
	}
	for _, tt := range tests {
		n, m, ok := ParseQueryID(tt.in)
		if n != tt.n || m != tt.m || ok != tt.ok {
			t.Errorf("ParseQueryID(%q) = %d, %d, %v", tt.in, n, m, ok)
		}
	}
}

func TestLANTargets(t *testing.T) {
	got := LANTargets()
	if len(got) != 101 {
		t.Fatalf("%d targets, want 101", len(got))
	}
	if got[0] != netip.MustParseAddrPort("255.255.255.255:22101") || got[100] != netip.MustParseAddrPort("255.255.255.255:22201") {
		t.Errorf("targets %v .. %v", got[0], got[100])
	}
}

func TestCollectorReassembly(t *testing.T) {
	src := netip.MustParseAddrPort("192.0.2.1:22101")
	c := collector{sources: map[netip.AddrPort]*source{}}
	steps := []struct {
		in  string
		new bool
	}{
		{`\c\3\final\\queryid\7.2`, true}, // out of order
		{`\a\1\queryid\7.1`, true},
		{`\a\1\queryid\7.1`, false}, // duplicate
		{`garbage`, false},
		{`\x\1\queryid\7.99`, false}, // fragment number out of bounds
		{`\old\1\queryid\6.1`, true}, // an earlier, incomplete reply
	}
	for i, s := range steps {
		if got := c.add(src, []byte(s.in)); got != s.new {
			t.Fatalf("step %d %q: new = %v", i, s.in, got)
		}
	}
	res := c.results()
	if len(res) != 1 {
		t.Fatalf("results %v", res)
	}
	f := res[0]
	if f.Addr != src || f.QueryID != 7 || f.Fragments != 2 || !f.Complete ||
		!maps.Equal(f.Info, map[string]string{"a": "1", "c": "3"}) {
		t.Errorf("found %+v", f)
	}
}

// serve answers queries on conn with r until conn is closed.
func serve(conn *net.UDPConn, r *Responder) {
	buf := make([]byte, 2048)
	for {
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		r.Handle(time.Now(), from, buf[:n], func(b []byte) { _, _ = conn.WriteToUDPAddrPort(b, from) })
	}
}

func listenLoopback(t *testing.T) *net.UDPConn {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestDiscoverLoopback(t *testing.T) {
	plain := listenLoopback(t)
	go serve(plain, newTestResponder(t, captureInfo(), nil))

	big := captureInfo()
	big.Hostname = "Fragmented"
	big.Players = longNames(16, 200)
	big.NumPlayers = 16
	fragmented := listenLoopback(t)
	go serve(fragmented, newTestResponder(t, big, nil))

	// A port nobody answers on.
	dead := listenLoopback(t)
	deadAddr := dead.LocalAddr().(*net.UDPAddr).AddrPort()
	_ = dead.Close()

	client := listenLoopback(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	targets := []netip.AddrPort{
		plain.LocalAddr().(*net.UDPAddr).AddrPort(),
		fragmented.LocalAddr().(*net.UDPAddr).AddrPort(),
		deadAddr,
	}
	start := time.Now()
	found, err := Discover(ctx, client, targets, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Discover took %v", el)
	}
	if len(found) != 2 {
		t.Fatalf("found %d servers: %+v", len(found), found)
	}
	byAddr := map[netip.AddrPort]Found{}
	for _, f := range found {
		byAddr[f.Addr] = f
	}

	f := byAddr[targets[0]]
	want := map[string]string{
		"gamename": "bcommander", "gamever": "60", "location": "1", "hostname": "My Game23",
		"missionscript": "Multiplayer.Episode.Mission1.Mission1", "mapname": "DM", "numplayers": "0",
		"maxplayers": "8", "gamemode": "openplaying", "timelimit": "-1", "fraglimit": "-2",
		"system": "Multi1", "password": "0", "player_0": "Dedicated Server",
	}
	if !f.Complete || f.QueryID != 2 || f.Fragments != 1 || !maps.Equal(f.Info, want) {
		t.Errorf("plain server: %+v", f)
	}

	f = byAddr[targets[1]]
	if !f.Complete || f.Fragments < 2 || f.Info["hostname"] != "Fragmented" {
		t.Errorf("fragmented server: complete %v, %d fragments, hostname %q", f.Complete, f.Fragments, f.Info["hostname"])
	}
	for i, name := range big.Players {
		if got := f.Info[fmt.Sprintf("player_%d", i+1)]; got != name {
			t.Errorf("player_%d = %q", i+1, got)
		}
	}
}

func TestDiscoverCancel(t *testing.T) {
	client := listenLoopback(t)
	// With an hour to wait for replies, only the context can end it.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	found, err := Discover(ctx, client, nil, time.Hour)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if len(found) != 0 {
		t.Errorf("found %v", found)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("cancel took %v", el)
	}
	// The read deadline is cleared afterwards: a queued datagram is read.
	self := client.LocalAddr().(*net.UDPAddr).AddrPort()
	if _, err := client.WriteToUDPAddrPort([]byte("x"), self); err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.ReadFromUDPAddrPort(make([]byte, 8)); err != nil {
		t.Errorf("read after Discover: %v", err)
	}
	if _, err := Discover(context.Background(), nil, nil, 0); err == nil {
		t.Error("nil conn accepted")
	}
}
