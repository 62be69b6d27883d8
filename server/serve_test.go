package server

import (
	"context"
	"log/slog"
	"net"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// served is a running server as the tests see it: the first game, and
// all of them.
type served struct {
	*Server
	srv      *engine.Server
	missions *missionSlot
}

// serveFull runs the server until ctx ends; started, if set, is called
// once the server takes traffic. rc is what uc.Runtime gave (the caller
// checked the configuration).
func serveFull(ctx context.Context, uc Config, _ engine.Config, log *slog.Logger, started func(*served)) error {
	s, err := New(ctx, uc, Options{Logger: log, Version: "test"})
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
		started(&served{Server: s, srv: s.games[0].srv, missions: s.games[0].missions})
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

func netListenUDP() (*net.UDPConn, error) {
	return net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
}
