package lua_test

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/lua"
)

// A declared mod message reaches the mission with its name and decoded
// fields (mods.md 6.5), and the mission can forward it itself.
func TestDeclaredScriptMessage(t *testing.T) {
	e := mustOpen(t, `
		bc.on("script_message", function(ev)
			if ev.name == "MP_NEW_NET_PLAYER_ID" then
				bc.storage.object = ev.fields.object
				bc.storage.npid = ev.fields.net_player_id
				bc.broadcast(ev.payload)
				return true
			end
			bc.storage.undeclared = ev.name == nil and ev.fields == nil
		end)
	`, lua.Options{}, nil)
	p := e.Join(2, "A")
	decl := scriptmsg.KobayashiMaru().Lookup(205)
	var w codec.Writer
	w.U8(205)
	w.I32(0x3FFFFFFF)
	w.I32(7)
	fields, err := decl.Decode(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ev := &engine.ScriptMessage{From: p, Payload: w.Bytes(), Decl: decl, Fields: fields}
	e.Emit(ev)
	if !ev.Handled || e.host.Storage().Get("object") != float64(0x3FFFFFFF) || e.host.Storage().Get("npid") != 7.0 {
		t.Fatalf("handled %t, storage %+v", ev.Handled, *e.host.Storage())
	}
	e.Emit(&engine.ScriptMessage{From: p, Payload: []byte{0xCE}})
	if e.host.Storage().Get("undeclared") != true {
		t.Fatalf("undeclared message: %+v", *e.host.Storage())
	}
}
