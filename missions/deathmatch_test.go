package missions_test

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

func TestDeathmatchJoinSync(t *testing.T) {
	tests := []struct {
		name     string
		cfg      map[string]any
		gameTime time.Duration
		want     []byte
	}{
		{"no limits", nil, 5 * time.Second, vec(t, "mission_init_multi1_no_limits")},
		{"poseidon", map[string]any{"system": "Poseidon"}, 0, vec(t, "mission_init_poseidon_no_limits")},
		{"time and frag limit", map[string]any{"time_limit": int64(10), "frag_limit": int64(5)}, 42500 * time.Millisecond, vec(t, "mission_init_with_time_and_frag_limit")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := start(t, "deathmatch", tt.cfg, tt.gameTime)
			if m := g.Mission(); m.Script != "Multiplayer.Episode.Mission1.Mission1" || m.MapName != "DM" || g.TeamMode() {
				t.Fatalf("mission %+v team mode %v", m, g.TeamMode())
			}
			g.Join(2, "Alice")
			// The first joiner gets MISSION_INIT only: the tables were empty.
			g.expect(t, "first join", to(2, tt.want))
			g.Join(3, "Bob")
			g.expect(t, "second join", to(3, tt.want), to(3, vec(t, "score_join_sync_player2_zero")))
		})
	}
}

func TestDeathmatchScoreChange(t *testing.T) {
	tests := []struct {
		name string
		cfg  map[string]any
		run  func(t *testing.T, g *game, p2, p3, p4 *engine.Player) []byte
	}{
		{"collision, no killer", nil, func(t *testing.T, g *game, p2, _, _ *engine.Player) []byte {
			g.Kill(g.Spawn(p2, 1), 0, engine.CauseCollision)
			return vec(t, "score_change_collision_kill_no_killer")
		}},
		{"killer and one extra", nil, func(t *testing.T, g *game, p2, p3, p4 *engine.Player) []byte {
			g.Kill(g.Spawn(p2, 1), 3, engine.CauseWeapon) // 3: 1 kill
			g.Kill(g.Spawn(p2, 1), 0, engine.CauseCollision)
			g.Kill(g.Spawn(p2, 1), 0, engine.CauseSelfDestruct) // 2: 3 deaths
			g.Take()
			ship := g.Spawn(p2, 1)
			g.Spawn(p3, 6)
			g.Hit(3, ship, 12000, false)
			g.Hit(3, ship, 340, true)
			g.Hit(4, ship, 5670, true)
			g.Hit(0, ship, 99999, true) // AI damage never scores
			g.Kill(ship, 3, engine.CauseWeapon)
			return vec(t, "score_change_killer_and_one_extra")
		}},
		{"killer not in ledger (stock quirk)", nil, func(t *testing.T, g *game, p2, p3, p4 *engine.Player) []byte {
			for i := 0; i < 2; i++ {
				g.Kill(g.Spawn(p3, 1), 4, engine.CauseWeapon)
			}
			g.Kill(g.Spawn(p2, 1), 0, engine.CauseCollision)
			victim := g.Spawn(p4, 1)
			g.Hit(4, victim, 100, true) // 4 has 10 points now
			g.Kill(victim, 0, engine.CauseCollision)
			g.Take()
			g.Kill(g.Spawn(p2, 1), 4, engine.CauseCollision)
			return vec(t, "score_change_killer_not_in_ledger")
		}},
		{"killer not in ledger, quirk off", map[string]any{"stock_killer_score_quirk": false}, func(t *testing.T, g *game, p2, p3, p4 *engine.Player) []byte {
			victim := g.Spawn(p4, 1)
			g.Hit(4, victim, 100, true)
			g.Kill(victim, 0, engine.CauseCollision)
			g.Take()
			g.Kill(g.Spawn(p2, 1), 4, engine.CauseCollision)
			return h(t, "36 04000000 01000000 0a000000 02000000 01000000 00")
		}},
		{"own weapon kill counts in FFA", nil, func(t *testing.T, g *game, p2, _, _ *engine.Player) []byte {
			ship := g.Spawn(p2, 1)
			g.Hit(2, ship, 55, true)
			g.Kill(ship, 2, engine.CauseWeapon)
			return h(t, "36 02000000 01000000 05000000 02000000 01000000 00")
		}},
		{"negative share truncates toward zero", nil, func(t *testing.T, g *game, p2, p3, _ *engine.Player) []byte {
			a := g.Spawn(p2, 1)
			g.Hit(3, a, 57, true) // 3: 5 (5.7 truncated)
			g.Kill(a, 0, engine.CauseCollision)
			b := g.Spawn(p2, 1)
			g.Hit(3, b, -5, true) // 5 - 0.5 = 4.5 -> 4
			g.Take()
			g.Kill(b, 0, engine.CauseCollision)
			return h(t, "36 00000000 02000000 02000000 01 03000000 04000000")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := start(t, "deathmatch", tt.cfg, 0)
			p2, p3, p4 := g.Join(2, "A"), g.Join(3, "B"), g.Join(4, "C")
			g.Take()
			want := tt.run(t, g, p2, p3, p4)
			g.expect(t, "score change", all(want, 2, 3, 4)...)
		})
	}
}

