package server

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/browse"
)

// hostileMission does, on a player's command, each thing a buggy or
// hostile mission might: the server must go on relaying, answering
// GameSpy and holding its memory, and the author must get an error that
// says what was stopped and where.
const hostileMission = `
bc.on("mission_load", function()
	bc.set_mission { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "DM", system = "Multi1" }
end)
bc.on("mission_start", function() bc.set_accepting(true) end)

local line = string.rep("a ", 60)
bc.command("pattern", function() return tostring(line:match("^(%S-)%s*(.-)%s*(.-)%s*(.-)%s*(.-)%s*(.-)%s*x$")) end)
bc.command("loop", function() while true do end end)
bc.command("memory", function()
	local t = {}
	for i = 1, 100 do t[i] = string.rep("m", 200 * 1024) .. i end
end)
bc.command("flood", function()
	for i = 1, 1000 do bc.broadcast(bc.msg.chat { sender = bc.host_id, text = "flood " .. i }) end
end)
bc.command("logs", function() for i = 1, 3000 do print("spam " .. i) end end)
bc.command("opcode", function() bc.broadcast("\30\0\0\0\0") end)
bc.command("nest", function()
	local f, err = load("return " .. string.rep("(", 100000) .. "1" .. string.rep(")", 100000))
	error(err)
end)
bc.command("timers", function() for i = 1, 10000 do bc.after(60, function() end) end end)
bc.command("concat", function() local s = "x" for i = 1, 40 do s = s .. s end end)
`

func TestHostileMissionCannotHurtTheServer(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "hostile"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hostile", "main.lua"), []byte(hostileMission), 0o644); err != nil {
		t.Fatal(err)
	}
	r := serveTest(t, func(uc *Config) {
		uc.Game.MissionsDir = dir
		uc.Game.Mode = "hostile"
		uc.Lua.Watch = "off"
		uc.Lua.MemoryLimit = 2 << 20
		uc.Lua.MaxOverruns = 1000 // keep it loaded through every abuse
		// Commands come faster than ticks here; each gets the per-call
		// budget rather than what an earlier one left of the tick.
		uc.Lua.TickBudget = Duration(time.Hour)
		uc.Gamespy.Enabled = true
	})
	a := r.join(t, "Alice")
	b := r.join(t, "Bob")
	addr := netip.MustParseAddrPort(r.srv.Addr().String())
	for _, tt := range []struct{ cmd, want string }{
		{"pattern", "time budget exceeded"},
		{"loop", "time budget exceeded"},
		{"memory", "memory limit of 2.0 MiB exceeded"},
		{"flood", "bc.broadcast: player 2 already got 64 messages"},
		{"logs", "mission log lines suppressed"},
		{"opcode", "opcode 0x1E belongs to the engine"},
		{"nest", "chunk has too many syntax levels"},
		{"timers", "already has 256 timers"},
		{"concat", "exceeds the 1048576-byte string cap"},
	} {
		if err := a.Chat("!"+tt.cmd, false); err != nil {
			t.Fatal(err)
		}
		// Relay goes on: Bob gets Alice's next line.
		ping := "ping " + tt.cmd
		if err := a.Chat(ping, false); err != nil {
			t.Fatal(err)
		}
		await(t, b, tt.cmd+": relayed chat", codec.Chat{Sender: 2, Text: []byte(ping)}.AppendTo(nil), 5*time.Second)
		// The author is told.
		r.logs.WaitFor(t, tt.want, 5*time.Second)
	}
	// GameSpy answers.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := netListenUDP()
	if err != nil {
		t.Fatal(err)
	}
	found, err := browse.Discover(ctx, conn, []netip.AddrPort{addr}, 500*time.Millisecond)
	conn.Close()
	if err != nil || len(found) != 1 || found[0].Info["numplayers"] != "2" {
		t.Fatalf("GameSpy: %+v %v", found, err)
	}
	var loaded bool
	var players int
	r.do(t, func(g *engine.Game) { loaded, players = r.host.Loaded(), g.NumPlayers(true) })
	if !loaded || players != 2 {
		t.Fatalf("loaded %v players %d", loaded, players)
	}
}
