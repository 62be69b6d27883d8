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

	"github.com/bcserver/bcserver/internal/browse"
)

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
	found, err := browse.Discover(ctx, client, targets, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Discover took %v", el)
	}
	if len(found) != 2 {
		t.Fatalf("found %d servers: %+v", len(found), found)
	}
	byAddr := map[netip.AddrPort]browse.Found{}
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
	found, err := browse.Discover(ctx, client, nil, time.Hour)
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
	if _, err := browse.Discover(context.Background(), nil, nil, 0); err == nil {
		t.Error("nil conn accepted")
	}
}
