package lua_test

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/lua"
)

// weapon_hit and ship_destroyed name the weapon (object id, subsystem
// name, kind), so a "kills by weapon" rule needs no correlation
// (docs/lua-api.md); weapon_hit also says what the shields absorbed.
func TestWeaponEventDetails(t *testing.T) {
	e := mustOpen(t, `
		bc.on("weapon_hit", function(ev)
			bc.storage.hit = { ev.weapon, ev.weapon_name, ev.kind, ev.damage, ev.absorbed, ev.hull_hit }
		end)
		bc.on("ship_destroyed", function(ev)
			bc.storage.kill = { ev.weapon, ev.weapon_name, ev.kind, ev.killer_id }
		end)
		bc.on("weapon_fired", function(ev)
			bc.storage.fired = { ev.weapon, ev.opcode, ev.kind }
		end)
	`, lua.Options{}, nil)
	ship := &engine.Object{ID: 0x4003FFFF, ClassID: codec.ClassShip, Species: 1}
	e.Emit(&engine.WeaponHit{ShooterID: 2, Target: ship, Damage: 80, Absorbed: 30, HullHit: true,
		Weapon: 0x40000013, WeaponName: "Dorsal Phaser 2", Kind: world.KindPhaser})
	e.Emit(&engine.ShipDestroyed{Victim: ship, KillerID: 2, Cause: engine.CauseWeapon,
		Weapon: 0x4000000D, WeaponName: "Forward Torp 1", Kind: world.KindTorpedo})
	st := e.host.Storage()
	hit, kill := st.Get("hit").(*lua.Table), st.Get("kill").(*lua.Table)
	if hit == nil || kill == nil {
		t.Fatalf("storage %v", st)
	}
	want := []any{float64(0x40000013), "Dorsal Phaser 2", "phaser", 80.0, 30.0, true}
	for i, w := range want {
		if got := hit.Get(i + 1); got != w {
			t.Errorf("weapon_hit field %d = %v, want %v", i+1, got, w)
		}
	}
	want = []any{float64(0x4000000D), "Forward Torp 1", "torpedo", 2.0}
	for i, w := range want {
		if got := kill.Get(i + 1); got != w {
			t.Errorf("ship_destroyed field %d = %v, want %v", i+1, got, w)
		}
	}
	e.Emit(&engine.WeaponFired{Opcode: codec.OpPulseFire, Weapon: 0x40000011, Kind: world.KindPulse})
	fired, _ := e.host.Storage().Get("fired").(*lua.Table)
	if fired == nil {
		t.Fatal("no weapon_fired")
	}
	want = []any{float64(0x40000011), float64(codec.OpPulseFire), "pulse"}
	for i, w := range want {
		if got := fired.Get(i + 1); got != w {
			t.Errorf("weapon_fired field %d = %v, want %v", i+1, got, w)
		}
	}
}

// A league mode sees every fair-play violation and may decide itself: a
// handler's returned step replaces the configured one.
func TestViolationEvent(t *testing.T) {
	e := mustOpen(t, `
		bc.on("violation", function(ev)
			bc.storage.v = { ev.rule, ev.value, ev.limit, ev.unit, ev.object, ev.score, ev.count, ev.action, ev.player.id }
			if ev.count >= 3 then return "kick" end
		end)
	`, lua.Options{}, nil)
	p := &engine.Player{Name: "Cheater"}
	p.ID = 2
	ev := &engine.Violation{Player: p, Rule: fairplay.Teleport, Value: 900, Limit: 63, Opcode: codec.OpStateUpdate,
		Object: 0x3FFFFFFF, Score: 1, Count: 1, Action: fairplay.ActDrop}
	e.Emit(ev)
	if ev.Action != fairplay.ActDrop {
		t.Fatalf("no return changed the action to %s", ev.Action)
	}
	v := e.host.Storage().Get("v").(*lua.Table)
	want := []any{"teleport", 900.0, 63.0, "GU", float64(0x3FFFFFFF), 1.0, 1.0, "drop", 2.0}
	for i, w := range want {
		if got := v.Get(i + 1); got != w {
			t.Errorf("field %d = %v, want %v", i+1, got, w)
		}
	}
	ev.Count = 3
	e.Emit(ev)
	if ev.Action != fairplay.ActKick {
		t.Fatalf("the handler returned kick, the action is %s", ev.Action)
	}
}
