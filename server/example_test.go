package server_test

import (
	"context"
	"fmt"
	"log"

	"github.com/bcserver/bcserver/server"
)

// A server of two games in one process, configured in code: a deathmatch
// and a team deathmatch on loopback ports the system picks. A host's
// binary would load its file with server.Load and run until SIGINT.
func Example() {
	cfg := server.DefaultConfig()
	cfg.Server.Address, cfg.Server.Port = "127.0.0.1", 0
	dm, tdm := "deathmatch", "team-deathmatch"
	cfg.Games = []server.GameTable{{Mode: &dm}, {Mode: &tdm}}
	ctx, stop := context.WithCancel(context.Background())
	srv, err := server.New(ctx, cfg, server.Options{})
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		<-srv.Ready() // the games take players
		for _, g := range srv.Games() {
			fmt.Println(g.Label(), g.Mode(), g.Addr().Addr())
		}
		stop() // the server shuts down: each game tells its players
	}()
	if err := srv.Run(ctx); err != nil {
		log.Fatal(err)
	}
	// Output:
	// game0 deathmatch 127.0.0.1
	// game1 team-deathmatch 127.0.0.1
}
