package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// bc.set_ship_rules hands the engine the classes players may fly (staged
// while the version loads, like every effect), bc.ship_rules reads them
// back as class names, bc.ship_allowed asks them; ship_requested lets a
// handler veto a ship the rules allow, with the reason the player reads.
func TestShipRulesFromLua(t *testing.T) {
	e := mustOpen(t, `
		bc.on("mission_load", function()
			bc.set_ship_rules { classes = { "galaxy", 5 }, teams = { [1] = { "Warbird", "BirdOfPrey" } } }
			bc.storage.during_load = bc.ship_rules() == nil
		end)
		bc.on("ship_requested", function(ev)
			bc.storage.req = { player = ev.player.id, ship = ev.ship_id, species = ev.species, class = ev.class_name, name = ev.name, team = ev.team }
			if ev.class_name == "Sovereign" and ev.team == nil then return false, "One Sovereign is plenty." end
			if ev.class_name == "Galaxy" and ev.team == 0 then return false end
		end)
		bc.command("rules", function(ev)
			local r = bc.ship_rules()
			bc.storage.rules = table.concat(r.classes, ",") .. "|" .. table.concat(r.teams[1], ",")
			local ok, why = bc.ship_allowed(ev.from, "Akira")
			bc.storage.akira = tostring(ok) .. " " .. tostring(why)
			bc.storage.galaxy = bc.ship_allowed(ev.from, "Galaxy")
		end)
	`, lua.Options{}, nil)
	st := func() *lua.Table { return e.host.Storage() }
	if st().Get("during_load") != true {
		t.Fatal("the rules were in force before the version loaded")
	}
	p := e.Join(2, "Alice")
	e.Emit(&engine.Chat{From: p, Text: []byte("!rules")})
	if got := st().Get("rules"); got != "Galaxy,Sovereign|Warbird,BirdOfPrey" {
		t.Fatalf("bc.ship_rules: %v", got)
	}
	if got := st().Get("akira"); got != "false The Akira is not allowed in this game. You may fly: Galaxy, Sovereign." || st().Get("galaxy") != true {
		t.Fatalf("bc.ship_allowed: %v, %v", got, st().Get("galaxy"))
	}
	for _, tc := range []struct {
		team    int
		species int
		want    string // "" = accepted
	}{
		{-1, 1, "The Akira is not allowed in this game. You may fly: Galaxy, Sovereign."}, // the rules; no handler runs
		{-1, 3, ""},
		{-1, 5, "One Sovereign is plenty."},
		{0, 3, ""}, // the handler refuses with no reason: the engine words it
		{1, 3, "The Galaxy is not allowed on your team. You may fly: Warbird, BirdOfPrey."},
		{1, 8, ""},
	} {
		p.Team = tc.team
		why, refused := e.RequestShip(p, tc.species, 0x3FFFFFFF)
		switch {
		case tc.want == "" && tc.team == 0:
			if !refused || why != "" {
				t.Errorf("team %d species %d: %q %v, want a plain refusal", tc.team, tc.species, why, refused)
			}
		case tc.want == "" && refused, tc.want != "" && why != tc.want:
			t.Errorf("team %d species %d: %q %v, want %q", tc.team, tc.species, why, refused, tc.want)
		}
	}
	req := st().Get("req").(*lua.Table)
	if req.Get("player") != 2.0 || req.Get("ship") != float64(0x3FFFFFFF) || req.Get("species") != 8.0 || req.Get("class") != "Warbird" || req.Get("name") != "Alice" || req.Get("team") != 1.0 {
		t.Fatalf("ship_requested payload %+v", *req)
	}

	for _, tc := range []struct{ src, want string }{
		{`bc.set_ship_rules { classes = {} }`, "bc.set_ship_rules: classes: an empty list allows no class at all; leave it out to allow any"},
		{`bc.set_ship_rules { class = { "Galaxy" } }`, `bc.set_ship_rules: unknown field "class" (want classes, teams)`},
		{`bc.set_ship_rules { classes = { "Galaxy", "Starbase" } }`, `bc.set_ship_rules: classes[2]: no ship class "Starbase" (did you mean`},
		{`bc.set_ship_rules { teams = { red = { "Galaxy" } } }`, `bc.set_ship_rules: teams: key "red": want a team number 0..255`},
		{`bc.set_ship_rules { teams = { [0] = "Galaxy" } }`, `bc.set_ship_rules: teams[0]: want a list of classes, got a string value`},
	} {
		if _, err := open(t, tc.src, lua.Options{}, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
	// nil lifts the rules.
	e = mustOpen(t, `bc.set_ship_rules { classes = { "Galaxy" } }
		bc.command("lift", function() bc.set_ship_rules(nil) end)`, lua.Options{}, nil)
	p = e.Join(2, "A")
	if _, refused := e.RequestShip(p, 1, 0x3FFFFFFF); !refused {
		t.Fatal("the rules were not set")
	}
	e.Emit(&engine.Chat{From: p, Text: []byte("!lift")})
	if _, refused := e.RequestShip(p, 1, 0x3FFFFFFF); refused || e.ShipRules() != nil {
		t.Fatal("nil did not lift the rules")
	}
}
