package engine

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/net/alby"
)

// A dropped ship creation is logged at info once per player, with the
// reason: a client whose ship data differs from the host's (the tail of
// another subsystem list) learns why its ship is invisible from the host's
// log, not from a debug line.
func TestObjCreateDropLoggedOnce(t *testing.T) {
	var logs bytes.Buffer
	w := &testutil.Wire{Open: alby.Decrypt}
	g, err := NewGame(Options{Config: DefaultConfig(), Out: w, Now: t0, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l := &lan{t: t, g: g, w: w, now: t0}
	a, b := l.join("Kirk"), l.join("Sulu")
	// Species 3 (a Galaxy) with the Akira's tail: the host's class has
	// another subsystem list.
	wrongTail := spawnSpecies(t, 0, 2, 3)
	l.send(a, wrongTail, true)
	l.send(a, wrongTail, true)
	// Sulu claims an object of Kirk's block.
	m, err := codec.DecodeObjCreate(spawnSpecies(t, 1, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	m.ObjectID = codec.FirstObjectID(0)
	l.send(b, m.AppendTo(nil), true)
	out := logs.String()
	if n := strings.Count(out, "ship creation dropped"); n != 2 {
		t.Fatalf("%d lines, want one per player:\n%s", n, out)
	}
	for _, want := range []string{
		`level=INFO msg="ship creation dropped (logged once per player)" component=engine player=2 name=Kirk why="Galaxy: `,
		"species=3 hint=",
		`player=3 name=Sulu why="object id outside the sender's block" species=1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}
