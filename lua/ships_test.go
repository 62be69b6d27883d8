package lua_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// bc.create_ship makes a host ship: staged while the mission loads (the
// handle exists, the ship does not yet), created once it has loaded;
// ship_created carries a handle that reads the ship's state; the handle's
// orders fly it; remove deletes it on every client.
func TestCreateShipAndHandles(t *testing.T) {
	e := mustOpen(t, `
		local S = bc.storage
		bc.on("mission_start", function()
			local s = bc.create_ship { class = "Galor", name = "Raider", team = 1, position = { 100, 0, 0 } }
			S.id, S.alive_at_load = s.id, s:alive()
			S.order_at_load = s:move_to({ 100, 50, 0 })
		end)
		bc.on("ship_created", function(ev)
			local s = ev.ship
			S.created = { s.name, s.class_name, s.species, s.team, s.is_host, s.is_player_ship, s.owner_id, s == bc.ship(s.id) }
		end)
		bc.command("look", function(ev)
			local s = bc.ship(S.id)
			local p = s:position()
			local sensors = s:subsystem("Sensor Array")
			local subs = s:subsystems()
			S.look = { s:alive(), p[1], p[2], p[3], s:hull(), #subs, sensors.condition, sensors.disabled, s:shields().front, s:radius() > 0 }
			S.speed = s:speed()
			return "ok"
		end)
		bc.command("order", function(ev)
			local s = bc.ship(S.id)
			local mine = bc.ship_of(ev.player.id)
			S.order_errors = select(2, pcall(function() mine:stop() end))
			S.write_errors = select(2, pcall(function() s.name = "x" end))
			-- an id that names nothing: the order is not taken
			local gone = tostring(s:move_to(123456)) .. tostring(s:face(123456))
			return tostring(s:set_speed(3)) .. tostring(s:fire_at(mine, "pulse")) .. "|" .. gone .. tostring(s:face(mine))
		end)
		bc.command("remove", function() return tostring(bc.ship(S.id):remove()) .. tostring(bc.ship(S.id)) end)
	`, lua.Options{}, nil)
	st := func(k string) *lua.Table { return e.host.Storage().Get(k).(*lua.Table) }
	id := int32(e.host.Storage().Get("id").(float64))
	if e.host.Storage().Get("alive_at_load") != false || e.Object(id) == nil || e.host.Storage().Get("order_at_load") != true {
		t.Fatalf("staged creation: alive at load %v, object %v", e.host.Storage().Get("alive_at_load"), e.Object(id))
	}
	c := st("created")
	for i, want := range []any{"Raider", "Galor", 10.0, 1.0, true, false, 0.0, true} {
		if got := c.Get(i + 1); got != want {
			t.Fatalf("ship_created field %d = %v, want %v (%v)", i+1, got, want, *c)
		}
	}
	p := e.Join(2, "Alice")
	e.Spawn(p, 5)
	e.Advance(time.Second)
	e.Emit(&engine.Chat{From: p, Text: []byte("!look")})
	l := st("look")
	for i, want := range []any{true, nil, nil, 0.0, 1.0, 17.0, 1.0, false, 1.0, true} {
		got := l.Get(i + 1)
		switch i {
		case 1:
			if x := got.(float64); x < 99.99 || x > 100.01 {
				t.Fatalf("x = %v", x)
			}
			continue
		case 2:
			// Flying to (100, 50, 0): north of where it started.
			if y := got.(float64); y <= 0 || y > 50 {
				t.Fatalf("y = %v", y)
			}
			continue
		}
		if got != want {
			t.Fatalf("look field %d = %v, want %v (%v)", i+1, got, want, *l)
		}
	}
	e.Take()
	e.Emit(&engine.Chat{From: p, Text: []byte("!order")})
	if sent := e.sent(); len(sent) != 1 || !strings.HasSuffix(sent[0], "truefalse|falsefalsetrue") {
		t.Fatalf("orders: %q", sent)
	}
	if s := e.host.Storage(); !strings.Contains(s.Get("order_errors").(string), "not a host ship") || !strings.Contains(s.Get("write_errors").(string), "read-only") {
		t.Fatalf("errors %q / %q", s.Get("order_errors"), s.Get("write_errors"))
	}
	e.Emit(&engine.Chat{From: p, Text: []byte("!remove")})
	sent := e.Take()
	if len(sent) != 2 || string(sent[0].Payload) != string(codec.DestroyObject{ObjectID: id}.AppendTo(nil)) || !strings.HasSuffix(string(sent[1].Payload), "truenil") {
		t.Fatalf("remove: %q", sent)
	}
}

