package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// served is a running server as the tests see it: the first game, and
// all of them.
type served struct {
	*Server
	srv      *engine.Server
	missions *missionSlot
	errs     *missionErrs // what the missions' runtimes reported
}

// missionErrs collects the errors the games' missions report
// (lua.Options.OnError), for tests that check a mission's failures.
type missionErrs struct {
	mu   sync.Mutex
	errs []lua.MissionError
}

func (m *missionErrs) add(e lua.MissionError) {
	m.mu.Lock()
	m.errs = append(m.errs, e)
	m.mu.Unlock()
}

// waitFor waits until an error of kind whose text holds every part is
// reported, and fails the test when none is within d.
func (m *missionErrs) waitFor(t *testing.T, kind lua.ErrorKind, d time.Duration, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for i := 0; i < 1e6; i++ {
		m.mu.Lock()
		for _, e := range m.errs {
			if e.Kind == kind && containsAll(e.Err, parts) {
				m.mu.Unlock()
				return
			}
		}
		got := fmt.Sprint(m.errs)
		m.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s error with %q within %v; reported: %s", kind, parts, d, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// serveFull runs the server until ctx ends; started, if set, is called
// once the server takes traffic. rc is what uc.Runtime gave (the caller
// checked the configuration).
func serveFull(ctx context.Context, uc Config, _ engine.Config, log *slog.Logger, started func(*served)) error {
	errs := &missionErrs{}
	s, err := New(ctx, uc, Options{Logger: log, Version: "test", Lua: func(o *lua.Options) { o.OnError = errs.add }})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	select {
	case <-s.Ready():
	case err := <-done:
		return err
	}
	if started != nil {
		started(&served{Server: s, srv: s.games[0].srv, missions: s.games[0].missions, errs: errs})
	}
	return <-done
}

// serve is serveFull for a test that wants the first game and its
// mission.
func serve(ctx context.Context, uc Config, rc engine.Config, log *slog.Logger, started func(*engine.Server, *lua.Runtime)) error {
	return serveFull(ctx, uc, rc, log, func(s *served) {
		if started != nil {
			started(s.srv, s.missions.current())
		}
	})
}

// loopbackConfig is the default configuration on a free loopback port
// (never the stock 22101).
func loopbackConfig() Config {
	uc := DefaultConfig()
	uc.Server.Address, uc.Server.Port = "127.0.0.1", 0
	return uc
}

func netListenUDP() (*net.UDPConn, error) {
	return net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
}
