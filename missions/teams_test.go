package missions_test

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

func teamMsg(p *engine.Player, team uint8) *engine.ScriptMessage {
	return &engine.ScriptMessage{From: p, Payload: codec.Team{Player: int32(p.ID), Team: team}.AppendTo(nil)}
}

func TestTeamModes(t *testing.T) {
	modes := []struct{ mode, script, mapName string }{
		{"team-deathmatch", "Multiplayer.Episode.Mission2.Mission2", "TDM"},
		{"fed-vs-nonfed", "Multiplayer.Episode.Mission3.Mission3", "FvN"},
	}
	for _, md := range modes {
		t.Run(md.mode, func(t *testing.T) {
			g := start(t, md.mode, map[string]any{"frag_limit": int64(1)}, 0)
			if m := g.Mission(); m.Script != md.script || m.MapName != md.mapName || !g.TeamMode() {
				t.Fatalf("mission %+v team mode %v", g.Mission(), g.TeamMode())
			}
			teamScores := func(k0, s0, k1, s1 int32) [][]byte {
				return [][]byte{
					codec.TeamScore{Team: 0, Kills: k0, Score: s0}.AppendTo(nil),
					codec.TeamScore{Team: 1, Kills: k1, Score: s1}.AppendTo(nil),
				}
			}
			p2 := g.Join(2, "A")
			ts := teamScores(0, 0, 0, 0)
			g.expect(t, "first join", to(2, h(t, "35 08 01 ff 01")), to(2, ts[0]), to(2, ts[1]))

			// TEAM: stored, echoed unchanged to everyone (sender included).
			p3 := g.Join(3, "B")
			g.Take()
			ev := teamMsg(p3, 1)
			g.Emit(ev)
			if !ev.Handled || p3.Team != 1 {
				t.Fatalf("team message: handled %v team %d", ev.Handled, p3.Team)
			}
			g.expect(t, "team echo", all(vec(t, "team_message_test"), 2, 3)...)
			g.Emit(teamMsg(p2, 0))
			g.expect(t, "team echo 2", all(vec(t, "team_message_team0_player2"), 2, 3)...)
			// Hardening: a TEAM naming someone else, or team 2, is ignored.
			g.Emit(&engine.ScriptMessage{From: p2, Payload: codec.Team{Player: 3, Team: 0}.AppendTo(nil)})
			g.Emit(&engine.ScriptMessage{From: p2, Payload: codec.Team{Player: 2, Team: 2}.AppendTo(nil)})
			g.expect(t, "spoofed team")
			if p3.Team != 1 || p2.Team != 0 {
				t.Fatal("spoofed TEAM applied")
			}

			// A joiner gets SCORE_INIT rows (team 255 for none), then TEAM_SCORE x2.
			g.Join(4, "C")
			g.expect(t, "third join", to(4, h(t, "35 08 01 ff 01")),
				to(4, h(t, "3f 02000000 00000000 00000000 00000000 00")),
				to(4, h(t, "3f 03000000 00000000 00000000 00000000 01")),
				to(4, ts[0]), to(4, ts[1]))
			p4 := g.Player(4)

			// Friendly fire counts negative: 4 has no team yet, so he
			// is not friendly to anyone; 2 shoots his team mate... none:
			// put 4 on team 0 first.
			g.Emit(teamMsg(p4, 0))
			g.Take()
			victim := g.Spawn(p3, 6)
			g.Hit(2, victim, 1000, true) // enemy: +100
			g.Hit(4, victim, 300, false) // enemy: +30
			g.Kill(victim, 2, engine.CauseWeapon)
			ts = teamScores(1, 130, 0, 0)
			g.expect(t, "cross-team kill", cat(
				all(h(t, "36 02000000 01000000 64000000 03000000 01000000 01 04000000 1e000000"), 2, 3, 4),
				all(ts[0], 2, 3, 4), all(ts[1], 2, 3, 4))...)

			// A team kill awards nothing and the damage is negative.
			mate := g.Spawn(p4, 1)
			g.Hit(2, mate, 200, true)
			g.Kill(mate, 2, engine.CauseWeapon)
			ts = teamScores(1, 110, 0, 0)
			g.expect(t, "team kill", cat(
				all(h(t, "36 02000000 01000000 50000000 04000000 01000000 00"), 2, 3, 4),
				all(ts[0], 2, 3, 4), all(ts[1], 2, 3, 4))...)

			// Team 0 reaches 10000 points: END_GAME 3 after the team scores.
			big := g.Spawn(p3, 6)
			g.Hit(4, big, 99000, true)
			g.Kill(big, 4, engine.CauseWeapon)
			ts = teamScores(2, 10010, 0, 0)
			g.expect(t, "score limit", cat(
				all(h(t, "36 04000000 01000000 ca260000 03000000 02000000 00"), 2, 3, 4),
				all(ts[0], 2, 3, 4), all(ts[1], 2, 3, 4),
				all(vec(t, "end_game_score_limit"), 2, 3, 4))...)

			// Restart quirk: every team entry becomes 0.
			g.RestartGame()
			g.Take()
			if p3.Team != 0 {
				t.Fatalf("after restart player 3 team %d", p3.Team)
			}
			g.Join(5, "D")
			ts = teamScores(0, 0, 0, 0)
			g.expect(t, "join after restart", to(5, h(t, "35 08 01 ff 01")),
				to(5, h(t, "3f 02000000 00000000 00000000 00000000 00")),
				to(5, h(t, "3f 03000000 00000000 00000000 00000000 00")),
				to(5, h(t, "3f 04000000 00000000 00000000 00000000 00")),
				to(5, ts[0]), to(5, ts[1]))
		})
	}
}

