package lua_test

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// Every test here plays a hostile or careless mission and checks that the
// call is stopped with an error that says why, and that the game (and,
// where it can, the mission) goes on.

func TestDeepNestingIsRefused(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"brackets", "return " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), "m/main.lua:1: chunk has too many syntax levels"},
		{"tables", "return " + strings.Repeat("{", 50000) + strings.Repeat("}", 50000), "too many syntax levels"},
		{"functions", strings.Repeat("x = function() ", 20000) + strings.Repeat("end ", 20000), "too many syntax levels"},
		{"blocks", strings.Repeat("do ", 300) + strings.Repeat("end ", 300), "too many syntax levels"},
		{"unary chain", "return " + strings.Repeat("- ", 5000) + "1", "nested too deeply"},
		{"field chain", "return a" + strings.Repeat(".b", 5000), "nested too deeply"},
		{"operator chain", "return 1" + strings.Repeat(" + 1", 5000), "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := open(t, tt.src, lua.Options{}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	// Within the limits, deep code compiles.
	if _, err := open(t, "return "+strings.Repeat("(", 150)+"1"+strings.Repeat(")", 150), lua.Options{}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestDeepNestingAtRunTimeAndOnReload(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function(ev)
			local f, err = load("return " .. string.rep("(", 100000) .. "1" .. string.rep(")", 100000))
			bc.storage.load_err = err
		end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	if got, _ := e.host.Storage().Get("load_err").(string); !strings.Contains(got, "too many syntax levels") {
		t.Fatalf("load: %q", got)
	}
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(strings.Repeat("do ", 100000) + strings.Repeat("end ", 100000))}
	if err := e.host.ReloadNow(); err == nil || !strings.Contains(err.Error(), "too many syntax levels") {
		t.Fatalf("reload: %v", err)
	}
	if !e.host.Loaded() || e.host.Version() != 1 {
		t.Fatal("the running version did not survive")
	}
}

// A chat-command handler with a plausible pattern on a short line: the
// backtracking matcher is stopped by the budget, the line still relays.
func TestPatternBacktrackingIsBudgeted(t *testing.T) {
	e := mustOpen(t, `
		bc.on("chat", function(ev)
			local a, b, c = ev.text:match("^!(%S-)%s*(.-)%s*(.-)%s*(.-)%s*(.-)%s*(.-)%s*(.-)%s*x$")
			bc.storage.matched = a ~= nil
		end)
	`, lua.Options{}, nil)
	p := e.Join(2, "A")
	ev := &engine.Chat{From: p, Text: []byte("!kick " + strings.Repeat("a ", 60))}
	e.Emit(ev)
	if ev.Cancel || !e.reported(lua.ErrAborted, "", "time budget exceeded", "m/main.lua:3") {
		t.Fatalf("cancel %v errors: %s", ev.Cancel, e.errors())
	}
	if !e.host.Loaded() {
		t.Fatal("one abort suspended the mission")
	}
}

func TestStringLibraryIsBounded(t *testing.T) {
	e := mustOpen(t, `
		local function fails(f, ...) local ok, err = pcall(f, ...) return not ok and tostring(err) or "succeeded" end
		local big = string.rep("x", 512 * 1024)
		bc.storage.rep = fails(string.rep, "xy", 1e9)
		bc.storage.concat_op = fails(function() local s = big return s .. s .. s end)
		bc.storage.gsub = fails(string.gsub, big, "x", "yyyy")
		bc.storage.format = fails(string.format, "%s%s%s", big, big, big)
		bc.storage.tconcat = fails(table.concat, {big, big, big})
		bc.storage.unpack = fails(unpack, {}, 1, 1e7)
		bc.storage.unpack_wide = fails(unpack, {}, -9e18, 9e18)
		bc.storage.tconcat_wide = fails(table.concat, {}, ",", -9e18, 9e18)
		bc.storage.byte = fails(string.byte, big, 1, -1)
		bc.storage.upper = #big:upper()
		-- The patterns still work as in Lua 5.1.
		local out = {}
		out[#out+1] = ("hello world from lua"):gsub("(%w+)", "<%1>")
		out[#out+1] = select(2, ("abc"):gsub("", "-"))
		out[#out+1] = ("key = value"):match("^(%w+)%s*=%s*(%w+)$")
		out[#out+1] = tostring(("THE (quick) fox"):find("%((%a+)%)"))
		out[#out+1] = ("f(a(b)c)d"):match("%b()")
		out[#out+1] = ("THE (quick) fox"):find("quick", 1, true)
		for w in ("one two  three"):gmatch("%a+") do out[#out+1] = w end
		out[#out+1] = ("hello"):gsub("l+", {ll = "LL"})
		out[#out+1] = ("abc"):gsub("%w", function(c) return c:upper() .. "." end)
		out[#out+1] = ("THE"):find("%f[%a]%a+")
		out[#out+1] = ("  x"):match("()x")
		out[#out+1] = ("aaa"):match("(a)%1")
		bc.storage.patterns = table.concat(out, "|")
		bc.storage.bad_pattern = fails(string.find, "x", "[a")
		bc.storage.too_complex = fails(string.match, string.rep("a", 1000), string.rep("a?", 300))
	`, lua.Options{Limits: lua.Limits{LoadBudget: 10 * time.Second}}, nil)
	st := e.host.Storage()
	for key, want := range map[string]string{
		"rep": "string cap", "concat_op": "string cap", "gsub": "string cap", "format": "string cap",
		"tconcat": "string cap", "unpack": "too many results",
		"unpack_wide": "too many results", "tconcat_wide": "string cap", "byte": "too many results",
		"bad_pattern": "missing ']'", "too_complex": "pattern too complex",
	} {
		if got, _ := st.Get(key).(string); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if st.Get("upper") != float64(512*1024) {
		t.Errorf("upper: %v", st.Get("upper"))
	}
	want := "<hello> <world> <from> <lua>|4|key|5|(a(b)c)|6|one|two|three|heLLo|A.B.C.|1|3|a"
	if got := st.Get("patterns"); got != want {
		t.Errorf("patterns:\n got %q\nwant %q", got, want)
	}
}

func TestMemoryLimit(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function(ev)
			local t = {}
			for i = 1, 1e6 do t[i] = string.rep("x", 200) .. i end
		end)
		bc.on("chat", function(ev)
			hoard = {}
			for i = 1, 1e6 do hoard[i] = string.rep("y", 200) .. i end
		end)
	`, lua.Options{Limits: lua.Limits{MemoryLimit: 4 << 20, Budget: time.Hour, TickBudget: time.Hour}}, nil)
	// Garbage: the handler is stopped, the mission goes on.
	p := e.Join(2, "A")
	if !e.reported(lua.ErrAborted, "", "memory limit of 4.0 MiB exceeded") || !e.host.Loaded() {
		t.Fatalf("loaded %v errors: %s", e.host.Loaded(), e.errors())
	}
	// Kept data: still over the limit after the call, so suspended.
	e.Emit(&engine.Chat{From: p, Text: []byte("hi")})
	if e.host.Loaded() || !e.reported(lua.ErrSuspended, "", "suspended: memory limit") {
		t.Fatalf("loaded %v errors: %s", e.host.Loaded(), e.errors())
	}
}

// Data the runtime holds for the mission outside Lua values (timer names,
// handler ids) counts against the memory limit too.
func TestMemoryLimitSeesTimerNamesAndHandlerIDs(t *testing.T) {
	for _, store := range []string{
		`bc.timer(big .. i, 60)`,
		`bc.on("tick", big .. i, function() end)`,
	} {
		e := mustOpen(t, `
			bc.on("player_in_game", function(ev)
				local big = string.rep("x", 1000000)
				for i = 1, 40 do `+store+` end
			end)
		`, lua.Options{Limits: lua.Limits{MemoryLimit: 16 << 20, Budget: time.Hour, TickBudget: time.Hour}}, nil)
		e.Join(2, "A")
		if !e.reported("", "", "memory limit of 16.0 MiB exceeded") {
			t.Fatalf("%s: errors: %s", store, e.errors())
		}
	}
}

func TestConcatDoublingIsStopped(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function()
			local s = "x"
			for i = 1, 40 do s = s .. s end
		end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	if !e.reported("", "", "exceeds the 1048576-byte string cap") {
		t.Fatalf("errors: %s", e.errors())
	}
}

// Forty handlers that each take a quarter of the tick budget: the first
// few run, the rest of the tick's handlers are not run, and the next tick
// starts afresh. The overrun is counted once per tick.
func TestTickBudgetIsShared(t *testing.T) {
	var src strings.Builder
	src.WriteString("bc.storage.ran = 0\n")
	for i := 0; i < 40; i++ {
		src.WriteString(`bc.on("tick", function() for i = 1, 20000 do end bc.storage.ran = bc.storage.ran + 1 end)` + "\n")
	}
	e := mustOpen(t, src.String(), lua.Options{Limits: lua.Limits{MaxOverruns: 100}}, nil)
	e.Advance(100 * time.Millisecond)
	ran := e.host.Storage().Get("ran").(float64)
	if ran < 3 || ran > 10 {
		t.Fatalf("%v handlers ran in one tick", ran)
	}
	if !e.reported(lua.ErrAborted, "", "not run: the mission used its tick budget of 10ms") {
		t.Fatalf("errors: %s", e.errors())
	}
	e.Advance(100 * time.Millisecond)
	if got := e.host.Storage().Get("ran").(float64); got < 2*ran-1 || got > 2*ran+1 {
		t.Fatalf("second tick: %v handlers in all", got)
	}
}

func TestRepeatedOverrunsSuspend(t *testing.T) {
	e := mustOpen(t, `
		bc.on("tick", function() while true do end end)
		bc.on("mission_unload", function() end)
	`, lua.Options{Limits: lua.Limits{MaxOverruns: 3}}, nil)
	e.Join(2, "A")
	e.Take()
	e.Advance(time.Second)
	if e.host.Loaded() {
		t.Fatal("still loaded")
	}
	if !e.reported(lua.ErrSuspended, "", "suspended after overrunning its time budget in 3 ticks") {
		t.Fatalf("errors: %s", e.errors())
	}
	if got := e.sent(); len(got) != 1 || !strings.Contains(got[0], "The game mode stopped") {
		t.Fatalf("players not told: %q", got)
	}
	// A reload brings it back.
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(`bc.on("tick", function() end)`)}
	if err := e.host.ReloadNow(); err != nil || !e.host.Loaded() || e.host.Version() != 2 {
		t.Fatalf("reload: %v", err)
	}
}

func TestTimerBounds(t *testing.T) {
	e := mustOpen(t, `
		local n, err = 0, nil
		for i = 1, 10000 do
			local ok, e = pcall(bc.after, 1, function() end)
			if not ok then err = e break end
			n = n + 1
		end
		bc.storage.made, bc.storage.err = n, err
		bc.storage.period = select(2, pcall(bc.every, 0.001, function() end))
		for i = 1, 200 do bc.cancel(i) end
		bc.storage.after_cancel = select(2, pcall(bc.after, 0, function() bc.storage.fired = true end))
	`, lua.Options{Limits: lua.Limits{MaxTimers: 256}}, nil)
	st := e.host.Storage()
	if st.Get("made") != 256.0 || !strings.Contains(st.Get("err").(string), "already has 256 timers") ||
		!strings.Contains(st.Get("period").(string), "shorter than the minimum of 0.1s") {
		t.Fatalf("storage %+v", *st)
	}
	e.Advance(100 * time.Millisecond)
	if e.host.Storage().Get("fired") != true {
		t.Fatal("a timer made after cancelling did not fire")
	}
}

// Timers the tick budget cannot take wait for the next tick; none is
// lost.
func TestTimersShareTheTickBudget(t *testing.T) {
	e := mustOpen(t, `
		bc.storage.fired = 0
		for i = 1, 100 do
			bc.after(0.1, function() for j = 1, 2000 do end bc.storage.fired = bc.storage.fired + 1 end)
		end
	`, lua.Options{Limits: lua.Limits{MaxOverruns: 1000}}, nil)
	e.Advance(100 * time.Millisecond)
	first := e.host.Storage().Get("fired").(float64)
	if first == 0 || first >= 100 {
		t.Fatalf("%v timers in the first tick", first)
	}
	e.Advance(3 * time.Second)
	// A timer running when the budget ran out was stopped (an overrun,
	// logged); every other one fired.
	aborted := e.count(lua.ErrAborted, "timer") + e.count(lua.ErrFailed, "timer")
	if got := e.host.Storage().Get("fired").(float64); int(got)+aborted != 100 || aborted > 3 || !e.reported(lua.ErrDeferred, "timer") {
		t.Fatalf("%v of 100 timers fired, %d aborted; errors: %s", got, aborted, e.errors())
	}
}

func TestClockAdvancesInsideACall(t *testing.T) {
	e := mustOpen(t, `
		bc.on("player_in_game", function()
			local a = bc.clock()
			for i = 1, 10000 do end
			bc.storage.dt = bc.clock() - a
		end)
	`, lua.Options{}, nil)
	e.Join(2, "A")
	// 10000 iterations of a few steps at 100 ns a step: a few ms.
	if dt := e.host.Storage().Get("dt").(float64); dt < 0.001 || dt > 0.01 {
		t.Fatalf("clock advanced %vs", dt)
	}
}

// string.format takes Lua 5.1's conversions only: digits in plain text
// are text, and Go's reflective verbs cannot print a whole table
// unbudgeted.
func TestStringFormatDirectives(t *testing.T) {
	tests := []struct{ format, arg, want string }{
		{"%d of 10000", "5", "5 of 10000"},
		{"year 2026: %5.2f%%", "1.5", "year 2026:  1.50%"},
		{"%-999s|", "'x'", "x" + strings.Repeat(" ", 998) + "|"},
		{"%03d", "7", "007"},
		{"%1000d", "1", "error: string.format: width or precision above 999"},
		{"%.1000f", "1", "error: string.format: width or precision above 999"},
		{"%#v", "{1, 2}", "error: string.format: invalid conversion '%v'"},
		{"%[1]d", "1", "error: string.format: invalid conversion '%['"},
		{"%T", "1", "error: string.format: invalid conversion '%T'"},
		{"100%", "1", "error: string.format: invalid conversion at the end"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			e := mustOpen(t, `
				local ok, r = pcall(string.format, "`+tt.format+`", `+tt.arg+`)
				bc.storage.r = ok and r or ("error: " .. r)
			`, lua.Options{}, nil)
			got, _ := e.host.Storage().Get("r").(string)
			if got != tt.want && !(strings.HasPrefix(tt.want, "error: ") && strings.Contains(got, strings.TrimPrefix(tt.want, "error: "))) {
				t.Fatalf("string.format(%q, %s) = %q, want %q", tt.format, tt.arg, got, tt.want)
			}
		})
	}
}

// bc.json.encode charges an object's keys before it collects and sorts
// them: a big table with one bad key is stopped by the budget, not turned
// down after an unbudgeted sort.
func TestJSONEncodeChargesBigObjects(t *testing.T) {
	e := mustOpen(t, `
		T = {}
		bc.on("player_in_game", function()
			if #T < 60000 then
				for i = #T + 1, #T + 10000 do T[i] = i end
				return
			end
			T[true] = 1
			bc.storage.encoded = select(2, bc.json.encode(T))
		end)
	`, lua.Options{}, nil)
	for i := 0; i < 7; i++ {
		e.Join(2, "A")
		e.Advance(time.Second)
	}
	if e.host.Storage().Get("encoded") != nil || !e.reported("", "", "m/main.lua:9: time budget exceeded") {
		t.Fatalf("encoded %v, errors: %s", e.host.Storage().Get("encoded"), e.errors())
	}
}

// A handler that registers a handler each time it runs (a common slip)
// runs into a cap instead of growing the list, and the scans of it, forever.
func TestHandlersPerEventAreCapped(t *testing.T) {
	e := mustOpen(t, `
		for i = 1, 256 do bc.on("tick", "h" .. i, function() end) end
		bc.on("tick", "h1", function() end) -- replacing stays possible
		local ok, err = pcall(bc.on, "tick", function() end)
		bc.storage.err = tostring(err)
		bc.storage.ok = ok
	`, lua.Options{}, nil)
	st := e.host.Storage()
	if st.Get("ok") != false || !strings.Contains(st.Get("err").(string), `event "tick" already has 256 handlers`) {
		t.Fatalf("%+v", *st)
	}
}

// gopher-lua keeps integer keys below 2^26 in a table's array part and
// pads it with nils up to the key: one assignment must not append tens
// of millions of them. Sparse keys that fit, and keys past 2^26, work.
func TestSparseIntegerKeysAreBounded(t *testing.T) {
	e := mustOpen(t, `
		local function fails(f) local ok, err = pcall(f) return not ok and tostring(err) or "succeeded" end
		bc.storage.const_key = fails(function() local t = {} t[60000000] = 1 end)
		bc.storage.reg_key = fails(function() local t, k = {}, 60000000 t[k] = 1 end)
		bc.storage.rawset = fails(function() rawset({}, 60000000, 1) end)
		bc.storage.insert = fails(function() table.insert({}, 60000000, 1) end)
		bc.storage.ctor = fails(function() local t = {[60000000] = 1} end)
		local seen
		local proxy = setmetatable({}, {__newindex = function(_, k) seen = k end})
		proxy[60000000] = 1
		bc.storage.proxy = seen
		bc.storage.raw_proxy = fails(function() rawset(proxy, 60000000, 1) end)
		local t = {}
		t[5000] = "sparse"
		t[70000000] = "hash part"
		t[1.5] = "not an index"
		rawset(t, 6000, "raw")
		table.insert(t, 7000, "inserted")
		bc.storage.fit = t[5000] .. "," .. t[70000000] .. "," .. t[1.5] .. "," .. t[6000] .. "," .. t[7000]
	`, lua.Options{}, nil)
	st := e.host.Storage()
	if st.Get("proxy") != 60000000.0 {
		t.Errorf("__newindex: %v", st.Get("proxy"))
	}
	for _, key := range []string{"const_key", "reg_key", "rawset", "insert", "ctor", "raw_proxy"} {
		if got, _ := st.Get(key).(string); !strings.Contains(got, "t[60000000]: the table's array part would grow by 59999999 empty slots") {
			t.Errorf("%s: %q", key, got)
		}
	}
	if got := st.Get("fit"); got != "sparse,hash part,not an index,raw,inserted" {
		t.Errorf("fit: %v", got)
	}
}

// A load stages what it does to the game; with nobody in game the send
// quota counts nothing, so the staging itself is bounded.
func TestStagedEffectsAreBounded(t *testing.T) {
	_, err := open(t, `
		local msg = "\100" .. string.rep("x", 4000)
		for i = 1, 100000 do bc.broadcast(msg) end
	`, lua.Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "m/main.lua:3: a loading version may stage at most 4096 game effects") {
		t.Fatalf("open: %v", err)
	}
}

// Each call of a load gets the load budget, and the whole load four of
// them: the game loop waits for a reload, however many handlers it runs.
func TestLoadTimeIsBoundedInAll(t *testing.T) {
	handlers := func(n int) string {
		return strings.Repeat(`bc.on("mission_load", function() for i = 1, 6000 do end end)`+"\n", n)
	}
	opts := lua.Options{Limits: lua.Limits{LoadBudget: time.Millisecond}}
	if _, err := open(t, handlers(3), opts, nil); err != nil {
		t.Fatalf("three handlers within the budget: %v", err)
	}
	_, err := open(t, handlers(8), opts, nil)
	if err == nil || !strings.Contains(err.Error(), "m/main.lua:7: time budget exceeded: loading may take 1ms per call, 4ms in all") {
		t.Fatalf("eight handlers: %v", err)
	}
}
