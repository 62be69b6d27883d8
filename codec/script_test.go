package codec

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

// Every entry of missions.json decodes to its documented fields, and the
// message built from those fields is the vector byte for byte.
func TestMissionVectors(t *testing.T) {
	var vs []gameVector
	vectors.MustLoad(t, "missions.json", &vs)
	extras := func(pairs ...int32) []byte {
		var b []byte
		for i := 0; i < len(pairs); i += 2 {
			b = AppendScoreEntry(b, pairs[i], pairs[i+1])
		}
		return b
	}
	chat := func(p []byte) (appender, error) { return DecodeChat(p) }
	missionInit := func(p []byte) (appender, error) { return DecodeMissionInit(p) }
	scoreChange := func(p []byte) (appender, error) { return DecodeScoreChange(p) }
	score := func(p []byte) (appender, error) { return DecodeScore(p) }
	endGame := func(p []byte) (appender, error) { return DecodeEndGame(p) }
	restart := func(p []byte) (appender, error) { return DecodeRestartGame(p) }
	scoreInit := func(p []byte) (appender, error) { return DecodeScoreInit(p) }
	teamScore := func(p []byte) (appender, error) { return DecodeTeamScore(p) }
	team := func(p []byte) (appender, error) { return DecodeTeam(p) }
	want := map[string]struct {
		dec func([]byte) (appender, error)
		msg appender
	}{
		"mission_init_multi1_no_limits":         {missionInit, MissionInit{8, 1, NoLimit, 0, NoLimit}},
		"mission_init_poseidon_no_limits":       {missionInit, MissionInit{8, 9, NoLimit, 0, NoLimit}},
		"mission_init_with_time_and_frag_limit": {missionInit, MissionInit{8, 1, 10, 642, 5}},
		"mission_init_mission5":                 {missionInit, MissionInit{6, 4, 20, 1230, NoLimit}},
		"score_change_collision_kill_no_killer": {scoreChange, ScoreChange{Victim: 2, VictimDeaths: 1}},
		"score_change_test_with_killer":         {scoreChange, ScoreChange{Killer: 3, KillerKills: 4, KillerScore: 11, Victim: 2, VictimDeaths: 5}},
		"score_change_test_environmental":       {scoreChange, ScoreChange{Victim: 2, VictimDeaths: 6}},
		"score_change_test_two_extras": {scoreChange, ScoreChange{Killer: 3, KillerKills: 8, KillerScore: 20, Victim: 2, VictimDeaths: 7,
			Extras: extras(2, 12, 4, 9)}},
		"score_change_killer_and_one_extra": {scoreChange, ScoreChange{Killer: 3, KillerKills: 2, KillerScore: 1234, Victim: 2, VictimDeaths: 4,
			Extras: extras(4, 567)}},
		"score_change_mission5_starbase_killed": {scoreChange, ScoreChange{Killer: 3, KillerKills: 5, KillerScore: 1507, Victim: 0, VictimDeaths: 1,
			Extras: extras(4, 88)}},
		"score_change_killer_not_in_ledger":  {scoreChange, ScoreChange{Killer: 4, KillerKills: 3, KillerScore: 0, Victim: 2, VictimDeaths: 2}},
		"score_join_sync_player2_zero":       {score, Score{2, 0, 0, 0}},
		"score_test_2_3_1_7":                 {score, Score{2, 3, 1, 7}},
		"score_init_test":                    {scoreInit, ScoreInit{5, 2, 1, 17, 1}},
		"score_init_no_team":                 {scoreInit, ScoreInit{4, 0, 0, 0, InvalidTeam}},
		"score_init_team0":                   {scoreInit, ScoreInit{2, 3, 1, 1834, 0}},
		"team_score_test":                    {teamScore, TeamScore{0, 12, 4200}},
		"team_score_negative":                {teamScore, TeamScore{1, 7, -120}},
		"restart_game_test":                  {restart, RestartGame{}},
		"end_game_test_reason2":              {endGame, EndGame{EndNumFragsReached}},
		"end_game_score_limit":               {endGame, EndGame{EndScoreLimitReached}},
		"end_game_reason_0":                  {endGame, EndGame{EndItsJustOver}},
		"end_game_reason_1":                  {endGame, EndGame{EndTimeUp}},
		"end_game_reason_4":                  {endGame, EndGame{EndStarbaseDead}},
		"end_game_reason_5":                  {endGame, EndGame{EndBorgDead}},
		"end_game_reason_6":                  {endGame, EndGame{EndEnterpriseDead}},
		"end_game_from_client_mission5":      {endGame, EndGame{EndStarbaseDead}},
		"team_message_test":                  {team, Team{3, 1}},
		"team_message_team0_player2":         {team, Team{2, 0}},
		"chat_test_gg_seed_layout":           {chat, Chat{Sender: 0, Text: []byte("gg")}},
		"team_chat_test_help_me_seed_layout": {chat, Chat{Team: true, Sender: 3, Text: []byte("help me")}},
		"chat_hello_from_player2":            {chat, Chat{Sender: 2, Text: []byte("hello")}},
		"team_chat_flank_it":                 {chat, Chat{Team: true, Sender: 3, Text: []byte("flank it")}},
	}
	seen := 0
	for _, v := range vs {
		w, ok := want[v.Name]
		if !ok {
			t.Errorf("missions.json/%s has no expectation here", v.Name)
			continue
		}
		seen++
		p := vectors.MustHex(t, v.PayloadHex)
		got, err := w.dec(p)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		// Compare through the encoder: both sides must give the vector.
		if enc := got.AppendTo(nil); !bytes.Equal(enc, p) {
			t.Errorf("%s: decoded value re-encodes to %X", v.Name, enc)
		}
		if enc := w.msg.AppendTo(nil); !bytes.Equal(enc, p) {
			t.Errorf("%s: built %X\nwant %X", v.Name, enc, p)
		}
		if !sameScript(got, w.msg) {
			t.Errorf("%s: decoded %+v, want %+v", v.Name, got, w.msg)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d expectations matched a vector", seen, len(want))
	}
}

// sameScript compares two script messages field by field (slices by
// content).
func sameScript(a, b appender) bool {
	switch x := a.(type) {
	case Chat:
		y := b.(Chat)
		return x.Team == y.Team && x.Sender == y.Sender && bytes.Equal(x.Text, y.Text)
	case ScoreChange:
		y := b.(ScoreChange)
		return x.Killer == y.Killer && x.KillerKills == y.KillerKills && x.KillerScore == y.KillerScore &&
			x.Victim == y.Victim && x.VictimDeaths == y.VictimDeaths && bytes.Equal(x.Extras, y.Extras)
	}
	return a == b
}

func TestScoreChangeSimulationVectors(t *testing.T) {
	all := gameVectors(t)
	for _, key := range []string{"session.json/score_change_environment_kill", "simulation.json/score_change_environment_collision_kill"} {
		m, err := DecodeScoreChange(vec(t, all, key))
		if err != nil || m.Killer != 0 || m.Victim != 2 || m.VictimDeaths != 1 || m.NumExtras() != 0 {
			t.Errorf("%s: %+v %v", key, m, err)
		}
	}
	m, err := DecodeScoreChange(mustHex(t, "36 03000000 08000000 14000000 02000000 07000000 02 02000000 0c000000 04000000 09000000"))
	if err != nil || m.NumExtras() != 2 {
		t.Fatalf("%+v %v", m, err)
	}
	if p, s := m.Extra(1); p != 4 || s != 9 {
		t.Errorf("extra 1 = %d, %d", p, s)
	}
	// Stock receivers skip the score after an id-0 entry, so the decoder
	// refuses one and the encoder leaves it out.
	if _, err := DecodeScoreChange(mustHex(t, "36 00000000 02000000 01000000 01 00000000 05000000")); !errors.Is(err, ErrMalformed) {
		t.Errorf("id-0 extra: %v", err)
	}
	withZero := ScoreChange{Victim: 2, VictimDeaths: 1, Extras: AppendScoreEntry(AppendScoreEntry(nil, 0, 5), 4, 9)}
	if got := withZero.AppendTo(nil); !bytes.Equal(got, mustHex(t, "36 00000000 02000000 01000000 01 04000000 09000000")) {
		t.Errorf("id-0 extra encoded %X", got)
	}
	// A count larger than the bytes left.
	if _, err := DecodeScoreChange(mustHex(t, "36 00000000 02000000 01000000 02 04000000 09000000")); !errors.Is(err, ErrShort) {
		t.Errorf("hostile count: %v", err)
	}
}

func TestChatLimits(t *testing.T) {
	if MaxChatText != 249 {
		t.Fatalf("MaxChatText = %d", MaxChatText)
	}
	// The decoder accepts texts longer than a stock client can send; the
	// relay applies MaxChatText.
	long := Chat{Sender: 2, Text: []byte(strings.Repeat("x", 1000))}
	m, err := DecodeChat(long.AppendTo(nil))
	if err != nil || len(m.Text) != 1000 {
		t.Fatalf("long chat %v", err)
	}
	huge := Chat{Text: make([]byte, 70000)}
	if p := huge.AppendTo(nil); len(p) != 7+65535 {
		t.Errorf("huge chat cut to %d", len(p))
	}
	for _, bad := range []string{"2E 02000000 0000", "2C 02000000 0500 6865", "2C 02000000 0000 00", "2C 0200"} {
		if _, err := DecodeChat(mustHex(t, bad)); err == nil || !knownErr(err) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// MissionInit with a time limit needs the end time.
	if _, err := DecodeMissionInit(mustHex(t, "35 08 01 0A 05")); !errors.Is(err, ErrShort) {
		t.Errorf("mission init without end time: %v", err)
	}
}

func BenchmarkDecodeChat(b *testing.B) {
	p := (Chat{Sender: 2, Text: []byte("hello, this is a chat line of ordinary length")}).AppendTo(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if _, err := DecodeChat(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeChat(b *testing.B) {
	m := Chat{Sender: 2, Text: []byte("hello, this is a chat line of ordinary length")}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = m.AppendTo(buf[:0])
	}
}