func TestTeamScoreInitVectors(t *testing.T) {
	g := start(t, "team-deathmatch", nil, 0)
	p2, p3 := g.Join(2, "A"), g.Join(3, "B")
	g.Emit(teamMsg(p2, 0))
	// Player 2: 3 kills, 1 death, 1834 points; player 4 joins and never
	// picks a team.
	for i := 0; i < 3; i++ {
		g.Emit(teamMsg(p3, 1))
		v := g.Spawn(p3, 6)
		if i == 0 {
			g.Hit(2, v, 18340, true)
		}
		g.Kill(v, 2, engine.CauseWeapon)
	}
	g.Kill(g.Spawn(p2, 1), 0, engine.CauseSelfDestruct)
	g.Join(4, "C")
	g.Take()
	g.Join(6, "E")
	got := g.Take()
	if len(got) < 4 {
		t.Fatalf("join sync %d messages", len(got))
	}
	for i, want := range [][]byte{vec(t, "score_init_team0"), nil, vec(t, "score_init_no_team")} {
		if want != nil && string(got[1+i].Payload) != string(want) {
			t.Fatalf("row %d: %x, want %x", i, got[1+i].Payload, want)
		}
	}
}

func TestDefendTheStarbase(t *testing.T) {
	g := start(t, "defend-the-starbase", map[string]any{"system": "Multi4"}, 30900*time.Millisecond)
	g.Limit = 6 // the server's max_players, which MISSION_INIT announces
	if m := g.Mission(); m.Script != "Multiplayer.Episode.Mission5.Mission5" || m.TimeLimit != 20 || !g.TeamMode() {
		t.Fatalf("mission %+v", m)
	}
	var sb *engine.Object
	for _, o := range g.Objects() {
		if o.Species == 30 && o.HostOwned() {
			sb = o
		}
	}
	if sb == nil || sb.Name != "Starbase" || sb.OwnerID() != 0 {
		t.Fatalf("no starbase at mission start: %+v", sb)
	}
	p2 := g.Join(2, "A")
	g.expect(t, "join", to(2, vec(t, "mission_init_mission5")),
		to(2, h(t, "40 00 00000000 00000000")), to(2, h(t, "40 01 00000000 00000000")))
	p3, p4 := g.Join(3, "B"), g.Join(4, "C")
	g.Emit(teamMsg(p2, 1)) // defender
	g.Emit(teamMsg(p3, 0)) // attackers
	g.Emit(teamMsg(p4, 0))
	// Player 3 already has 4 kills and 1487 points.
	for i := 0; i < 4; i++ {
		v := g.Spawn(p2, 1)
		if i == 0 {
			g.Hit(3, v, 14870, true)
		}
		g.Kill(v, 3, engine.CauseWeapon)
	}
	g.Take()
	g.Hit(3, sb, 200, true) // never negated: owner 0
	g.Hit(4, sb, 880, false)
	g.Kill(sb, 3, engine.CauseWeapon)
	g.expect(t, "starbase killed", cat(
		all(vec(t, "score_change_mission5_starbase_killed"), 2, 3, 4),
		all(h(t, "40 00 05000000 3b060000"), 2, 3, 4), all(h(t, "40 01 00000000 00000000"), 2, 3, 4))...)
	if g.GameOver() {
		t.Fatal("END_GAME before the starbase object is deleted")
	}
	// Scoring has stopped.
	g.Kill(g.Spawn(p2, 1), 3, engine.CauseWeapon)
	g.expect(t, "after starbase death")
	g.World().RemoveHostShip(g.Clock, sb) // the wreck goes after its explosion
	g.expect(t, "starbase deleted", cat(all(codec.DestroyObject{ObjectID: sb.ID}.AppendTo(nil), 2, 3, 4),
		all(vec(t, "end_game_reason_4"), 2, 3, 4))...)

	// A later joiner gets the row for id 0 (the starbase's deaths).
	g.RestartGame()
	g.Take()
	g.Join(5, "D")
	got := g.Take()
	if len(got) < 2 || string(got[1].Payload) != string(h(t, "3f 00000000 00000000 00000000 00000000 ff")) {
		t.Fatalf("join after restart: %s", dump(got))
	}
}

