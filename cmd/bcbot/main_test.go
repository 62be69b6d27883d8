package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

func TestBotJoinsAndDiscovers(t *testing.T) {
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Game().AddPlugin(gamespy.NewPlugin(gamespy.DefaultConfig(), gamespy.PluginOptions{GamePort: int(srv.Addr().Port())})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var out, errb bytes.Buffer
	code := run([]string{"-addr", srv.Addr().String(), "-name", "Tester", "-chat", "hi", "-idle", "300ms", "-timeout", "5s"}, &out, &errb)
	if code != 0 || !strings.Contains(errb.String(), "joined the game") || !strings.Contains(errb.String(), `text=hi`) {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"-discover", "-targets", srv.Addr().String()}, &out, &errb); code != 0 || !strings.Contains(out.String(), `"bcserver"`) {
		t.Fatalf("discover exit %d: %q", code, out.String())
	}
	// A server that is not there: the join times out with an error.
	if code := run([]string{"-addr", "127.0.0.1:9", "-timeout", "300ms"}, &out, &errb); code != 1 {
		t.Fatalf("dead server: exit %d", code)
	}
}