// The host ships a mission may have are capped (Limits.MaxShips); the
// refusal names the limit. A bad class or argument is a Lua error with
// the reason.
func TestCreateShipLimits(t *testing.T) {
	e := mustOpen(t, `
		bc.command("make", function()
			local ok, err = pcall(bc.create_ship, { class = "BirdOfPrey" })
			return ok and "made" or err
		end)
		bc.command("bad", function(ev)
			local errs = {}
			for _, spec in ipairs { { class = "Enterprise-E" }, { class = "Galor", position = { 0, 0 } }, { class = "Galor", team = -1 },
				{ class = "Galor", name = string.rep("x", 65) }, { class = "Galor", orientation = { 1, 0 } } } do
				errs[#errs + 1] = select(2, pcall(bc.create_ship, spec))
			end
			return table.concat(errs, "|")
		end)
	`, lua.Options{Limits: lua.Limits{MaxShips: 2}}, nil)
	p := e.Join(2, "Alice")
	var replies []string
	for range 3 {
		e.Take()
		e.Emit(&engine.Chat{From: p, Text: []byte("!make")})
		for _, s := range e.Take() {
			if s.Payload[0] == codec.OpChat {
				replies = append(replies, string(s.Payload))
			}
		}
	}
	if len(replies) != 3 || !strings.HasSuffix(replies[0], "made") || !strings.Contains(replies[2], "lua.max_ships") {
		t.Fatalf("replies %q", replies)
	}
	e.Emit(&engine.Chat{From: p, Text: []byte("!bad")})
	got := strings.Join(e.sent(), "")
	for _, want := range []string{"no ship class", "position", "team", "name", "orientation"} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q: %s", want, got)
		}
	}
}

// Helpers for placement: class data, free locations and a seedable
// random generator.
func TestShipHelpers(t *testing.T) {
	src := `
		local c = bc.ship_class("FedStarbase")
		bc.storage.class = { c.name, c.species, c.radius > 100, c.stationary, c.phasers }
		bc.storage.rolls = { bc.random(6), bc.random(-150, 149), bc.random() < 1 }
		local s = bc.create_ship { class = 30, name = "Starbase", collisions = false }
		bc.on("mission_start", function() end)
		bc.command("free", function()
			return tostring(bc.location_free({ 0, 0, 0 }, 10)) .. tostring(bc.location_free({ 5000, 0, 0 }, 10))
		end)
	`
	a := mustOpen(t, src, lua.Options{Seed: 42}, nil)
	b := mustOpen(t, src, lua.Options{Seed: 42}, nil)
	ca := a.host.Storage().Get("class").(*lua.Table)
	if ca.Get(1) != "FedStarbase" || ca.Get(2) != 30.0 || ca.Get(3) != true || ca.Get(4) != true || ca.Get(5) != 8.0 {
		t.Fatalf("class %v", *ca)
	}
	ra, rb := a.host.Storage().Get("rolls").(*lua.Table), b.host.Storage().Get("rolls").(*lua.Table)
	for i := 1; i <= 3; i++ {
		if ra.Get(i) != rb.Get(i) {
			t.Fatalf("same seed, different rolls: %v %v", *ra, *rb)
		}
	}
	p := a.Join(2, "Alice")
	a.Take()
	a.Emit(&engine.Chat{From: p, Text: []byte("!free")})
	if s := a.sent(); len(s) != 1 || !strings.HasSuffix(s[0], "falsetrue") {
		t.Fatalf("location_free: %q", s)
	}
}
