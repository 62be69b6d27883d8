package lua_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// A mission suspended for its errors and then fixed comes back as a
// reload: mission_reload runs (with suspended = true), mission_start does
// not, so the host ships it made are not made twice; the players read in
// chat that the mode stopped and that it is back, in words meant for them.
func TestFixAfterSuspensionReloads(t *testing.T) {
	const mission = `
		local S = bc.storage
		S.starts = S.starts or 0
		bc.on("mission_start", function()
			S.starts = S.starts + 1
			for i = 1, 3 do bc.create_ship { class = "Galor", team = 1, position = { i * 100, 0, 0 } } end
		end)
		bc.on("mission_reload", function(ev)
			S.reloaded = { from = ev.previous_version, to = ev.version, suspended = ev.suspended }
		end)
		bc.on("mission_load", function(ev) S.load_reload = ev.reload end)
	`
	e := mustOpen(t, mission+`bc.on("tick", function() error("bug") end)`, lua.Options{Limits: lua.Limits{MaxErrors: 3}}, nil)
	e.Join(2, "A")
	ships := func() int { return e.World().HostShips() }
	if ships() != 3 {
		t.Fatalf("%d host ships after the start", ships())
	}
	e.Take()
	for i := 0; i < 3; i++ {
		e.Emit(&engine.Tick{Now: t0, Dt: 100 * time.Millisecond})
	}
	if e.host.Loaded() {
		t.Fatal("not suspended")
	}
	said := func() []string {
		var out []string
		for _, s := range e.sent() {
			if s[0] == 0x2C {
				out = append(out, s[7:])
			}
		}
		return out
	}
	if got := said(); len(got) != 1 || got[0] != "[server] The game mode stopped after errors. Play on: scores are not kept until the host fixes it." {
		t.Fatalf("players read %q", got)
	}
	if !e.reported(lua.ErrSuspended, "", "suspended after 3 errors within 1m0s") {
		t.Fatalf("errors: %s", e.errors())
	}

	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(mission)}
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	st := e.host.Storage()
	if ships() != 3 || st.Get("starts") != 1.0 {
		t.Fatalf("%d host ships, mission_start ran %v times", ships(), st.Get("starts"))
	}
	r, _ := st.Get("reloaded").(*lua.Table)
	if r == nil || r.Get("from") != 1.0 || r.Get("to") != 2.0 || r.Get("suspended") != true || st.Get("load_reload") != true {
		t.Fatalf("mission_reload: %v, mission_load reload = %v", r, st.Get("load_reload"))
	}
	if got := said(); len(got) != 1 || got[0] != "[server] The game mode is running again." {
		t.Fatalf("players read %q", got)
	}
	// An ordinary reload says nothing to the players and is not a resume.
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	if got := said(); len(got) != 0 {
		t.Fatalf("players read %q after a plain reload", got)
	}
	if r, _ := e.host.Storage().Get("reloaded").(*lua.Table); r.Get("suspended") != false || ships() != 3 {
		t.Fatalf("plain reload: %v, %d ships", r, ships())
	}
}

// chatLines returns the text of the chat lines sent so far (after the
// 7-byte header), and forgets everything sent.
func (e *env) chatLines() []string {
	var out []string
	for _, s := range e.sent() {
		if s[0] == 0x2C {
			out = append(out, s[7:])
		}
	}
	return out
}

// A command whose handler fails tells its player so and counts against
// that command: after three failures it is switched off, and one player
// repeating it cannot suspend the mode for everybody.
func TestBrokenCommandCountsAgainstItself(t *testing.T) {
	e := mustOpen(t, `
		bc.command("broken", function() error("oops") end)
		bc.command("ok", function() return "fine" end)
	`, lua.Options{Limits: lua.Limits{MaxErrors: 3}}, nil)
	a := e.Join(2, "A")
	e.Take()
	for range 10 {
		ev := &engine.Chat{From: a, Text: []byte("!broken")}
		e.Emit(ev)
		if !ev.Cancel {
			t.Fatal("a command line was relayed")
		}
	}
	if !e.host.Loaded() || e.host.Suspended() != "" {
		t.Fatalf("the mode was suspended for one command: %s", e.errors())
	}
	got := e.chatLines()
	want := []string{"!broken failed; the host has been told.", "!broken failed; the host has been told.",
		"!broken failed and is switched off until the host fixes it."}
	for len(want) < 10 {
		want = append(want, "!broken is switched off after errors until the host fixes it.")
	}
	if len(got) != len(want) {
		t.Fatalf("the player read %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
	if n := e.count(lua.ErrFailed, "command !broken", "oops"); n != 3 || !e.reported(lua.ErrCommandOff, "command !broken", "switched off after 3 errors") {
		t.Fatalf("%d failures reported:\n%s", n, e.errors())
	}
	e.Emit(&engine.Chat{From: a, Text: []byte("!ok")})
	e.Emit(&engine.Chat{From: a, Text: []byte("!help")})
	if got := e.chatLines(); len(got) != 2 || got[0] != "fine" || got[1] != "commands: !broken !ok (!help name for one); switched off after errors: !broken" {
		t.Fatalf("after: %q", got)
	}
	// A fixed version has the command back.
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(`bc.command("broken", function() return "fixed" end)`)}
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	e.Emit(&engine.Chat{From: a, Text: []byte("!broken")})
	if got := e.chatLines(); len(got) != 1 || got[0] != "fixed" {
		t.Fatalf("after the fix: %q", got)
	}
}

// While a mode is suspended, its commands (and !help) are answered "the
// mode is paused" to their sender alone, at most once a second, instead of
// going to everyone as chat; other lines are chat as ever. Suspended says
// why until a fixed version runs.
func TestSuspendedModeAnswersCommands(t *testing.T) {
	const fixed = `bc.command("score", function() return "3 kills" end)`
	e := mustOpen(t, fixed+`
		bc.on("tick", function() error("bug") end)
	`, lua.Options{Limits: lua.Limits{MaxErrors: 3}}, nil)
	a := e.Join(2, "A")
	for range 3 {
		e.Emit(&engine.Tick{Now: t0, Dt: 100 * time.Millisecond})
	}
	if why := e.host.Suspended(); e.host.Loaded() || why != "suspended after 3 errors within 1m0s" {
		t.Fatalf("suspended: %v %q", e.host.Loaded(), why)
	}
	e.Take()
	for _, tc := range []struct {
		text   string
		cancel bool
	}{{"!score", true}, {"!help", true}, {"!score", true}, {"!nosuch", false}, {"hello", false}} {
		ev := &engine.Chat{From: a, Text: []byte(tc.text)}
		e.Emit(ev)
		if ev.Cancel != tc.cancel {
			t.Fatalf("%q: relay cancelled %v, want %v", tc.text, ev.Cancel, tc.cancel)
		}
	}
	want := "The game mode is paused after errors; its commands are back when the host fixes it."
	if got := e.chatLines(); len(got) != 1 || got[0] != want {
		t.Fatalf("the player read %q", got)
	}
	e.Advance(2 * time.Second)
	e.Emit(&engine.Chat{From: a, Text: []byte("!score")})
	if got := e.chatLines(); len(got) != 1 || got[0] != want {
		t.Fatalf("a second later the player read %q", got)
	}
	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(fixed)}
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	e.Take()
	e.Emit(&engine.Chat{From: a, Text: []byte("!score")})
	if got := e.chatLines(); e.host.Suspended() != "" || len(got) != 1 || got[0] != "3 kills" {
		t.Fatalf("after the fix: %q (suspended %q)", got, e.host.Suspended())
	}
}
