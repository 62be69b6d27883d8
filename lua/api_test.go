package lua_test

import (
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/lua/luatest"
	"github.com/bcserver/bcserver/missions"
)

// A uid survives the wire-id change of a rejoin by the same name from the
// same address within the grace period, and is never given to anyone else.
func TestStablePlayerIdentity(t *testing.T) {
	ids := lua.NewIdentities()
	ids.Grace = time.Minute
	e := mustOpen(t, `
		bc.storage.uids = {}
		bc.on("player_in_game", function(ev) bc.storage.uids[#bc.storage.uids + 1] = ev.player.uid end)
		bc.on("player_left", function(ev) bc.storage.left_uid = ev.player.uid end)
		bc.command("whoami", function(ev) return tostring(bc.player_by_uid(ev.player.uid).id) end)
	`, lua.Options{Identities: ids}, nil)
	home := netip.MustParseAddrPort("192.0.2.7:5000")
	join := func(id byte, name string, addr netip.AddrPort) *engine.Player {
		p := e.Connect(id, name)
		p.Addr = addr
		e.Emit(&engine.PlayerJoined{Player: p})
		p.State = engine.StateInGame
		e.Emit(&engine.PlayerInGame{Player: p})
		return p
	}
	join(2, "Alice", home)
	join(3, "Bob", netip.MustParseAddrPort("192.0.2.8:5000"))
	e.Leave(2)
	e.Advance(30 * time.Second)
	join(4, "Alice", netip.MustParseAddrPort("192.0.2.7:6123")) // new port, new wire id
	join(2, "Carol", home)                                      // Alice's old wire id
	e.Leave(3)
	e.Advance(2 * time.Minute)
	join(5, "Bob", netip.MustParseAddrPort("192.0.2.8:5000")) // too late
	uids := e.host.Storage().Get("uids").(*lua.Table)
	got := []any{uids.Get(1), uids.Get(2), uids.Get(3), uids.Get(4), uids.Get(5)}
	want := []any{1.0, 2.0, 1.0, 3.0, 4.0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("uids %v, want %v", got, want)
		}
	}
	e.Take()
	e.Emit(&engine.Chat{From: e.Player(4), Text: []byte("!whoami")})
	if sent := e.Take(); len(sent) != 1 || !strings.HasSuffix(string(sent[0].Payload), "4") {
		t.Fatalf("whoami: %+v", sent)
	}
}

// bc.storage persists across a restart of the server: a new host for the
// same mode reads what the last one wrote at shutdown.
func TestStoragePersistsAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	src := `
		bc.storage.starts = (bc.storage.starts or 0) + 1
		bc.storage.kills = bc.storage.kills or {}
		bc.on("ship_destroyed", function(ev) bc.storage.kills[ev.killer_id] = (bc.storage.kills[ev.killer_id] or 0) + 1 end)
		bc.storage["#odd"] = "hash key"
		bc.storage[true] = "bool key"
	`
	fsys := fstest.MapFS{"m/main.lua": {Data: []byte(src)}}
	run := func() (*luatest.Engine, *lua.Runtime) {
		e := luatest.New(t0)
		h := lua.New(e, lua.Options{Mode: "m", FS: fsys, StorageDir: dir, StorageSave: 10 * time.Second, Limits: lua.Limits{StepTime: 100 * time.Nanosecond}})
		if err := h.Open(); err != nil {
			t.Fatal(err)
		}
		return e, h
	}
	e, h := run()
	e.Emit(&engine.ShipDestroyed{KillerID: 3})
	e.Emit(&engine.ShipDestroyed{KillerID: 3})
	h.Close()
	b, err := os.ReadFile(filepath.Join(dir, "m.json"))
	if err != nil || !strings.Contains(string(b), `"schema": 1`) || !strings.Contains(string(b), `"#3": 2`) {
		t.Fatalf("file: %s %v", b, err)
	}
	_, h2 := run()
	defer h2.Close()
	st := h2.Storage()
	if st.Get("starts") != 2.0 || st.Get("kills").(*lua.Table).Get(3) != 2.0 || st.Get("#odd") != "hash key" || st.Get(true) != "bool key" {
		t.Fatalf("after restart: %+v", *st)
	}
	// A file from another schema is refused, not overwritten.
	os.WriteFile(filepath.Join(dir, "m.json"), []byte(`{"schema": 99, "mode": "m", "storage": {}}`), 0o644)
	h3 := lua.New(luatest.New(t0), lua.Options{Mode: "m", FS: fsys, StorageDir: dir})
	if err := h3.Open(); err == nil || !strings.Contains(err.Error(), "schema 99") {
		t.Fatalf("open with a future schema: %v", err)
	}
}