func TestDefendTheStarbaseFragLimit(t *testing.T) {
	g := start(t, "defend-the-starbase", map[string]any{"frag_limit": int64(2), "time_limit": int64(5)}, 0)
	sbID := g.World().Objects()[0].ID // the starbase, deleted with the game
	p2, p3 := g.Join(2, "A"), g.Join(3, "B")
	g.Emit(teamMsg(p2, 1))
	g.Emit(teamMsg(p3, 0))
	g.Take()
	// An attacker self-destructs: a kill for the defenders.
	g.Kill(g.Spawn(p3, 6), 0, engine.CauseSelfDestruct)
	g.expect(t, "self-destruct", cat(
		all(h(t, "36 00000000 03000000 01000000 00"), 2, 3),
		all(h(t, "40 00 00000000 00000000"), 2, 3), all(h(t, "40 01 01000000 00000000"), 2, 3))...)
	// A defender kill reaches the limit: reason 2.
	g.Kill(g.Spawn(p3, 6), 2, engine.CauseWeapon)
	g.expect(t, "frag limit", cat(
		all(h(t, "36 02000000 01000000 00000000 03000000 02000000 00"), 2, 3),
		all(h(t, "40 00 00000000 00000000"), 2, 3), all(h(t, "40 01 02000000 00000000"), 2, 3),
		all(vec(t, "end_game_test_reason2"), 2, 3), all(codec.DestroyObject{ObjectID: sbID}.AppendTo(nil), 2, 3))...)
}

// [mission] stock_teams_reset_on_restart = false keeps every player's
// team across a restart (and tells everyone, as his TEAM message would);
// by default the stock quirk puts everyone on team 0.
func TestTeamsKeptAcrossRestart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config map[string]any
		want   int
	}{
		{"stock", nil, 0},
		{"kept", map[string]any{"stock_teams_reset_on_restart": false}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "team-deathmatch", tc.config, 0)
			g.Join(2, "A")
			p3 := g.Join(3, "B")
			g.Emit(teamMsg(p3, 1))
			g.EndGame(codec.EndTimeUp)
			g.Take()
			g.RestartGame()
			sent := g.Take()
			if p3.Team != tc.want {
				t.Fatalf("after the restart player 3 is on team %d, want %d", p3.Team, tc.want)
			}
			told := 0
			for _, s := range sent {
				if m, err := codec.DecodeTeam(s.Payload); err == nil && s.Payload[0] == codec.OpTeam && m.Player == 3 && m.Team == 1 {
					told++
				}
			}
			if wantTold := map[bool]int{true: 2, false: 0}[tc.want == 1]; told != wantTold {
				t.Fatalf("TEAM for player 3 sent %d times, want %d (one per player)", told, wantTold)
			}
		})
	}
}
