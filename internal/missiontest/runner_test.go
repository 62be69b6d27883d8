package missiontest

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bcserver/bcserver/missions"
)

// The stock modes' own Lua tests pass.
func TestBuiltinMissionTests(t *testing.T) {
	var out bytes.Buffer
	r := &Runner{FS: missions.FS(), Out: &out}
	sum, err := r.Run()
	if err != nil || sum.Failed > 0 || sum.Passed == 0 {
		t.Fatalf("%+v %v\n%s", sum, err, out.String())
	}
	t.Log(out.String())
}

// A failing test is reported with the test file's line; a mission error
// the test did not look at fails it too.
func TestFailuresNameTheLine(t *testing.T) {
	fsys := fstest.MapFS{
		"m/main.lua": {Data: []byte(`bc.on("player_in_game", function() error("mission bug") end)`)},
		"m/m_test.lua": {Data: []byte(`
test.case("passes", function() test.eq({1, {2}}, {1, {2}}) end)
test.case("fails", function()
  local g = test.game {}
  test.eq(1 + 1, 3, "arithmetic")
end)
test.case("mission error", function()
  local g = test.game {}
  g:join("A")
end)
test.case("mission error checked", function()
  local g = test.game {}
  g:join("A")
  test.eq(#g:errors(), 1)
end)
`)},
	}
	var out bytes.Buffer
	sum, err := (&Runner{FS: fsys, Out: &out}).Run()
	if err != nil || sum.Passed != 2 || sum.Failed != 2 {
		t.Fatalf("%+v %v\n%s", sum, err, out.String())
	}
	for _, want := range []string{
		"--- FAIL: fails", "m/m_test.lua:5: arithmetic: got 2, want 3",
		"--- FAIL: mission error", "m/m_test.lua:7: the mission reported errors", "m/main.lua:1: mission bug",
		"--- PASS: mission error checked", "FAIL\t1 files, 2 tests passed, 2 failed",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// g:mission() shows a test what bc.mission() shows the mission.
func TestMissionTableMatchesTheMissions(t *testing.T) {
	fsys := fstest.MapFS{
		"m/main.lua": {Data: []byte(`bc.storage.mi = bc.mission()`)},
		"m/m_test.lua": {Data: []byte(`
test.case("mission", function()
  local g = test.game {}
  local mi = g:mission()
  test.eq(g:storage().mi, mi)
  test.ok(type(mi.script) == "string" and mi.script ~= "", "script")
  test.ok(type(mi.system) == "string" and mi.system ~= "", "system")
  test.ok(type(mi.map_name) == "string", "map_name")
  test.ok(type(mi.time_limit) == "number" and type(mi.frag_limit) == "number", "limits")
end)
`)},
	}
	var out bytes.Buffer
	sum, err := (&Runner{FS: fsys, Out: &out}).Run()
	if err != nil || sum.Passed != 1 || sum.Failed != 0 {
		t.Fatalf("%+v %v\n%s", sum, err, out.String())
	}
}
