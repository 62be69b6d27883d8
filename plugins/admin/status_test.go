package admin

import (
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
)

type discard struct{}

func (discard) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }

// A host ship is shown on the tactical map with the team it was created
// with, no owner (the console colours ships by team) and its own name
// (the map labels it "Starbase", not "ship 1074397183").
func TestShipsHostShipTeam(t *testing.T) {
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Out: discard{}, Now: time.Unix(1e9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := g.PrepareHostShip(engine.HostShipSpec{Species: 30, Name: "Starbase", Set: "Multi1", Team: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.AddHostShip(sb); err != nil {
		t.Fatal(err)
	}
	got := ships(g)
	if len(got) != 1 || got[0].ID != sb.ID || got[0].OwnerID != 0 || got[0].Owner != "" || got[0].Team != 1 || !got[0].Alive || got[0].Name != "Starbase" {
		t.Fatalf("ships %+v", got)
	}
}
