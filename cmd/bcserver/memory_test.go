package main

import (
	"context"
	"testing"

	"github.com/bcserver/bcserver/server"
)

// anyPlayers: an empty running game has none, a stopped game counts as
// none, and a caller whose context ended is told to keep the pages.
func TestAnyPlayers(t *testing.T) {
	uc := server.DefaultConfig()
	uc.Server.Address = "127.0.0.1"
	uc.Server.Port = 0
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	srv, err := server.New(runCtx, uc, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(runCtx) }()
	<-srv.Ready()
	if anyPlayers(context.Background(), srv) {
		t.Error("an empty running game reported players")
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if !anyPlayers(ended, srv) {
		t.Error("an ended context did not keep the pages")
	}
	stopRun()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if anyPlayers(context.Background(), srv) {
		t.Error("a stopped game reported players")
	}
}
