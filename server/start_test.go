package server

import (
	"context"
	"log/slog"
	"net"
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// BenchmarkServeStart is the cold start of one default game up to the
// moment it takes traffic (socket bound, mission running, plugins added),
// and its stop. The ship data is loaded once per process, as in the
// server; everything else is per start.
func BenchmarkServeStart(b *testing.B) {
	uc := loopbackConfig()
	rc, err := uc.Runtime()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- serve(ctx, uc, rc, slog.New(slog.DiscardHandler), func(*engine.Server, *lua.Runtime) { cancel() })
		}()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstAnswer is start-up as a server browser sees it: from New
// to the answer to a GameSpy status query (the mission may still be
// loading); the stop is not timed. The ship data is loaded once per
// process, as in the server.
func BenchmarkFirstAnswer(b *testing.B) {
	uc := loopbackConfig()
	uc.Gamespy.Masters = nil
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		s, err := New(ctx, uc, Options{})
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		_ = status(b, conn, net.UDPAddrFromAddrPort(s.games[0].Addr()))
		b.StopTimer()
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