func TestChatCommands(t *testing.T) {
	e := mustOpen(t, `
		bc.command("kick", function(ev)
			bc.storage.args = table.concat(ev.args, "|")
			bc.storage.text = ev.text
			return "kicking " .. (ev.args[1] or "nobody")
		end, "kick a player: !kick name [reason]")
		bc.command("broken", function() error("oops") end)
		bc.on("chat", function(ev) bc.storage.chat_seen = ev.text end)
	`, lua.Options{}, nil)
	p := e.Join(2, "A")
	e.Take()
	say := func(text string) (*engine.Chat, []string) {
		ev := &engine.Chat{From: p, Text: []byte(text)}
		e.Emit(ev)
		var out []string
		for _, s := range e.Take() {
			c, _ := codec.DecodeChat(s.Payload)
			out = append(out, string(c.Text))
		}
		return ev, out
	}
	ev, out := say(`!kick Bob "for camping" now`)
	st := e.host.Storage()
	if !ev.Cancel || len(out) != 1 || out[0] != "kicking Bob" || st.Get("args") != "Bob|for camping|now" || st.Get("text") != `Bob "for camping" now` || st.Get("chat_seen") != nil {
		t.Fatalf("cancel %v out %q storage %+v", ev.Cancel, out, *st)
	}
	if _, out := say("!help"); len(out) != 1 || out[0] != "commands: !broken !kick (!help name for one)" {
		t.Fatalf("help: %q", out)
	}
	if _, out := say("!help kick"); len(out) != 1 || out[0] != "!kick - kick a player: !kick name [reason]" {
		t.Fatalf("help kick: %q", out)
	}
	if ev, _ := say("!!! wow"); ev.Cancel || e.host.Storage().Get("chat_seen") != "!!! wow" {
		t.Fatal("ordinary chat treated as a command")
	}
	if ev, _ := say("!broken"); !ev.Cancel || !e.reported("", "command !broken") {
		t.Fatalf("broken command: %s", e.errors())
	}
}

// Addons load after the mode in the declared order, require from their
// own folder, and talk to the mode through custom events.
func TestAddonsAndCustomEvents(t *testing.T) {
	e := mustOpen(t, `
		bc.storage.order = "mode"
		bc.on("score:changed", function(p) bc.storage.order = bc.storage.order .. ",mode saw " .. p.points end)
		bc.storage.bad = select(2, pcall(bc.emit, "nonamespace"))
	`, lua.Options{Addons: []string{"first", "second"}}, map[string]string{
		"addons/first/main.lua":  `bc.storage.order = bc.storage.order .. ",first " .. require("util").v`,
		"addons/first/util.lua":  `return {v = "first-util"}`,
		"addons/second/main.lua": `bc.storage.order = bc.storage.order .. ",second " .. require("util").v bc.emit("score:changed", {points = 5})`,
		"addons/second/util.lua": `return {v = "second-util"}`,
		"addons/unused/main.lua": `error("not loaded")`,
		"m/util.lua":             `return {v = "mode-util"}`,
	})
	want := "mode,first first-util,second second-util,mode saw 5"
	if got := e.host.Storage().Get("order"); got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
	if bad, _ := e.host.Storage().Get("bad").(string); !strings.Contains(bad, "not a custom event name") {
		t.Fatalf("bad: %q", bad)
	}
	if _, err := open(t, "", lua.Options{Addons: []string{"missing"}}, nil); err == nil || !strings.Contains(err.Error(), `addon "missing"`) {
		t.Fatalf("missing addon: %v", err)
	}
}

// The built-in motd addon next to a stock mode.
func TestMotdAddon(t *testing.T) {
	e := luatest.New(t0)
	h := lua.New(e, lua.Options{Mode: "deathmatch", FS: missions.FS(), Addons: []string{"motd"}, Config: map[string]any{"motd": "Be nice."},
		Logger: slog.New(slog.DiscardHandler), Limits: lua.Limits{StepTime: 100 * time.Nanosecond}})
	if err := h.Open(); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e.Join(2, "A")
	motd := codec.Chat{Sender: 1, Text: []byte("Be nice.")}.AppendTo(nil)
	got := e.Take()
	if len(got) != 2 || string(got[1].Payload) != string(motd) { // MISSION_INIT, then the greeting
		t.Fatalf("sent %+v", got)
	}
}

