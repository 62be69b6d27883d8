package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/lua"
)

// bc.set_modifiers gives the world factors by class and by team (staged
// while the version loads), bc.modifiers reads them back by class name,
// ship:set_modifiers sets one ship's own and ship:modifiers multiplies
// them all; 0 turns a step off; a wrong factor, class or team is an error
// naming it.
func TestModifiersAPI(t *testing.T) {
	e := mustOpen(t, `
		local S = bc.storage
		bc.on("mission_load", function()
			bc.set_modifiers {
				classes = { Galor = { damage_dealt = 2, hull_damage = 0.5 } },
				teams = { [1] = { hull_damage = 0.5, collision_damage = 0 } },
			}
		end)
		bc.on("mission_start", function()
			local s = bc.create_ship { class = "Galor", name = "Raider", team = 1, position = { 100, 0, 0 } }
			S.id = s.id
		end)
		bc.command("mods", function()
			local s = bc.ship(S.id)
			s:set_modifiers { repair_rate = 3 }
			local m = s:modifiers()
			local r = bc.modifiers()
			return table.concat({ m.damage_dealt, m.hull_damage, m.collision_damage, m.repair_rate, m.shield_recharge,
				r.classes.Galor.damage_dealt, tostring(r.classes.Galor.shield_recharge), r.teams[1].collision_damage }, " ")
		end)
		bc.command("bad", function(ev)
			local ok, err = pcall(bc.set_modifiers, { classes = { Galor = { dmg = 2 } } })
			local ok2, err2 = pcall(bc.set_modifiers, { classes = { Starbase = { damage_dealt = 2 } } })
			local ok3, err3 = pcall(bc.set_modifiers, { teams = { [1] = { hull_damage = -1 } } })
			return tostring(ok) .. "|" .. err .. "|" .. tostring(ok2) .. "|" .. err2 .. "|" .. tostring(ok3) .. "|" .. err3
		end)
		bc.command("off", function() bc.set_modifiers(nil); bc.ship(S.id):set_modifiers(nil); return "ok" end)
	`, lua.Options{}, nil)
	rules := e.World().ModifierRules()
	if g := rules.Classes[10]; g.DamageDealt != 2 || g.HullDamage != 0.5 {
		t.Fatalf("class rules %+v", rules)
	}
	if tm := rules.Teams[1]; tm.HullDamage != 0.5 || tm.CollisionDamage != world.None {
		t.Fatalf("team rules %+v", rules)
	}
	p := e.Join(2, "Alice")
	say := func(cmd string) string {
		e.Take()
		e.Emit(&engine.Chat{From: p, Text: []byte("!" + cmd)})
		// A long answer comes as several chat lines.
		var out string
		for _, m := range e.Take() {
			c, err := codec.DecodeChat(m.Payload)
			if err != nil {
				t.Fatalf("!%s: %v", cmd, err)
			}
			out += string(c.Text)
		}
		return out
	}
	if got := say("mods"); !strings.HasSuffix(got, "2 0.25 0 3 1 2 nil 0") {
		t.Errorf("!mods = %q", got)
	}
	got := say("bad")
	for _, want := range []string{`false|`, `unknown factor "dmg" (want damage_dealt, shield_damage`, `false|`, `classes["Starbase"]`, `false|`, `teams[1]: hull_damage: want a number from 0 to 1000`} {
		if !strings.Contains(got, want) {
			t.Errorf("!bad = %q, want it to contain %q", got, want)
		}
	}
	say("off")
	if r := e.World().ModifierRules(); len(r.Classes)+len(r.Teams) != 0 {
		t.Errorf("after nil: %+v", r)
	}
}
