package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/lua"
)

// bc.status gives the host's status the time left and the team scores;
// each call replaces the last, and a load that fails leaves it alone.
func TestStatus(t *testing.T) {
	e := mustOpen(t, `
		bc.status { time_left = 300, teams = { [1] = { kills = 2, score = 20 }, [0] = { kills = 1 } } }
		bc.command("clear", function() bc.status {} end)
	`, lua.Options{}, nil)
	st := e.host.Status()
	if st.TimeLeft == nil || *st.TimeLeft != 300 || len(st.Teams) != 2 ||
		st.Teams[0] != (lua.TeamStatus{Team: 0, Kills: 1}) || st.Teams[1] != (lua.TeamStatus{Team: 1, Kills: 2, Score: 20}) {
		t.Fatalf("status %+v", st)
	}
	e.fs["m/main.lua"].Data = []byte(`bc.status { time_left = 5 } error("broken")`)
	if err := e.host.ReloadNow(); err == nil {
		t.Fatal("the broken version loaded")
	}
	if st := e.host.Status(); *st.TimeLeft != 300 {
		t.Fatalf("a failed load changed the status: %+v", st)
	}
	for _, bad := range []string{`bc.status { time_left = 1.5 }`, `bc.status { teams = { x = {} } }`, `bc.status { teams = { [0] = { kills = "3" } } }`} {
		_, err := open(t, bad, lua.Options{}, nil)
		if err == nil || !strings.Contains(err.Error(), "bc.status") && !strings.Contains(err.Error(), "status") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
