package missions_test

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

// The tutorial's mode works as the docs say.
func TestLastShipStanding(t *testing.T) {
	g := start(t, "last-ship-standing", map[string]any{"lives": int64(1), "restart_after": int64(10)}, 0)
	chat := func(s string) []byte { return codec.Chat{Sender: 1, Text: []byte(s)}.AppendTo(nil) }
	p2 := g.Join(2, "Alice")
	g.expect(t, "join", to(2, h(t, "35 08 01 ff ff")), to(2, chat("Last ship standing: 1 lives each.")))
	p3, p4 := g.Join(3, "Bob"), g.Join(4, "Carol")
	g.Take()
	g.Kill(g.Spawn(p3, 1), 2, engine.CauseWeapon)
	g.expect(t, "Bob out", cat(
		all(h(t, "36 02000000 01000000 e8030000 03000000 01000000 00"), 2, 3, 4),
		all(chat("Bob is out."), 2, 3, 4))...)
	g.Kill(g.Spawn(p4, 1), 0, engine.CauseSelfDestruct)
	g.expect(t, "Carol out, Alice wins", cat(
		all(h(t, "36 00000000 04000000 01000000 00"), 2, 3, 4),
		all(chat("Carol is out."), 2, 3, 4),
		all(chat("Alice is the last ship standing!"), 2, 3, 4),
		all(vec(t, "end_game_reason_0"), 2, 3, 4))...)
	g.RestartGame() // as the server does restart_after later
	g.expect(t, "new round", cat(all(h(t, "39"), 2, 3, 4), all(chat("New round!"), 2, 3, 4))...)
	_ = p2
}
