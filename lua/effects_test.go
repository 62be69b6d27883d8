package lua_test

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

func TestSendQuotas(t *testing.T) {
	e := mustOpen(t, `
		bc.on("chat", function(ev)
			local ok, err = pcall(function()
				for i = 1, 1000 do bc.broadcast(bc.msg.chat{sender = bc.host_id, text = "spam " .. i}) end
			end)
			bc.storage.err = err
		end)
	`, lua.Options{}, nil)
	p := e.Join(2, "A")
	e.Join(3, "B")
	e.Take()
	e.Emit(chatFrom(p, "go"))
	got := e.Take()
	if len(got) != 2*lua.DefaultSendMessages {
		t.Fatalf("%d messages sent in one tick", len(got))
	}
	if err, _ := e.host.Storage().Get("err").(string); !strings.Contains(err, "bc.broadcast: player 2 already got 64 messages") {
		t.Fatalf("error %q", err)
	}
	// The next tick has a fresh quota.
	e.Advance(100 * time.Millisecond)
	e.Emit(chatFrom(p, "again"))
	if n := len(e.Take()); n != 2*lua.DefaultSendMessages {
		t.Fatalf("next tick: %d messages", n)
	}
	// A player whose transport queue is half full gets nothing more.
	e.Advance(100 * time.Millisecond)
	e.Queued = map[byte]int{3: 5000}
	e.Emit(chatFrom(p, "full"))
	if err, _ := e.host.Storage().Get("err").(string); !strings.Contains(err, "player 3's send queue holds 5000 messages") {
		t.Fatalf("error %q", err)
	}
}

func TestMessageChecks(t *testing.T) {
	e := mustOpen(t, `
		local function err(f) local ok, e = pcall(f) return ok and "sent" or e end
		bc.on("player_in_game", function(ev)
			local id = ev.player.id
			bc.storage.engine = err(function() bc.send(id, "\30\0\0\0") end)
			bc.storage.long_chat = err(function() bc.broadcast(bc.writer():u8(0x2C):i32(1):str16(string.rep("x", 300)):bytes()) end)
			bc.storage.spoofed = err(function() bc.broadcast(bc.msg.chat{sender = 9, text = "hi"}) end)
			bc.storage.as_player = err(function() bc.broadcast(bc.msg.chat{sender = id, text = "hi"}) end)
			bc.storage.script = err(function() bc.set_mission{script = "os.execute('x')"} end)
			bc.storage.map = err(function() bc.set_mission{map_name = string.rep("m", 40)} end)
			bc.storage.limit = err(function() bc.set_mission{time_limit = 1000} end)
			bc.storage.mod_message = err(function() bc.send(id, "\205\1") end)
		end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	st := e.host.Storage()
	for key, want := range map[string]string{
		"engine":      "opcode 0x1E belongs to the engine",
		"long_chat":   "chat text of 300 bytes is longer than the 249",
		"spoofed":     "chat sender 9 is neither the host",
		"as_player":   "sent",
		"script":      "character '(' is not allowed",
		"map":         "map_name must be 1..32 bytes",
		"limit":       "time_limit must be -1 (none) or 1..254",
		"mod_message": "sent",
	} {
		if got, _ := st.Get(key).(string); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// A reload whose load fails changes nothing a player can see: its chat,
// set_mission and timers are dropped, the version number is not used up.
func TestReloadIsTransactional(t *testing.T) {
	e := mustOpen(t, `bc.on("tick", function() end)`, lua.Options{}, nil)
	e.Join(2, "A")
	e.Take()
	before := e.Mission()
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(`
		bc.on("mission_load", function()
			bc.broadcast(bc.msg.chat{sender = bc.host_id, text = "v2 is here"})
			bc.set_mission{script = "Multiplayer.Episode.Mission2.Mission2", map_name = "V2"}
			bc.set_team_mode(true)
			bc.every(0.1, function() bc.broadcast(bc.msg.restart_game()) end)
		end)
		bc.on("mission_reload", function() error("v2 cannot take over") end)
	`)}
	err := e.host.ReloadNow()
	if err == nil || !strings.Contains(err.Error(), "m/main.lua:8: v2 cannot take over") {
		t.Fatalf("reload: %v", err)
	}
	e.Advance(time.Second)
	if got := e.sent(); len(got) != 0 || e.Mission() != before || e.TeamMode() || e.host.Version() != 1 {
		t.Fatalf("a failed reload leaked: sent %q mission %+v team mode %v version %d", got, e.Mission(), e.TeamMode(), e.host.Version())
	}
	// The fixed version is v2, and what it did while loading happens now.
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(`
		bc.on("mission_load", function()
			bc.broadcast(bc.msg.chat{sender = bc.host_id, text = "v2 is here"})
			bc.set_mission{map_name = "V2"}
		end)
	`)}
	if err := e.host.ReloadNow(); err != nil || e.host.Version() != 2 {
		t.Fatalf("reload: %v v%d", err, e.host.Version())
	}
	if got := e.sent(); len(got) != 1 || !strings.HasSuffix(got[0], "v2 is here") || e.Mission().MapName != "V2" {
		t.Fatalf("sent %q mission %+v", got, e.Mission())
	}
	if !e.has(`mission \"m\" reloaded (v2)`) {
		t.Fatalf("log: %s", e.logs.String())
	}
}

