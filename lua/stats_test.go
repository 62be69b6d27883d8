package lua_test

import (
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// bc.stats gives a player's career as a table (by id or by name), nil for
// nobody known and when the host keeps no statistics.
func TestStatsBinding(t *testing.T) {
	career := func(name string) (map[string]any, bool) {
		if name != "Alice" && name != "picard" {
			return nil, false
		}
		return map[string]any{"matches": int64(3), "kills": int64(7), "favourite_class": "Sovereign",
			"names": []any{"Alice"}, "damage_dealt": map[string]any{"phaser": 120.5}}, true
	}
	e := mustOpen(t, `
		bc.on("player_in_game", function(ev)
			local s = bc.stats(ev.player.id)
			bc.storage.kills = s and s.kills
			bc.storage.class = s and s.favourite_class
			bc.storage.phaser = s and s.damage_dealt.phaser
			bc.storage.name = s and s.names[1]
			bc.storage.by_name = bc.stats("picard").matches
			bc.storage.unknown = bc.stats("nobody") == nil
			bc.storage.gone = bc.stats(99) == nil
		end)
	`, lua.Options{Stats: career}, nil)
	p := e.Connect(2, "Alice")
	p.State = engine.StateInGame
	e.Emit(&engine.PlayerInGame{Player: p})
	st := e.host.Storage()
	if st.Get("kills") != 7.0 || st.Get("class") != "Sovereign" || st.Get("phaser") != 120.5 || st.Get("name") != "Alice" ||
		st.Get("by_name") != 3.0 || st.Get("unknown") != true || st.Get("gone") != true {
		t.Fatalf("storage: kills %v class %v phaser %v name %v by_name %v unknown %v gone %v", st.Get("kills"), st.Get("class"),
			st.Get("phaser"), st.Get("name"), st.Get("by_name"), st.Get("unknown"), st.Get("gone"))
	}
	none := mustOpen(t, `bc.storage.none = bc.stats("Alice") == nil`, lua.Options{}, nil)
	if none.host.Storage().Get("none") != true {
		t.Fatal("bc.stats without statistics is not nil")
	}
}
