package main

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
)

// A playing bot keeps positions only for its own ship and the other
// players' current ones: objects it never aims at, and ships replaced by a
// respawn, leave nothing behind.
func TestPlayerTracksOnlyCurrentShips(t *testing.T) {
	p := &player{b: &bot.Bot{}, log: slog.New(slog.DiscardHandler), ship: 0x3FFFFFFF,
		ships: map[byte]int32{}, objs: map[int32]seenObject{}, pos: map[int32][3]float32{}}
	create := func(owner byte, id int32) {
		p.seen(codec.ObjCreate{Op: codec.OpObjCreateTeam, OwnerSlot: 1, OwnerPlayer: owner, ClassID: codec.ClassShip, ObjectID: id,
			Ship: codec.ShipBody{Set: []byte("Multi1")}}.AppendTo(nil), time.Now())
	}
	move := func(id int32, x float32) {
		p.seen(codec.StateUpdate{ObjectID: id, Flags: codec.StatePosition, Position: [3]float32{x, 0, 0}}.AppendTo(nil), time.Now())
	}
	create(3, 0x4003FFFF)
	move(0x4003FFFF, 1)
	move(0x3FFFFFFF, 2)
	for id := int32(0x40000100); id < 0x40000200; id++ {
		move(id, 3) // torpedoes, AI ships: nobody's ship of ours to aim at
	}
	if len(p.pos) != 2 || p.pos[0x4003FFFF][0] != 1 || p.pos[0x3FFFFFFF][0] != 2 {
		t.Fatalf("%d positions kept; ours %v, player 3's %v", len(p.pos), p.pos[0x3FFFFFFF], p.pos[0x4003FFFF])
	}
	create(3, 0x40040010) // player 3 respawned
	move(0x40040010, 4)
	if _, ok := p.pos[0x4003FFFF]; ok || len(p.pos) != 2 || p.ships[3] != 0x40040010 || p.pos[0x40040010][0] != 4 {
		t.Fatalf("after the respawn: ships %v positions %v", p.ships, p.pos)
	}
}

// -fire-at reads a player id, an object id (decimal or hex) or a name.
func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want target
		err  bool
	}{
		{"", target{}, false},
		{"3", target{player: 3}, false},
		{"1073741823", target{object: 0x3FFFFFFF}, false},
		{"0x403BFFFF", target{object: 0x403BFFFF}, false},
		{"Freighter", target{name: "Freighter"}, false},
		{" USS Kelly ", target{name: "USS Kelly"}, false},
		{"-4", target{}, true},
		{"99999999999", target{}, true},
		{strings.Repeat("x", 65), target{}, true},
	} {
		got, err := parseTarget(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseTarget(%q) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// The target is found by player id, object id or name (a host ship's own
// name), and forgotten when it is destroyed or the game ends.
func TestPlayerFindsTarget(t *testing.T) {
	now := time.Now()
	newP := func(tg target) *player {
		return &player{b: &bot.Bot{}, log: slog.New(slog.DiscardHandler), o: playOptions{FireAt: tg, Respawn: true, Team: -1},
			ships: map[byte]int32{}, objs: map[int32]seenObject{}, pos: map[int32][3]float32{}, warned: map[string]bool{}}
	}
	feed := func(p *player) {
		p.seen(codec.ObjCreate{Op: codec.OpObjCreateTeam, OwnerSlot: 1, OwnerPlayer: 3, ClassID: codec.ClassShip, ObjectID: 0x4003FFFF,
			Ship: codec.ShipBody{Name: []byte("Bob"), Set: []byte("Multi1")}}.AppendTo(nil), now)
		p.seen(codec.ObjCreate{Op: codec.OpObjCreate, OwnerSlot: 15, ClassID: codec.ClassShip, ObjectID: 0x403BFFFF,
			Ship: codec.ShipBody{Species: 16, Name: []byte("Freighter"), Set: []byte("Multi1"), Position: [3]float32{1, 2, 3}}}.AppendTo(nil), now)
	}
	for _, tc := range []struct {
		tg   target
		want int32
	}{
		{target{player: 3}, 0x4003FFFF},
		{target{object: 0x403BFFFF}, 0x403BFFFF},
		{target{name: "freighter"}, 0x403BFFFF},
		{target{name: "bob"}, 0x4003FFFF},
	} {
		p := newP(tc.tg)
		feed(p)
		if id, ok := p.targetShip(); !ok || id != tc.want {
			t.Errorf("%v: got %#x %v, want %#x", tc.tg, id, ok, tc.want)
		}
	}
	p := newP(target{name: "Freighter"})
	feed(p)
	if p.pos[0x403BFFFF] != [3]float32{1, 2, 3} {
		t.Fatalf("the host ship's position at creation was not kept: %v", p.pos)
	}
	p.seen(codec.ObjectExploding{Op: codec.OpPythonEvent, Code: codec.EventObjectExploding, Dst: 0x403BFFFF, FiringPlayer: 2, Lifetime: 9.5}.AppendTo(nil), now)
	if id, ok := p.targetShip(); ok {
		t.Fatalf("a destroyed target is still aimed at: %#x", id)
	}
	// END_GAME: every client deletes the ships; our own is gone, and the
	// next ship comes only after the restart.
	feed(p)
	p.ship, p.species = 0x3FFFFFFF, 5
	p.seen(codec.EndGame{Reason: codec.EndItsJustOver}.AppendTo(nil), now)
	if p.ship != 0 || !p.due.IsZero() || len(p.ships) != 0 {
		t.Fatalf("after END_GAME: ship %#x due %v ships %v", p.ship, p.due, p.ships)
	}
	p.seen(codec.RestartGame{}.AppendTo(nil), now)
	if !p.due.Equal(now.Add(restartPick)) {
		t.Fatalf("after RESTART_GAME the next ship is due %v, want %v", p.due, now.Add(restartPick))
	}
	p.o.Respawn = false
	p.due = time.Time{}
	p.seen(codec.RestartGame{}.AppendTo(nil), now)
	if !p.due.IsZero() {
		t.Fatal("-respawn=false still respawns after a restart")
	}
}
