package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/net/alby"
)

// While a host ship exists no player is given its owner slot (opcodes.md
// 6): with 16 allowed, the 16th joiner is refused; and a host ship cannot
// be made while a player holds that slot.
func TestHostSlotReserved(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.MaxPlayers = MaxSlots
	g := newTestGame(t, cfg, w)
	for i := range MaxSlots - 1 {
		newFakeClient(t, g, w, uint16(5001+i), fmt.Sprint("P", i)).pump(vanillaAnswer(t))
	}
	sb, err := g.PrepareHostShip(HostShipSpec{Species: 30, Name: "Starbase", Set: "Multi1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.AddHostShip(sb); err != nil {
		t.Fatal(err)
	}
	late := newFakeClient(t, g, w, 6001, "Late")
	late.pump(vanillaAnswer(t))
	if !late.ev.booted || g.NumPlayers(false) != MaxSlots-1 {
		t.Fatalf("16th joiner while the host slot is reserved: booted %v, %d players", late.ev.booted, g.NumPlayers(false))
	}
	// The game ends: the host ship goes, the slot is free again.
	g.EndGame(1)
	if g.Object(sb.ID) != nil {
		t.Fatal("host ship kept after END_GAME")
	}
	g.SetAccepting(true)
	newFakeClient(t, g, w, 6002, "Last").pump(vanillaAnswer(t))
	if p := g.PlayerBySlot(world.DefaultHostSlot); p == nil {
		t.Fatal("slot 15 not given after the host ships were gone")
	}
	if _, err := g.PrepareHostShip(HostShipSpec{Species: 30}); !errors.Is(err, world.ErrHostSlotTaken) {
		t.Fatalf("host ship with every slot held: %v", err)
	}
}