func TestDeathmatchSkipWeaponKillOption(t *testing.T) {
	g := start(t, "deathmatch", map[string]any{"stock_skip_weapon_kill_score_change": true}, 0)
	p2, p3 := g.Join(2, "A"), g.Join(3, "B")
	g.Take()
	g.Kill(g.Spawn(p2, 1), 3, engine.CauseWeapon)
	g.expect(t, "weapon kill")
	g.Kill(g.Spawn(p2, 1), 0, engine.CauseSelfDestruct)
	g.expect(t, "self-destruct", all(h(t, "36 00000000 02000000 02000000 00"), 2, 3)...)
	if p3.Kills != 1 || p2.Deaths != 2 {
		t.Fatalf("tables not kept: kills %d deaths %d", p3.Kills, p2.Deaths)
	}
}

func TestDeathmatchScoreLimitAndRestart(t *testing.T) {
	g := start(t, "deathmatch", map[string]any{"frag_limit": int64(1), "restart_after": int64(5)}, 0)
	p2, p3 := g.Join(2, "A"), g.Join(3, "B")
	g.Take()
	ship := g.Spawn(p2, 1)
	g.Hit(3, ship, 100000, true) // 10000 points: the limit
	g.Kill(ship, 3, engine.CauseWeapon)
	g.expect(t, "limit", cat(
		all(h(t, "36 03000000 01000000 10270000 02000000 01000000 00"), 2, 3),
		all(vec(t, "end_game_score_limit"), 2, 3))...)
	if !g.GameOver() || g.Accepting() {
		t.Fatal("game not over")
	}
	if p3.Score != 10000 || p3.Kills != 1 || p2.Deaths != 1 {
		t.Fatalf("GameSpy numbers %+v %+v", p3, p2)
	}
	// No scoring after game over.
	g.Kill(g.Spawn(p3, 1), 2, engine.CauseWeapon)
	g.expect(t, "after game over")
	// The server restarts the game restart_after seconds later (the
	// mission slot's rule, server/missionslot.go): tables zeroed, keys kept.
	g.RestartGame()
	g.expect(t, "restart", all(vec(t, "restart_game_test"), 2, 3)...)
	if g.GameOver() || p3.Score != 0 || p3.Kills != 0 {
		t.Fatalf("after restart: over %v %+v", g.GameOver(), p3)
	}
	g.Join(4, "C")
	g.expect(t, "join after restart", to(4, h(t, "35 08 01 ff 01")),
		to(4, h(t, "37 02000000 00000000 00000000 00000000")),
		to(4, h(t, "37 03000000 00000000 00000000 00000000")))
}

func TestDeathmatchTimeLimit(t *testing.T) {
	g := start(t, "deathmatch", map[string]any{"time_limit": int64(5), "restart_after": int64(-1)}, 0)
	g.Join(2, "A")
	g.Take()
	g.Advance(299 * time.Second)
	g.expect(t, "before the limit")
	// A joiner late in the game is told the same end time.
	g.Join(3, "B")
	g.expect(t, "late join", to(3, h(t, "35 08 01 05 2c010000 ff")), to(3, h(t, "37 02000000 00000000 00000000 00000000")))
	g.Advance(time.Second)
	g.expect(t, "time up", all(vec(t, "end_game_reason_1"), 2, 3)...)
	g.Advance(time.Minute)
	g.expect(t, "no restart")
}

func TestDeathmatchScriptMessages(t *testing.T) {
	g := start(t, "deathmatch", nil, 0)
	p2 := g.Join(2, "A")
	g.Join(3, "B")
	g.Take()
	tests := []struct {
		name    string
		payload []byte
		handled bool
	}{
		{"client END_GAME ignored", vec(t, "end_game_from_client_mission5"), true},
		{"host-only SCORE_CHANGE dropped", vec(t, "score_change_test_with_killer"), true},
		{"host-only MISSION_INIT dropped", vec(t, "mission_init_multi1_no_limits"), true},
		{"TEAM has no handler in Mission1", vec(t, "team_message_team0_player2"), false},
		{"mod message left alone", []byte{0xCD, 1, 2}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := &engine.ScriptMessage{From: p2, Payload: tt.payload}
			g.Emit(ev)
			if ev.Handled != tt.handled {
				t.Fatalf("handled %v, want %v", ev.Handled, tt.handled)
			}
			g.expect(t, tt.name)
			if g.GameOver() {
				t.Fatal("a client ended the game")
			}
		})
	}
}

// Chat relay stays with the core: the mission sends nothing and does not
// cancel it.
func TestChatStaysWithCore(t *testing.T) {
	for _, mode := range []string{"deathmatch", "team-deathmatch", "fed-vs-nonfed", "defend-the-starbase"} {
		t.Run(mode, func(t *testing.T) {
			g := start(t, mode, nil, 0)
			p2 := g.Join(2, "A")
			g.Join(3, "B")
			g.Take()
			for _, team := range []bool{false, true} {
				payload := codec.Chat{Team: team, Sender: 2, Text: []byte("hello")}.AppendTo(nil)
				ev := &engine.Chat{From: p2, Team: team, Text: payload[7:], Payload: payload}
				g.Emit(ev)
				if ev.Cancel {
					t.Fatal("stock mission cancelled chat")
				}
				g.expect(t, "chat")
			}
		})
	}
}
