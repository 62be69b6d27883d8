package missiontest

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/missions"
)

func TestWorldPlaysADeathmatchKill(t *testing.T) {
	w, err := NewMatch(Options{Mode: "deathmatch", FS: missions.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Join("Bob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Spawn(5, [3]float32{0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Spawn(1, [3]float32{0, 40, 0}); err != nil {
		t.Fatal(err)
	}
	shots := 0
	for ; shots < 500 && b.alive(); shots++ {
		if _, err := a.Fire(b, bot.Phasers); err != nil {
			t.Fatal(err)
		}
		w.Advance(600 * time.Millisecond)
	}
	var sc *codec.ScoreChange
	for _, m := range a.Take() {
		if m[0] == codec.OpScoreChange {
			s, _ := codec.DecodeScoreChange(m)
			sc = &s
		}
	}
	if sc == nil || sc.Killer != int32(a.ID()) || sc.Victim != int32(b.ID()) {
		t.Fatalf("after %d shots: %+v\n%s", shots, sc, w.Logs())
	}
	t.Logf("killed after %d shots", shots)
}
