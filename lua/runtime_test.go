package lua_test

import (
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/lua/luatest"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type env struct {
	*luatest.Engine
	host *lua.Runtime
	logs *luatest.Logs
	fs   fstest.MapFS
	errs *[]lua.MissionError // what the runtime reported (Options.OnError)
}

// open runs a mission whose main.lua is src (plus extra files).
func open(t testing.TB, src string, opts lua.Options, extra map[string]string) (*env, error) {
	t.Helper()
	fsys := fstest.MapFS{"m/main.lua": {Data: []byte(src)}}
	for k, v := range extra {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	e := luatest.New(t0)
	logs := &luatest.Logs{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if opts.Mode == "" {
		opts.Mode = "m"
	}
	opts.FS = fsys
	opts.Logger = log
	errs := &[]lua.MissionError{}
	if opts.OnError == nil {
		opts.OnError = func(me lua.MissionError) { *errs = append(*errs, me) }
	}
	if opts.StepTime == 0 {
		// Virtual time: budgets trip after the same number of steps on
		// any machine, however loaded.
		opts.StepTime = 100 * time.Nanosecond
	}
	h := lua.New(e, opts)
	err := h.Open()
	if err == nil {
		t.Cleanup(h.Close)
	}
	return &env{Engine: e, host: h, logs: logs, fs: fsys, errs: errs}, err
}

func mustOpen(t testing.TB, src string, opts lua.Options, extra map[string]string) *env {
	t.Helper()
	e, err := open(t, src, opts, extra)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// sent returns the payloads sent so far as strings, and forgets them.
func (e *env) sent() []string {
	var out []string
	for _, s := range e.Take() {
		out = append(out, string(s.Payload))
	}
	return out
}

func (e *env) has(s string) bool { return strings.Contains(e.logs.String(), s) }

func TestSandbox(t *testing.T) {
	e := mustOpen(t, `
		local r = {}
		for _, name in ipairs{"os", "io", "debug", "package", "coroutine", "dofile", "loadfile", "collectgarbage", "module", "channel"} do
			if _G[name] ~= nil then r[#r+1] = name end
		end
		bc.storage.leaks = table.concat(r, ",")
		bc.storage.has_string = string ~= nil and table ~= nil and math ~= nil and pcall ~= nil
		local f, err = load(function() return nil end)
		bc.storage.load_fn = tostring(f) .. " " .. tostring(err)
		bc.storage.load_src = load("return 1 + 2")()
		local ok, msg = pcall(require, "../etc/passwd")
		bc.storage.require_escape = ok
		local ok2 = pcall(string.rep, "x", 1e9)
		bc.storage.rep_capped = not ok2
		local ok3 = pcall(string.format, "%999999999d", 1)
		bc.storage.format_capped = not ok3
		bc.on("tick", function() end)
	`, lua.Options{}, nil)
	st := e.host.Storage()
	if st.Get("leaks") != "" || st.Get("has_string") != true || st.Get("load_src") != 3.0 || st.Get("require_escape") != false ||
		st.Get("rep_capped") != true || st.Get("format_capped") != true ||
		!strings.HasPrefix(st.Get("load_fn").(string), "nil load: only source strings") {
		t.Fatalf("sandbox: %+v", *st)
	}
}

func TestBudgetAbortsInfiniteLoop(t *testing.T) {
	e := mustOpen(t, `
		bc.on("tick", function() while true do end end)
		bc.on("player_in_game", function(ev) bc.storage.seen = ev.player.id end)
	`, lua.Options{Limits: lua.Limits{Budget: 2 * time.Millisecond}}, nil)
	e.Emit(&engine.Tick{Now: t0, Dt: 100 * time.Millisecond})
	if !e.reported(lua.ErrAborted, "tick", "m/main.lua:2", "time budget exceeded: one call may take 2ms") {
		t.Fatalf("errors: %s", e.errors())
	}
	// The game and the mission go on.
	e.Join(2, "A")
	if e.host.Storage().Get("seen") != 2.0 || !e.host.Loaded() {
		t.Fatal("mission stopped after an aborted handler")
	}
}

func TestHandlerErrorIsLoggedAndGameGoesOn(t *testing.T) {
	e := mustOpen(t, `
		local function deeper() error("boom") end
		bc.on("player_joined", function(ev) deeper() end)
		bc.on("player_joined", function(ev) bc.send(ev.player.id, bc.msg.restart_game()) end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	if got := e.sent(); len(got) != 1 || got[0] != "\x39" {
		t.Fatalf("second handler did not run: %q", got)
	}
	if !e.reported(lua.ErrFailed, "player_joined", "m/main.lua:2: boom", "stack traceback") {
		t.Fatalf("errors: %s", e.errors())
	}
}

func TestFailingMissionIsUnloaded(t *testing.T) {
	e := mustOpen(t, `bc.on("tick", function() error("always") end)`, lua.Options{Limits: lua.Limits{MaxErrors: 3, ErrorWindow: time.Minute}}, nil)
	e.Join(2, "A")
	e.Take()
	for i := 0; i < 5; i++ {
		e.Emit(&engine.Tick{Now: t0, Dt: time.Millisecond})
	}
	if e.host.Loaded() {
		t.Fatal("failing mission still loaded")
	}
	if !e.reported(lua.ErrSuspended, "", "suspended after 3 errors") {
		t.Fatalf("errors: %s", e.errors())
	}
	got := e.sent()
	if len(got) != 1 || got[0][0] != 0x2C || !strings.Contains(got[0], "[server] The game mode stopped after errors") {
		t.Fatalf("players not told: %q", got)
	}
	if n := e.count(lua.ErrFailed, ""); n != 3 {
		t.Fatalf("%d failures logged after unload, want 3", n)
	}
	// A fixed version loads again and keeps the storage.
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(`bc.storage.fixed = true`)}
	if err := e.host.ReloadNow(); err != nil || !e.host.Loaded() || e.host.Version() != 2 {
		t.Fatalf("reload after unload: %v", err)
	}
}

func TestOnWithIDReplaces(t *testing.T) {
	e := mustOpen(t, `
		bc.storage.n = 0
		for i = 1, 3 do
			bc.on("player_in_game", "count", function() bc.storage.n = bc.storage.n + i end)
		end
		local id = bc.on("player_in_game", function() bc.storage.n = bc.storage.n + 100 end)
		bc.on("player_in_game", function() bc.storage.n = bc.storage.n + 1000 end)
		assert(bc.off("player_in_game", id))
		assert(not bc.off("player_in_game", "nope"))
		assert(not pcall(bc.on, "no_such_event", function() end))
	`, lua.Options{}, nil)
	e.Join(2, "A")
	if got := e.host.Storage().Get("n"); got != 1003.0 {
		t.Fatalf("n = %v, want 1003 (one 'count' handler, the last)", got)
	}
}

func TestEventReturnValues(t *testing.T) {
	e := mustOpen(t, `
		bc.on("chat", function(ev)
			bc.storage.last = ev.text
			if ev.text == "badword" then return false end
		end)
		bc.on("script_message", function(ev)
			if ev.opcode == 0xCD then
				local r = bc.reader(ev.payload)
				r:u8()
				bc.storage.mod = r:i32() + r:u8()
				return true
			end
		end)
	`, lua.Options{}, nil)
	p := e.Join(2, "A")
	for _, tt := range []struct {
		text   string
		cancel bool
	}{{"hello", false}, {"badword", true}} {
		ev := &engine.Chat{From: p, Text: []byte(tt.text)}
		e.Emit(ev)
		if ev.Cancel != tt.cancel {
			t.Fatalf("%q: cancel %v", tt.text, ev.Cancel)
		}
	}
	sm := &engine.ScriptMessage{From: p, Payload: []byte{0xCD, 7, 0, 0, 0, 3}}
	e.Emit(sm)
	other := &engine.ScriptMessage{From: p, Payload: []byte{0xCE}}
	e.Emit(other)
	if !sm.Handled || other.Handled || e.host.Storage().Get("mod") != 10.0 || e.host.Storage().Get("last") != "badword" {
		t.Fatalf("handled %v %v storage %+v", sm.Handled, other.Handled, *e.host.Storage())
	}
}

func TestWriterMirrorsCodec(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_joined", function(ev)
			local w = bc.writer()
			w:u8(0x2C):i32(ev.player.id):str16("hi")
			bc.send(ev.player.id, w:bytes())
			bc.send(ev.player.id, bc.writer():bits(true, false, true):u16(513):i8(-1):f32(1.5):u32(4294967295):str8("ab"):raw("\0\1"):bytes())
			bc.send(ev.player.id, bc.msg.chat{sender = ev.player.id, text = "hi"})
			bc.send(ev.player.id, bc.msg.score_change{killer = 3, killer_kills = 2, killer_score = 1234, victim = 2, victim_deaths = 4, extras = {{player = 4, score = 567}}})
			bc.send(ev.player.id, bc.msg.mission_init{system = 1, time_limit = 10, end_time = 642, frag_limit = 5})
			bc.send(ev.player.id, bc.msg.score_init{player = 4})
			bc.send(ev.player.id, bc.msg.team_score{team = 1, kills = 7, score = -120})
			bc.send(ev.player.id, bc.msg.end_game(3))
			bc.send(ev.player.id, bc.msg.team{player = 3, team = 1})
			local bad = {
				function() bc.writer():u8(256) end,
				function() bc.writer():i32(1.5) end,
				function() bc.msg.score{} end,
				function() bc.msg.score_change{victim = 2, victim_deaths = 1, extras = {{player = 0, score = 1}}} end,
				function() bc.msg.mission_init{system = 1, time_limit = 10} end,
				function() local w = bc.writer() for i = 1, 5000 do w:u8(1) end end,
				function() bc.send(2, string.rep("x", 5000)) end,
				function() bc.reader("\1"):i32() end,
			}
			local failed = 0
			for _, f in ipairs(bad) do if not pcall(f) then failed = failed + 1 end end
			bc.storage.failed = failed
			local sc = bc.parse.score_change(bc.msg.score_change{victim = 2, victim_deaths = 1})
			bc.storage.parsed = sc.victim * 10 + sc.victim_deaths
			local _, err = bc.parse.team("\65\1")
			bc.storage.parse_err = err
		end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	want := []string{
		"\x2c\x02\x00\x00\x00\x02\x00hi",
		"\x65\x01\x02\xff\x00\x00\xc0\x3f\xff\xff\xff\xff\x02ab\x00\x01",
		"\x2c\x02\x00\x00\x00\x02\x00hi",
		"\x36\x03\x00\x00\x00\x02\x00\x00\x00\xd2\x04\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00\x01\x04\x00\x00\x00\x37\x02\x00\x00",
		"\x35\x08\x01\x0a\x82\x02\x00\x00\x05",
		"\x3f\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff",
		"\x40\x01\x07\x00\x00\x00\x88\xff\xff\xff",
		"\x38\x03\x00\x00\x00",
		"\x41\x03\x00\x00\x00\x01",
	}
	got := e.sent()
	if len(got) != len(want) {
		t.Fatalf("%d messages: %q", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("message %d: %x, want %x", i, got[i], want[i])
		}
	}
	st := e.host.Storage()
	if st.Get("failed") != 8.0 || st.Get("parsed") != 21.0 || st.Get("parse_err") == nil {
		t.Fatalf("storage %+v", *st)
	}
}

func TestRequire(t *testing.T) {
	e := mustOpen(t, `
		local a = require("helper")
		local b = require("helper")
		local shared = require("shared")
		local nested = require("sub.mod")
		bc.storage.r = a.v .. shared.v .. nested.v .. tostring(a == b)
		bc.storage.missing = select(2, pcall(require, "nope"))
	`, lua.Options{}, map[string]string{
		"m/helper.lua":     `return {v = "own"}`,
		"lib/shared.lua":   `return {v = "lib"}`,
		"lib/helper.lua":   `return {v = "shadowed"}`,
		"m/sub/mod.lua":    `return {v = "sub"}`,
		"other/main.lua":   `return {}`,
		"other/secret.lua": `return {v = "secret"}`,
	})
	st := e.host.Storage()
	if st.Get("r") != "ownlibsubtrue" || !strings.Contains(st.Get("missing").(string), `require "nope"`) {
		t.Fatalf("storage %+v", *st)
	}
	if _, err := open(t, `require("secret")`, lua.Options{}, map[string]string{"other/secret.lua": `return 1`}); err == nil {
		t.Fatal("required a file of another mission")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		extra           map[string]string
	}{
		{"syntax", "local x = 1\nlocal = 2\n", "m/main.lua:2: syntax error near '='", nil},
		{"syntax at the end", "local x = 1\nfunction f()\n  return 1\n", "m/main.lua:3: syntax error at the end of the file ('function' at line 2 is not closed)", nil},
		{"syntax in a module", `require("x")`, "lib/x.lua:1: syntax error", map[string]string{"lib/x.lua": "return {,}"}},
		// The parser sees a bracket left open only at the next statement:
		// the error names the bracket's line.
		{"unclosed bracket", "local a = 1\nprint((a + 1)\nlocal b = 2\n", "m/main.lua:2: '(' is not closed: syntax error near 'local' at line 3", nil},
		{"unclosed table", "local t = {\n  a = 1\n  b = 2\n}\n", "m/main.lua:1: '{' is not closed: syntax error near 'b' at line 3", nil},
		{"bracket closed, error later", "local t = { a = 1 }\nlocal = 2\n", "m/main.lua:2: syntax error near '='", nil},
		{"runtime in main", "error('nope')", "m/main.lua:1: nope", nil},
		{"mission_load", "bc.on('mission_load', function() local t = nil; return t.x end)", "mission_load handler: m/main.lua:1", nil},
		{"budget in main", "while true do end", "time budget", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := open(t, tt.src, lua.Options{Limits: lua.Limits{Budget: 20 * time.Millisecond}}, tt.extra)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := open(t, "", lua.Options{Mode: "missing"}, nil); err == nil || !strings.Contains(err.Error(), "have m") {
		t.Fatalf("missing mode: %v", err)
	}
}

const v1 = `
bc.storage.kills = bc.storage.kills or 0
bc.storage.loads = (bc.storage.loads or 0) + 1
bc.storage.fn = function() end  -- not plain data: dropped on reload
bc.on("ship_destroyed", "k", function() bc.storage.kills = bc.storage.kills + 1 end)
bc.every(1, function() bc.storage.ticks = (bc.storage.ticks or 0) + 1 end)
bc.on("mission_reload", function(ev) bc.storage.reloaded_from = ev.previous_version end)
bc.on("mission_unload", function(ev) bc.storage.unloaded = ev.reason end)
`

func TestReloadKeepsStorage(t *testing.T) {
	e := mustOpen(t, v1, lua.Options{}, nil)
	e.Emit(&engine.ShipDestroyed{})
	e.Advance(2 * time.Second)
	// v2 counts kills by ten; storage carries over, v1's timer is gone.
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(strings.Replace(v1, "kills + 1", "kills + 10", 1) + "\nbc.storage.v2 = true")}
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	e.Emit(&engine.ShipDestroyed{})
	st := e.host.Storage()
	if st.Get("kills") != 11.0 || st.Get("loads") != 2.0 || st.Get("v2") != true || st.Get("reloaded_from") != 1.0 {
		t.Fatalf("after reload: %+v", *st)
	}
	// One key alone reads the same as through the whole copy.
	for _, k := range []string{"kills", "loads", "v2", "reloaded_from", "absent"} {
		if got, want := e.host.StorageGet(k), st.Get(k); got != want {
			t.Fatalf("StorageGet(%q) = %v, Storage has %v", k, got, want)
		}
	}
	if !e.has(`mission \"m\" reloaded (v2)`) || !e.reported(lua.ErrNotCarried, "", "not plain data") {
		t.Fatalf("log: %s; errors: %s", e.logs.String(), e.errors())
	}
	ticks := st.Get("ticks")
	e.Advance(1500 * time.Millisecond)
	if got := e.host.Storage().Get("ticks"); got != ticks.(float64)+1 {
		t.Fatalf("ticks %v → %v: old timer still running or new one missing", ticks, got)
	}

	// A broken edit keeps v2 running.
	for _, bad := range []string{"bc.on(1 2)", "error('init failed')"} {
		e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(bad)}
		if err := e.host.ReloadNow(); err == nil {
			t.Fatalf("%q: reload succeeded", bad)
		}
		e.Emit(&engine.ShipDestroyed{})
	}
	if e.host.Version() != 2 || e.host.Storage().Get("kills") != 31.0 {
		t.Fatalf("version %d storage %+v", e.host.Version(), *e.host.Storage())
	}
	if !e.reported(lua.ErrReload, "", "m/main.lua:1: syntax error") {
		t.Fatalf("errors: %s", e.errors())
	}
}

// Reload from another goroutine compiles there and swaps on the game
// goroutine (Post), never in the middle of an event.
func TestReloadAsync(t *testing.T) {
	e := mustOpen(t, v1, lua.Options{}, nil)
	done := make(chan error, 1)
	go e.host.Reload(func(err error) { done <- err })
	deadline := time.After(5 * time.Second)
	for {
		e.RunPosted()
		select {
		case err := <-done:
			if err != nil || e.host.Version() != 2 {
				t.Fatalf("async reload: %v v%d", err, e.host.Version())
			}
			return
		case <-deadline:
			t.Fatal("reload not posted")
		case <-time.After(time.Millisecond):
		}
	}
}

func TestTimersAndSecondEvent(t *testing.T) {
	e := mustOpen(t, `
		bc.storage.log = ""
		local function add(s) bc.storage.log = bc.storage.log .. s end
		bc.after(0.5, function() add("a") end)
		local id = bc.every(1, function() add("e") end)
		bc.after(2.5, function() bc.cancel(id) end)
		bc.timer("named", 1.2)
		bc.on("timer", function(ev) add(ev.name) end)
		bc.on("second", function() add("s") end)
	`, lua.Options{}, nil)
	e.Advance(4 * time.Second)
	// The second event and the mission's timers due at the same instant
	// run in engine timer order: the second event first.
	if got := e.host.Storage().Get("log"); got != "asenamedsess" {
		t.Fatalf("timer log %q", got)
	}
}

func TestActions(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function(ev)
			local p = bc.player(ev.player.id)
			bc.set_team(p.id, 1)
			bc.set_score(p.id, 3, 2, 100)
			bc.storage.name = p.name
			bc.storage.count = #bc.players()
			bc.storage.nobody = bc.player(77) == nil
			bc.set_mission{script = "Custom.Mission", map_name = "LSS", system = "Albirea", time_limit = 10}
			bc.set_team_mode(true)
			bc.storage.sys = bc.system_index("Albirea") .. bc.systems[9] .. bc.species[30].script
			bc.storage.gt = bc.game_time()
			bc.storage.mode = bc.mode .. bc.version .. bc.config.answer
			if ev.player.id == 3 then
				bc.send_team(1, "\200")
				bc.send_except(2, "\201")
				bc.broadcast("\202")
				bc.kick(2)
			end
		end)
	`, lua.Options{Config: map[string]any{"answer": int64(42)}}, nil)
	e.Advance(1500 * time.Millisecond)
	p2 := e.Join(2, "Alice")
	e.Join(3, "Bob")
	st := e.host.Storage()
	if p2.Team != 1 || p2.Kills != 3 || p2.Score != 100 || st.Get("name") != "Bob" || st.Get("count") != 2.0 || st.Get("nobody") != true ||
		e.Mission().Script != "Custom.Mission" || e.Mission().TimeLimit != 10 || !e.TeamMode() ||
		st.Get("sys") != "8PoseidonFedStarbase" || st.Get("gt") != 1.5 || st.Get("mode") != "m142" {
		t.Fatalf("storage %+v p2 %+v mission %+v", *st, p2, e.Mission())
	}
	got := e.Take()
	want := []struct {
		to byte
		b  byte
	}{{2, 0xC8}, {3, 0xC8}, {3, 0xC9}, {2, 0xCA}, {3, 0xCA}}
	if len(got) != len(want) {
		t.Fatalf("sent %+v", got)
	}
	for i, w := range want {
		if got[i].To != w.to || got[i].Payload[0] != w.b {
			t.Fatalf("sent %+v", got)
		}
	}
	if len(e.Kicked) != 1 || e.Kicked[0] != 2 {
		t.Fatalf("kicked %v", e.Kicked)
	}
}

func luatestEngine() *luatest.Engine { return luatest.New(t0) }

func TestReloadAfterCloseDoesNothing(t *testing.T) {
	e := mustOpen(t, `bc.on("mission_unload", function(ev) bc.broadcast(bc.msg.chat{sender = 1, text = ev.reason}) end)`, lua.Options{}, nil)
	e.Join(2, "A")
	e.Take()
	e.host.Reload(nil)
	e.host.Close()
	e.RunPosted()
	if e.host.Loaded() || e.host.Version() != 1 {
		t.Fatalf("reloaded after close: loaded %v v%d", e.host.Loaded(), e.host.Version())
	}
	if got := e.sent(); len(got) != 1 || !strings.HasSuffix(got[0], "shutdown") {
		t.Fatalf("unload messages %q", got)
	}
}

// Games sharing a compile cache run the same compiled files with states of
// their own, and a reload of one of them compiles what its host edited.
func TestSharedProtos(t *testing.T) {
	protos := lua.NewProtos()
	lib := map[string]string{"lib/count.lua": "return function(n) return n + 1 end"}
	src := `local inc = require("count")
bc.on("ship_destroyed", "k", function() bc.storage.kills = inc(bc.storage.kills or 0) end)`
	a := mustOpen(t, src, lua.Options{Protos: protos}, lib)
	b := mustOpen(t, src, lua.Options{Protos: protos}, lib)
	a.Emit(&engine.ShipDestroyed{})
	a.Emit(&engine.ShipDestroyed{})
	b.Emit(&engine.ShipDestroyed{})
	if ka, kb := a.host.Storage().Get("kills"), b.host.Storage().Get("kills"); ka != 2.0 || kb != 1.0 {
		t.Fatalf("kills: a %v, b %v; want 2, 1 (each game its own state)", ka, kb)
	}
	a.fs["lib/count.lua"] = &fstest.MapFile{Data: []byte("return function(n) return n + 10 end")}
	if err := a.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	a.Emit(&engine.ShipDestroyed{})
	b.Emit(&engine.ShipDestroyed{})
	if ka, kb := a.host.Storage().Get("kills"), b.host.Storage().Get("kills"); ka != 12.0 || kb != 2.0 {
		t.Fatalf("after a's edit and reload: a %v, b %v; want 12, 2", ka, kb)
	}
}