func TestOpenIsTransactional(t *testing.T) {
	e, err := open(t, `
		bc.on("mission_start", function()
			bc.set_accepting(false)
			bc.set_mission{map_name = "X"}
			error("cannot start")
		end)
	`, lua.Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "mission_start handler: m/main.lua:5: cannot start") {
		t.Fatalf("open: %v", err)
	}
	if !e.Accepting() || e.Mission().MapName == "X" {
		t.Fatal("a failed start leaked its effects")
	}
}

// Only the files a mission requires are compiled: a broken file nobody
// uses does not block start or reload.
func TestUnusedBrokenFileIsIgnored(t *testing.T) {
	e := mustOpen(t, `bc.storage.ok = require("good").v`, lua.Options{}, map[string]string{
		"m/good.lua":    `return {v = 1}`,
		"m/scratch.lua": `this is not lua (`,
		"lib/old.lua":   `function (`,
	})
	if err := e.host.ReloadNow(); err != nil || e.host.Storage().Get("ok") != 1.0 {
		t.Fatalf("reload: %v", err)
	}
}

func TestLogsAreRateLimited(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function()
			for i = 1, 5000 do print("line " .. i) end
			bc.log.info(string.rep("y", 5000))
		end)
	`, lua.Options{Limits: lua.Limits{LoadBudget: time.Minute, Budget: time.Second, TickBudget: time.Second}}, nil)
	e.Join(2, "A")
	if n := strings.Count(e.logs.String(), "line "); n != lua.DefaultLogBurst {
		t.Fatalf("%d lines logged", n)
	}
	e.Advance(time.Second)
	if !e.has("4901 mission log lines suppressed") {
		t.Fatalf("log: %.2000s", e.logs.String())
	}
}

func TestLongLogLinesAreCut(t *testing.T) {
	e := mustOpen(t, `bc.log.info(string.rep("y", 5000), {k = string.rep("z", 5000)})`, lua.Options{}, nil)
	if strings.Contains(e.logs.String(), strings.Repeat("y", lua.DefaultLogLine+1)) || strings.Contains(e.logs.String(), strings.Repeat("z", lua.DefaultLogLine+1)) ||
		!e.has(strings.Repeat("y", lua.DefaultLogLine)+"…") {
		t.Fatal("long line not cut")
	}
}

// bc.log takes the first 32 fields of its table, in iteration order.
func TestLogFieldsAreCapped(t *testing.T) {
	e := mustOpen(t, `
		local f = {}
		for i = 1, 40 do f["f" .. i] = i end
		bc.log.info("fields", f)
	`, lua.Options{}, nil)
	if !e.has(" f1=1 ") || !e.has(" f32=32") || e.has("f33=") {
		t.Fatalf("log: %s", e.logs.String())
	}
}

// Storage over its limits never blocks a reload: the excess is dropped
// with an error that says where, shallow keys first.
func TestStorageLimitsNeverBlockReload(t *testing.T) {
	for _, tt := range []struct {
		name, build, want string
	}{
		{"deep", "local t = bc.storage for i = 1, 100 do t.next = {} t = t.next end", `bc.storage["next"]["next"]`},
		{"large", "bc.storage.many = {} for i = 1, 200 do bc.storage.many[i] = i end", "bc.storage holds more than 150 entries"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := mustOpen(t, `
				if not bc.storage.built then
					bc.storage.built = true
					`+tt.build+`
				end
				bc.storage.loads = (bc.storage.loads or 0) + 1
			`, lua.Options{Limits: lua.Limits{StorageDepth: 10, StorageSize: 150}}, nil)
			if err := e.host.ReloadNow(); err != nil {
				t.Fatalf("reload blocked: %v", err)
			}
			if !e.reported(lua.ErrNotCarried, "", "bc.storage is over its limits", tt.want) {
				t.Fatalf("errors: %s", e.errors())
			}
			if e.host.Storage().Get("loads") != 2.0 {
				t.Fatalf("storage %+v", *e.host.Storage())
			}
		})
	}
}

func chatFrom(p *engine.Player, text string) *engine.Chat {
	return &engine.Chat{From: p, Text: []byte(text)}
}

// What a new mod author reads when something is wrong names the place.
func TestAuthorFacingMessages(t *testing.T) {
	e := mustOpen(t, `
		local function deeper() error("boom") end
		bc.on("player_joined", function(ev) deeper() end)
		bc.storage.unknown = select(2, pcall(bc.on, "player_join", function() end))
	`, lua.Options{}, nil)
	e.Join(2, "A")
	if !e.reported(lua.ErrFailed, "player_joined", `in function 'deeper' <m/main.lua:2>`, `m/main.lua:3: in function <m/main.lua:3>`) || e.reported("", "", "main chunk") {
		t.Fatalf("traceback: %s", e.errors())
	}
	if got, _ := e.host.Storage().Get("unknown").(string); !strings.Contains(got, `unknown event "player_join" (events: mission_load,`) || !strings.Contains(got, "player_joined") {
		t.Fatalf("unknown event: %q", got)
	}
}
