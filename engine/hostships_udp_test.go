package engine_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
)

// A host ship over real loopback UDP: everyone in the game gets its
// ObjCreate 0x02 when it is made, a late joiner with the other objects, a
// RequestObject for it is answered; its health comes in the host's
// StateUpdates; END_GAME deletes it with DestroyObject.
func TestUDPHostShip(t *testing.T) {
	srv := startServer(t, nil)
	a := joinBot(t, srv, "Alice")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var sb *engine.Object
	err := srv.Do(ctx, func(g *engine.Game) {
		o, err := g.PrepareHostShip(engine.HostShipSpec{Species: 30, Name: "Starbase", Set: "Multi1",
			Position: [3]float32{10, 20, 30}, Orientation: [4]float32{1, 0, 0, 0}, Team: -1})
		if err == nil {
			err = g.AddHostShip(o)
		}
		if err != nil {
			t.Error(err)
		}
		sb = o
	})
	if err != nil || sb == nil {
		t.Fatal(err)
	}
	want := simVec(t, "objcreate_fedstarbase_host_0x02_example")
	want[1] = world.DefaultHostSlot
	isCreate := func(p []byte) bool { return bytes.Equal(p, want) }
	waitFor(t, a, "the starbase's ObjCreate", isCreate)
	waitFor(t, a, "the starbase's health", func(p []byte) bool {
		u, err := codec.DecodeStateUpdate(p, codec.SubsystemsToEnd)
		return err == nil && u.ObjectID == sb.ID && u.Flags&codec.StateSubsystems != 0
	})
	b := joinBot(t, srv, "Bob")
	waitFor(t, b, "the starbase replicated to a late joiner", isCreate)
	if err := b.Send(codec.RequestObject{ObjectID: sb.ID}.AppendTo(nil), true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "the answer to RequestObject", isCreate)
	if err := srv.Do(ctx, func(g *engine.Game) { g.EndGame(codec.EndTimeUp) }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "DestroyObject for the starbase", func(p []byte) bool {
		return bytes.Equal(p, codec.DestroyObject{ObjectID: sb.ID}.AppendTo(nil))
	})
}
