package main

import (
	"log/slog"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
)

// A playing bot keeps positions only for its own ship and the other
// players' current ones: objects it never aims at, and ships replaced by a
// respawn, leave nothing behind.
func TestPlayerTracksOnlyCurrentShips(t *testing.T) {
	p := &player{b: &bot.Bot{}, log: slog.New(slog.DiscardHandler), ship: 0x3FFFFFFF,
		ships: map[byte]int32{}, pos: map[int32][3]float32{}}
	create := func(owner byte, id int32) {
		p.seen(codec.ObjCreate{Op: codec.OpObjCreateTeam, OwnerSlot: 1, OwnerPlayer: owner, ClassID: codec.ClassShip, ObjectID: id,
			Ship: codec.ShipBody{Set: []byte("Multi1")}}.AppendTo(nil))
	}
	move := func(id int32, x float32) {
		p.seen(codec.StateUpdate{ObjectID: id, Flags: codec.StatePosition, Position: [3]float32{x, 0, 0}}.AppendTo(nil))
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
