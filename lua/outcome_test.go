package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// bc.end_game takes an outcome — the winning team or player, why — in
// either form; the team scores default to the last bc.status's; the
// game_ended event and the engine event carry it; bad fields are errors.
func TestEndGameOutcome(t *testing.T) {
	for _, tc := range []struct {
		name, call string
		want       engine.Outcome
		team       int // -1: none
	}{
		{"team", `bc.end_game(bc.END.TIME_UP, { winner_team = 1, why = "the freighter got through" })`,
			engine.Outcome{Why: "the freighter got through", Teams: []engine.TeamScore{{Team: 0, Kills: 3, Score: 30}, {Team: 1, Kills: 5, Score: 50}}}, 1},
		{"player, one table", `bc.end_game { reason = bc.END.ITS_JUST_OVER, winner = 2, teams = { [0] = { kills = 1, score = 2 } } }`,
			engine.Outcome{Player: 2, PlayerName: "Alice", Teams: []engine.TeamScore{{Team: 0, Kills: 1, Score: 2}}}, -1},
		{"none", `bc.end_game(bc.END.TIME_UP)`, engine.Outcome{Teams: []engine.TeamScore{{Team: 0, Kills: 3, Score: 30}, {Team: 1, Kills: 5, Score: 50}}}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustOpen(t, `
				bc.on("game_ended", function(ev)
					bc.storage.ended = { reason = ev.reason, team = ev.winner_team, winner = ev.winner, name = ev.winner_name, why = ev.why,
						t1 = ev.teams and ev.teams[1] and ev.teams[1].score }
				end)
				bc.command("end", function() bc.status { teams = { [0] = { kills = 3, score = 30 }, [1] = { kills = 5, score = 50 } } }; `+tc.call+` end)
			`, lua.Options{}, nil)
			var got *engine.GameEnded
			e.On(engine.EvGameEnded, func(ev engine.Event) { got = ev.(*engine.GameEnded) })
			alice := e.Connect(2, "Alice")
			alice.State = engine.StateInGame
			e.Emit(&engine.Chat{From: alice, Text: []byte("!end")})
			if got == nil {
				t.Fatalf("no game_ended\n%s", e.logs.String())
			}
			o := got.Outcome
			team := -1
			if o != nil && o.Team != nil {
				team = *o.Team
			}
			if o == nil || team != tc.team || o.Player != tc.want.Player || o.PlayerName != tc.want.PlayerName || o.Why != tc.want.Why || len(o.Teams) != len(tc.want.Teams) {
				t.Fatalf("outcome %+v (team %d), want %+v (team %d)", o, team, tc.want, tc.team)
			}
			for i := range o.Teams {
				if o.Teams[i] != tc.want.Teams[i] {
					t.Fatalf("teams %v, want %v", o.Teams, tc.want.Teams)
				}
			}
			ended := e.host.Storage().Get("ended").(*lua.Table)
			if tc.team >= 0 && ended.Get("team") != float64(tc.team) || ended.Get("why") != nilIfEmpty(tc.want.Why) || ended.Get("name") != nilIfEmpty(tc.want.PlayerName) {
				t.Fatalf("game_ended payload %v", ended)
			}
		})
	}
	e := mustOpen(t, `
		local errs = {}
		for _, f in ipairs {
			function() bc.end_game(1, { winer_team = 1 }) end,
			function() bc.end_game(1, { winner_team = 300 }) end,
			function() bc.end_game(1, { why = string.rep("x", 129) }) end,
			function() bc.end_game(1, { reason = 2 }) end,
			function() bc.end_game("over") end,
		} do
			local ok, err = pcall(f)
			errs[#errs + 1] = ok and "ok" or err
		end
		bc.storage.errs = table.concat(errs, "\n")
	`, lua.Options{}, nil)
	errs := e.host.Storage().Get("errs").(string)
	for _, want := range []string{`unknown field winer_team`, `winner_team: 300 is not a team`, `why: longer than 128 bytes`, `reason: give it once`, `want a reason (bc.END)`} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors lack %q:\n%s", want, errs)
		}
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
