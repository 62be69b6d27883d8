package missiontest

import (
	"bytes"
	"testing"
	"testing/fstest"
)

// Through the real engine and the wire: a refused ship reaches nobody but
// its owner, who reads why and gets the death of the ship; bot:spawn
// returns nil and that line, and the player may pick again.
func TestRefusedShipOverTheWire(t *testing.T) {
	fsys := fstest.MapFS{
		"m/main.lua": {Data: []byte(`
			bc.on("mission_load", function() bc.set_ship_rules { classes = { "Galaxy", "Akira" } } end)
			bc.on("ship_requested", function(ev)
				if ev.class_name == "Akira" and ev.player.name == "Bob" then return false, "Bob flies a Galaxy." end
			end)
			bc.on("ship_created", function(ev) bc.storage.created = (bc.storage.created or 0) + 1 end)
		`)},
		"m/m_test.lua": {Data: []byte(`
test.case("refused ships", function()
  local g = test.game {}
  local alice, bob = g:join("Alice"), g:join("Bob")
  local id, why = alice:spawn("Galor")
  test.eq(id, nil)
  test.eq(why, "The Galor is not allowed in this game. You may fly: Galaxy, Akira.")
  test.eq(alice:last("chat").text, "[server] " .. why)
  local ex = alice:last("object_exploding")
  test.ok(ex and ex.firing_player == 0, "the refused ship dies on its owner's screen")
  test.eq(bob:messages("object_created"), {}, "Bob never sees it")
  test.eq(bob:messages("object_exploding"), {})
  test.ok(not alice:alive())
  id, why = bob:spawn("Akira")
  test.eq(why, "Bob flies a Galaxy.")
  test.ok(alice:spawn("Galaxy"), "Alice picks again")
  test.ok(bob:spawn("Galaxy"))
  test.eq(#bob:messages("object_created"), 1, "Bob sees Alice's Galaxy")
  test.eq(g:storage().created, 2)
  test.eq(#g:ships(), 2)
end)
`)},
	}
	var out bytes.Buffer
	sum, err := (&Runner{FS: fsys, Out: &out}).Run()
	if err != nil || sum.Passed != 1 || sum.Failed != 0 {
		t.Fatalf("%+v %v\n%s", sum, err, out.String())
	}
}
