package record_test

import (
	"testing"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/record"
)

// A match of the survival mission (Lua) played by scripted players on a
// fake clock, with a host ship, kills of three kinds and chat, is
// recorded; reading the recording back gives the score table and the kill
// list exactly as the engine reported them.
func TestMatchRecordedExactly(t *testing.T) {
	a, err := record.NewArchive(record.ArchiveOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	fs := record.NewFileSink(a, record.FileSinkOptions{})
	m, err := replaytest.Play(fs)
	if err != nil {
		t.Fatal(err)
	}
	fs.Close()
	list, err := a.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("%d recordings, want 1: %+v", len(list), list)
	}
	e := list[0]
	if !e.Finished || e.Reason != "its_just_over" || e.Mode != "survival" || !e.Started.Equal(m.Started) {
		t.Fatalf("entry %+v (started %v)", e, m.Started)
	}
	// The outcome the mission gave with END_GAME (co-op: no winner).
	if e.Outcome == nil || e.Why != "every ship lost on wave 2" || e.Team != nil || e.Player != 0 {
		t.Fatalf("outcome %+v", e.Outcome)
	}
	s, err := a.Summary(e.ID)
	if err != nil {
		t.Fatal(err)
	}

	// The score table.
	if len(s.Players) != len(m.Lines) {
		t.Fatalf("players %d, want %d", len(s.Players), len(m.Lines))
	}
	byID := map[byte]*capture.PlayerState{}
	for _, p := range s.Players {
		byID[p.ID] = p
	}
	for _, l := range m.Lines {
		p := byID[l.ID]
		if p == nil || p.Name != l.Name || int(p.Team) != l.Team || int(p.Kills) != l.Kills || int(p.Deaths) != l.Deaths || int(p.Score) != l.Score {
			t.Errorf("player %d: recorded %+v, game %+v", l.ID, p, l)
		}
	}
	if byID[2] == nil || byID[2].Kills == 0 || byID[2].Score == 0 {
		t.Errorf("Alice's line %+v: the match should have given her kills and score", byID[2])
	}

	// The kill list.
	if len(s.Kills) != len(m.Kills) || len(m.Kills) != 6 {
		t.Fatalf("kills: recorded %d, game %d (want 6)\n%+v\n%+v", len(s.Kills), len(m.Kills), s.Kills, m.Kills)
	}
	for i, k := range m.Kills {
		r := s.Kills[i]
		if r.T != k.T || r.VictimShip != k.VictimShip || r.KillerShip != k.KillerShip || r.KillerID != k.KillerID || r.Cause != k.Cause {
			t.Errorf("kill %d: recorded %+v, game %+v", i, r, k)
		}
	}
	want := []struct{ victim, killer, cause string }{
		{"Bob", "Raider 1-1", "weapon"},
		{"Raider 1-1", "Alice", "weapon"},
		{"Bob", "Alice", "weapon"},
		{"Bob", "", "self_destruct"},
		{"Alice", "", "self_destruct"},
		{"Bob", "", "self_destruct"},
	}
	for i, w := range want {
		k := s.Kills[i]
		// The weapon: as the host's model named it (the raider kills with
		// its beams or its bolts, whichever lands the last hit).
		weapon := m.Kills[i].Weapon
		if weapon == "self_destruct" {
			weapon = ""
		}
		if k.Victim != w.victim || k.Killer != w.killer || k.Cause != w.cause || k.Weapon != weapon || w.cause == "weapon" && weapon == "" {
			t.Errorf("kill %d %+v: want %+v, weapon %q", i, k, w, weapon)
		}
	}
	if s.Kills[1].Weapon != "phaser" || s.Kills[2].Weapon != "phaser" {
		t.Errorf("Alice's kills %q and %q, want phaser", s.Kills[1].Weapon, s.Kills[2].Weapon)
	}
	if k := s.Kills[1]; k.VictimShip != m.Raider || !k.VictimIsHost {
		t.Errorf("kill 1 %+v: want the raider %#x, a host ship", k, m.Raider)
	}

	// Chat, host ship, fire.
	var said []string
	host := 0
	for _, c := range s.Chat {
		if c.Player == 1 {
			host++
			continue
		}
		said = append(said, c.Text)
	}
	if len(said) != len(m.Chat) {
		t.Fatalf("chat %q, want %q", said, m.Chat)
	}
	for i := range said {
		if said[i] != m.Chat[i] {
			t.Errorf("chat %d: %q, want %q", i, said[i], m.Chat[i])
		}
	}
	if host == 0 {
		t.Error("no mission chat (the wave announcements) recorded")
	}
	var raider bool
	for _, sh := range s.Ships {
		if sh.ID == m.Raider && sh.Host && sh.Class != "" {
			raider = true
		}
	}
	if !raider {
		t.Errorf("the raider is not among the ships: %+v", s.Ships)
	}
	f, err := a.Open(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fires := map[bool]int{}
	if err := f.All(func(r *capture.Record) bool {
		if r.Kind == capture.KindFire {
			fires[r.Player == 0]++
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if fires[false] == 0 || fires[true] == 0 {
		t.Errorf("fire records: players %d, host ship %d; want both", fires[false], fires[true])
	}
	if len(f.Blocks) < 5 {
		t.Errorf("%d blocks: want a keyframe every 10 s of a %d ms match", len(f.Blocks), f.Duration())
	}
}