func TestJSON(t *testing.T) {
	e := mustOpen(t, `
		local j = bc.json
		bc.storage.enc = j.encode({name = "x", list = {1, 2, 3}, nested = {ok = true, none = {}}, n = 1.5})
		local v = j.decode('{"a": [1, null, "three"], "b": {"c": false}, "d": 1e3}')
		bc.storage.dec = v.a[1] .. "," .. tostring(v.a[2]) .. "," .. v.a[3] .. "," .. tostring(v.b.c) .. "," .. v.d
		local t = {} t.self = t
		bc.storage.cycle = select(2, j.encode(t))
		bc.storage.fn = select(2, j.encode({f = print}))
		bc.storage.bad = select(2, j.decode('{"a": }'))
		bc.storage.deep = select(2, j.decode(string.rep("[", 100) .. string.rep("]", 100)))
		bc.storage.trailing = select(2, j.decode('1 2'))
	`, lua.Options{}, nil)
	st := e.host.Storage()
	for key, want := range map[string]string{
		"enc":      `{"list":[1,2,3],"n":1.5,"name":"x","nested":{"none":{},"ok":true}}`,
		"dec":      "1,nil,three,false,1000",
		"cycle":    "a table contains itself",
		"fn":       "a function has no JSON form",
		"bad":      "bc.json.decode:",
		"deep":     "nested deeper than 64",
		"trailing": "text after the value",
	} {
		if got, _ := st.Get(key).(string); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// A table or long string referenced twice is written twice, while the
// memory walk counts it once: a chain of shared tables would expand
// exponentially in the file, one string under many keys linearly. The
// write is refused past StorageSize entries or MemoryLimit bytes; the old
// file stays.
func TestStorageSharedValuesDoNotExpand(t *testing.T) {
	for _, tt := range []struct{ name, build, want string }{
		{"tables", `local t = {x = 1}
			for i = 1, 17 do t = {a = t, b = t} end -- 2^17 leaves; 30 would be 2^30
			bc.storage.dag = t`, "more than 100000 entries"},
		{"strings", `local s = string.rep("x", 1000000)
			bc.storage.dag = {}
			for i = 1, 40 do bc.storage.dag[i] = s end`, "larger than the memory limit of 16.0 MiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fsys := fstest.MapFS{"m/main.lua": {Data: []byte(`
				bc.storage.ok = "first"
				bc.on("player_in_game", function()
					` + tt.build + `
				end)
			`)}}
			logs := &luatest.Logs{}
			e := luatest.New(t0)
			h := lua.New(e, lua.Options{Mode: "m", FS: fsys, StorageDir: dir, StorageSave: 10 * time.Second,
				Logger: slog.New(slog.NewTextHandler(logs, nil)), Limits: lua.Limits{StepTime: 100 * time.Nanosecond, MemoryLimit: 16 << 20}})
			if err := h.Open(); err != nil {
				t.Fatal(err)
			}
			e.Advance(10 * time.Second) // the periodic save writes the file
			e.Join(2, "A")
			h.Close()
			b, err := os.ReadFile(filepath.Join(dir, "m.json"))
			if err != nil || !strings.Contains(string(b), `"first"`) || strings.Contains(string(b), `"dag"`) {
				t.Fatalf("file: %.300s %v", b, err)
			}
			if !strings.Contains(logs.String(), "saving bc.storage failed") || !strings.Contains(logs.String(), tt.want) {
				t.Fatalf("log: %s", logs.String())
			}
		})
	}
}

// Every bc.parse layout reads back what its bc.msg builder wrote, and
// refuses a message of another layout.
func TestParseReadsEveryLayout(t *testing.T) {
	e := mustOpen(t, `
		local cases = {
			chat = {sender = bc.host_id, text = "hi", team = true},
			mission_init = {player_limit = 8, system = 3, time_limit = 10, frag_limit = -1, end_time = 600},
			score_change = {killer = 2, killer_kills = 3, killer_score = 40, victim = 5, victim_deaths = 6, extras = {{player = 7, score = 8}}},
			score = {player = 2, kills = 3, deaths = 4, score = 5},
			end_game = {reason = 3},
			restart_game = {},
			score_init = {player = 2, kills = 3, deaths = 4, score = 5, team = 1},
			team_score = {team = 1, kills = 2, score = 3},
			team = {player = 2, team = 1},
		}
		local function same(a, b)
			if type(a) ~= "table" then return a == b end
			for k, v in pairs(a) do if not same(v, b[k]) then return false end end
			for k in pairs(b) do if a[k] == nil then return false end end
			return true
		end
		local bad = {}
		for name, fields in pairs(cases) do
			local got, err = bc.parse[name](bc.msg[name](fields))
			if not same(fields, got or {}) then bad[#bad + 1] = name .. ": " .. tostring(err) end
			local other = name == "team" and bc.msg.end_game{reason = 1} or bc.msg.team{player = 2, team = 1}
			if bc.parse[name](other) ~= nil then bad[#bad + 1] = name .. " read another layout" end
		end
		table.sort(bad)
		bc.storage.bad = table.concat(bad, "; ")
	`, lua.Options{}, nil)
	if got := e.host.Storage().Get("bad"); got != "" {
		t.Fatal(got)
	}
}
