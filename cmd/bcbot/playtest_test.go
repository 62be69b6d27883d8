package main

import (
	"bytes"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// -chat lines: each once at join, or one every -chat-every, round and round.
func TestChatterRepeats(t *testing.T) {
	once := chatter{lines: []string{"!vote 1", "hello"}}
	var got []string
	for l, ok := once.say(); ok; l, ok = once.say() {
		got = append(got, l)
	}
	if strings.Join(got, "|") != "!vote 1|hello" {
		t.Fatalf("once: %q", got)
	}
	again := chatter{lines: []string{"a", "b"}, every: time.Second}
	got = nil
	for range 5 {
		l, ok := again.say()
		if !ok {
			t.Fatal("ran out")
		}
		got = append(got, l)
	}
	if strings.Join(got, "") != "ababa" {
		t.Fatalf("repeated: %q", got)
	}
	if _, ok := (&chatter{every: time.Second}).say(); ok {
		t.Fatal("no lines, yet something to say")
	}
}

// -move-to flies from -pos to the point and back at -speed, facing the
// way it goes.
func TestPatrolGoesThereAndBack(t *testing.T) {
	p := patrol{from: [3]float32{0, 0, 0}, to: [3]float32{100, 0, 0}, speed: 20}
	near := func(a, b [3]float32) bool {
		for i := range a {
			if math.Abs(float64(a[i]-b[i])) > 1e-3 {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		t        time.Duration
		pos, fwd [3]float32
	}{
		{0, [3]float32{0, 0, 0}, [3]float32{1, 0, 0}},
		{2500 * time.Millisecond, [3]float32{50, 0, 0}, [3]float32{1, 0, 0}},
		{7500 * time.Millisecond, [3]float32{50, 0, 0}, [3]float32{-1, 0, 0}},
		{10 * time.Second, [3]float32{0, 0, 0}, [3]float32{1, 0, 0}},
		{12500 * time.Millisecond, [3]float32{50, 0, 0}, [3]float32{1, 0, 0}},
	} {
		pos, fwd := p.at(tc.t)
		if !near(pos, tc.pos) || !near(fwd, tc.fwd) {
			t.Errorf("at %v: %v facing %v, want %v facing %v", tc.t, pos, fwd, tc.pos, tc.fwd)
		}
	}
	if pos, _ := (patrol{from: [3]float32{1, 2, 3}, to: [3]float32{1, 2, 3}, speed: 5}).at(time.Minute); pos != [3]float32{1, 2, 3} {
		t.Fatalf("a patrol to where it is moved: %v", pos)
	}
}

// The game's own messages are logged as a player would read them.
func TestGameMessagesLogged(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	sc := codec.ScoreChange{Killer: 2, KillerKills: 3, KillerScore: 1234, Victim: 3, VictimDeaths: 1,
		Extras: codec.AppendScoreEntry(nil, 4, 567)}
	for _, m := range [][]byte{
		codec.MissionInit{PlayerLimit: 8, System: 1, TimeLimit: codec.NoLimit, FragLimit: 5}.AppendTo(nil),
		sc.AppendTo(nil),
		codec.Score{Player: 2, Kills: 1, Deaths: 0, Score: 100}.AppendTo(nil),
		codec.ScoreInit{Player: 2, Kills: 1, Deaths: 0, Score: 100, Team: 1}.AppendTo(nil),
		codec.TeamScore{Team: 1, Kills: 4, Score: -20}.AppendTo(nil),
		codec.Team{Player: 3, Team: 0}.AppendTo(nil),
		codec.EndGame{Reason: codec.EndScoreLimitReached}.AppendTo(nil),
		codec.RestartGame{}.AppendTo(nil),
		codec.ObjectExploding{Op: codec.OpPythonEvent, Code: codec.EventObjectExploding, Dst: 0x3FFFFFFF, FiringPlayer: 2, Lifetime: 9.5}.AppendTo(nil),
		codec.Chat{Sender: 1, Text: []byte("[server] hello")}.AppendTo(nil),
	} {
		logMessage(log, m)
	}
	for _, want := range []string{
		`msg=MISSION_INIT system=1 player_limit=8 time_limit=none end_time=0 frag_limit=5`,
		`msg=SCORE_CHANGE killer=2 killer_kills=3 killer_score=1234 victim=3 victim_deaths=1 others=4:567`,
		`msg=SCORE player=2 kills=1 deaths=0 score=100`,
		`msg=SCORE_INIT player=2 kills=1 deaths=0 score=100 team=1`,
		`msg=TEAM_SCORE team=1 kills=4 score=-20`,
		`msg=TEAM player=3 team=0`,
		`msg=END_GAME reason=3 why="score limit reached"`,
		`msg=RESTART_GAME`,
		`msg="ship destroyed" ship=0x3fffffff killer=2 lifetime=9.5`,
		`msg=chat from=1 team=false text="[server] hello"`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %s\n%s", want, buf.String())
		}
	}
}
