package engine

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// Names are data, never structure (issue 21): a name with control, line
// break or bidi characters is cleaned at admission and the client is told
// through the stock rename (Settings bit 2, handshake.md 2.5); the hostile
// form is never relayed to the others. Look-alike names (zero width,
// full width) clash like equal ones and get "Name (2)".
func TestHostileNamesCleaned(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	alice := newFakeClient(t, g, w, 5001, "Alice")
	alice.pump(vanillaAnswer(t))
	for i, c := range []struct{ name, want string }{
		{"Griefer\n255.255.255.255", "Griefer 255.255.255.255"},
		{"evil\u202Egnp.exe", "evil gnp.exe"},
		{"Al\u200Bice", "Al\u200Bice (2)"},
		{"Ａｌｉｃｅ", "Ａｌｉｃｅ (3)"},
		{"\u2066\n", "Player"},
	} {
		fc := newFakeClient(t, g, w, uint16(5002+i), c.name)
		fc.pump(vanillaAnswer(t))
		alice.pump(nil)
		var st *codec.Settings
		for _, m := range fc.ev.msgs {
			if m[0] == codec.OpSettings {
				s, err := codec.DecodeSettings(m)
				if err != nil {
					t.Fatal(err)
				}
				st = &s
			}
		}
		id := fc.ev.accepted
		p := g.Player(id)
		if st == nil || !st.NameChanged || st.NewName != c.want || p == nil || p.Name != c.want || !p.InGame() {
			t.Fatalf("%q: settings %+v, player %+v", c.name, st, p)
		}
		// The others only ever heard the clean name (the client's identity
		// after the rename), never the hostile one.
		if got := alice.ev.peers[id]; got != c.want {
			t.Fatalf("%q: alice knows player %d as %q", c.name, id, got)
		}
		// A later change back to a hostile name is refused, not relayed.
		_ = fc.c.SetName("x\ny")
		fc.pump(nil)
		alice.pump(nil)
		if g.Player(id).Name != c.want || alice.ev.peers[id] != c.want {
			t.Fatalf("%q: rename to a hostile name taken: %q / %q", c.name, g.Player(id).Name, alice.ev.peers[id])
		}
	}
	if n := g.Stats.NamesCleaned.Load(); n != 3 {
		t.Fatalf("names cleaned %d, want 3", n)
	}
	for _, p := range g.Players() {
		if strings.ContainsAny(p.Name, "\n\u202E\u2066") {
			t.Fatalf("player name %q", p.Name)
		}
	}
}

// A name that shows as nothing (zero widths and joiners only) is refused
// at join with the stock "connection refused"; a later change to one is
// not taken.
func TestInvisibleNameRefused(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	alice := newFakeClient(t, g, w, 5001, "Alice")
	alice.pump(vanillaAnswer(t))
	for i, name := range []string{"\u200b\u200b\u200b", "\u200b \u2060\ufeff", "\u034f"} {
		fc := newFakeClient(t, g, w, uint16(5002+i), name)
		fc.pump(vanillaAnswer(t))
		if !fc.ev.booted || fc.ev.boot != bcnet.BootRefused {
			t.Errorf("%q: booted %v reason %d, want refused", name, fc.ev.booted, fc.ev.boot)
		}
		if p := g.Player(fc.ev.accepted); p != nil && p.InGame() {
			t.Errorf("%q: in the game as %q", name, p.Name)
		}
	}
	id := alice.ev.accepted
	_ = alice.c.SetName("\u200b")
	alice.pump(nil)
	if g.Player(id).Name != "Alice" {
		t.Fatalf("a rename to an invisible name was taken: %q", g.Player(id).Name)
	}
}
