package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/lua"
)

// A server started on a non-default port announces that port to the
// master, from that port, so the master lists it where players can join
// (gamespy.md 4); it says goodbye when it stops.
func TestServeHeartbeatsItsPort(t *testing.T) {
	master, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	uc := loopbackConfig()
	uc.Gamespy.Masters = []string{master.LocalAddr().String()}
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	var logs testutil.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan netip.AddrPort, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, uc, rc, slog.New(slog.NewTextHandler(&logs, nil)), func(srv *engine.Server, _ *lua.Runtime) { ready <- srv.Addr() })
	}()
	var addr netip.AddrPort
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("server not ready")
	}
	read := func() (string, netip.AddrPort) {
		t.Helper()
		buf := make([]byte, 512)
		master.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, from, err := master.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n]), netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
	}
	want := fmt.Sprintf(`\heartbeat\%d\gamename\bcommander`, addr.Port())
	if hb, from := read(); hb != want || from != addr {
		t.Fatalf("heartbeat %q from %v, want %q from %v", hb, from, want, addr)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if bye, from := read(); bye != want+`\statechanged\2` || from != addr {
		t.Fatalf("goodbye %q from %v", bye, from)
	}
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(line, "plugin/gamespy") && strings.Count(line, "component=") != 1 {
			t.Errorf("log line: %s", line)
		}
	}
	if !strings.Contains(logs.String(), fmt.Sprintf("heartbeats to masters\" component=plugin/gamespy masters=1 port=%d", addr.Port())) {
		t.Errorf("no heartbeat start line:\n%s", logs.String())
	}
}
