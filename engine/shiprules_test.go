package engine

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
)

// A ship of a class the rules forbid is refused by the host: nobody else
// receives it (now or as a late joiner), the host does not model it, and
// its owner reads why in chat and then gets the stock death of that ship,
// which takes a stock client back to ship select. An allowed class is
// relayed as before; a team's list overrides the game's; a ShipRequested
// handler can veto with its own reason.
func TestShipRulesRefuseAShip(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	a := l.cs[0]
	pa := l.g.Player(a.ev.accepted)
	next := shipA
	spawn := func(species uint8) (int32, [][][]byte) {
		t.Helper()
		next += 0x100
		msg, err := bot.Spawn(pa.Slot, pa.ID, "A", species, next)
		if err != nil {
			t.Fatal(err)
		}
		return next, l.send(a, msg, true)
	}
	refused := func(what string, id int32, got [][][]byte, want string) {
		t.Helper()
		if len(got[1]) != 0 {
			t.Fatalf("%s: B received %X", what, got[1])
		}
		if l.g.Object(id) != nil {
			t.Fatalf("%s: the host models the refused ship", what)
		}
		if len(got[0]) != 2 {
			t.Fatalf("%s: A received %d messages, want the chat line and the death", what, len(got[0]))
		}
		c, err := codec.DecodeChat(got[0][0])
		if err != nil || c.Sender != 1 || string(c.Text) != "[server] "+want {
			t.Fatalf("%s: chat %+v %v, want %q", what, c, err, want)
		}
		ex, err := codec.DecodeObjectExploding(got[0][1])
		if err != nil || ex.Dst != id || ex.Src != 0 || ex.FiringPlayer != 0 || ex.Lifetime != refusedShipLifetime {
			t.Fatalf("%s: death %+v %v", what, ex, err)
		}
	}

	l.g.SetShipRules(&ShipRules{Classes: []int{3, 5}, Teams: map[int][]int{1: {8}}})
	id, got := spawn(1)
	refused("an Akira", id, got, "The Akira is not allowed in this game. You may fly: Galaxy, Sovereign.")

	galaxy, got := spawn(3)
	if len(got[1]) != 1 || got[1][0][0] != codec.OpObjCreateTeam || l.g.Object(galaxy) == nil {
		t.Fatalf("an allowed Galaxy: B received %X", got[1])
	}
	// The same ship announced again is not a new choice, whatever the rules.
	l.g.SetShipRules(&ShipRules{Classes: []int{8}})
	msg, _ := bot.Spawn(pa.Slot, pa.ID, "A", 3, galaxy)
	if got := l.send(a, msg, true); len(got[1]) != 1 {
		t.Fatalf("the Galaxy announced again was not relayed")
	}

	l.g.SetShipRules(&ShipRules{Classes: []int{3, 5}, Teams: map[int][]int{1: {8}}})
	l.g.SetTeam(pa, 1)
	id, got = spawn(3)
	refused("a Galaxy on team 1", id, got, "The Galaxy is not allowed on your team. You may fly: Warbird.")
	if _, got := spawn(8); len(got[1]) != 1 {
		t.Fatal("an allowed Warbird on team 1 was not relayed")
	}

	// A veto: the rules allow it, a handler does not.
	l.g.SetShipRules(nil)
	var seen *ShipRequested
	off := l.g.On(EvShipRequested, func(ev Event) {
		seen = ev.(*ShipRequested)
		seen.Refuse("Two Sovereigns are enough.")
	})
	id, got = spawn(5)
	refused("a vetoed Sovereign", id, got, "Two Sovereigns are enough.")
	if seen.Player != pa || seen.Species != 5 || seen.Class == nil || seen.Class.Name != "Sovereign" || seen.ShipName != "A" || seen.ObjectID != id {
		t.Fatalf("ShipRequested %+v", seen)
	}
	off()

	// A late joiner gets the ships there are, none of the refused ones.
	c := l.join("C")
	for _, m := range c.ev.msgs {
		if m[0] == codec.OpObjCreate || m[0] == codec.OpObjCreateTeam {
			if o, err := codec.DecodeObjCreate(m); err == nil && l.g.Object(o.ObjectID) == nil {
				t.Fatalf("C received refused ship %#x", o.ObjectID)
			}
		}
	}
}

// The rules read back as set, copies the caller cannot change.
func TestShipRulesCopied(t *testing.T) {
	g := newTestGame(t, DefaultConfig(), nil)
	if g.ShipRules() != nil {
		t.Fatal("rules by default")
	}
	classes := []int{3}
	g.SetShipRules(&ShipRules{Classes: classes})
	classes[0] = 8
	if r := g.ShipRules(); r == nil || r.Classes[0] != 3 {
		t.Fatalf("%+v", r)
	}
	g.SetShipRules(&ShipRules{})
	if g.ShipRules() != nil {
		t.Fatal("empty rules are kept")
	}
	if ok, _ := (*ShipRules)(nil).Check(g.Ships(), 0, 99); !ok {
		t.Fatal("nil rules refuse")
	}
	if ok, why := (&ShipRules{Classes: []int{3}}).Check(g.Ships(), -1, 99); ok || why != "The ship of species 99 is not allowed in this game. You may fly: Galaxy." {
		t.Fatalf("%v %q", ok, why)
	}
}
