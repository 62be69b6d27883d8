package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/store"
)

// With [store] path set, every match is recorded beside the database
// (recording is on by default), the admin API lists and serves it, the
// match's players are in the career statistics, and [record] enabled =
// false turns recording off.
func TestMatchesRecordedByDefault(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	a.join(t, "Bob")
	spawn(t, alice, 1, codec.FirstObjectID(int(alice.Settings().Slot)), [3]float32{-120, 40, 0})
	a.do(t, func(g *engine.Game) {
		for i, p := range g.Players() {
			g.SetScore(p, 2-i, i, 20000-10000*i)
		}
	})
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	for _, s := range a.s.op.rec.sinks {
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.op.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var list []record.Entry
	if code := a.call(t, "GET", "/api/v1/replays", testToken, nil, &list); code != 200 || len(list) != 1 {
		t.Fatalf("replays: %d %+v", code, list)
	}
	if e := list[0]; !e.Finished || e.Reason != "ended_by_admin" || e.Mode != "deathmatch" {
		t.Fatalf("recording %+v", e)
	}
	var sum record.Summary
	if code := a.call(t, "GET", "/api/v1/replays/"+list[0].ID, testToken, nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	if len(sum.Players) != 2 || sum.Players[0].Name != "Alice" || sum.Players[0].Score != 20000 || len(sum.Ships) != 1 {
		t.Fatalf("summary players %+v ships %+v", sum.Players, sum.Ships)
	}
	if code := a.call(t, "GET", "/api/v1/replays/..%2Fbcserver.db", testToken, nil, nil); code != 404 {
		t.Fatalf("a path outside the folder answered %d", code)
	}
	if code := a.call(t, "GET", "/api/v1/replays", "", nil, nil); code != 401 {
		t.Fatalf("replays without the token: %d", code)
	}
	var top []store.Career
	if code := a.call(t, "GET", "/api/v1/leaderboard?by=score", testToken, nil, &top); code != 200 || len(top) != 2 || top[0].Identity != "alice" || top[0].Kills != 2 {
		t.Fatalf("leaderboard: %d %+v", code, top)
	}
	var c store.Career
	if code := a.call(t, "GET", "/api/v1/career/Bob", testToken, nil, &c); code != 200 || c.Matches != 1 || c.Deaths != 1 {
		t.Fatalf("career: %d %+v", code, c)
	}

	off := serveAdmin(t, func(uc *UserConfig) { uc.Record.Enabled = false })
	if code := off.call(t, "GET", "/api/v1/replays", testToken, nil, nil); code != 501 {
		t.Fatalf("replays with recording off: %d", code)
	}
}

// `bcserver replay FILE` prints the score table and the kills; -json
// writes the header, every record and the footer as JSON lines.
func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	fs := record.NewFileSink(arch, record.FileSinkOptions{})
	if _, err := replaytest.Play(fs); err != nil {
		t.Fatal(err)
	}
	fs.Close()
	list, _ := arch.List()
	if len(list) != 1 {
		t.Fatalf("%d recordings", len(list))
	}
	file := filepath.Join(dir, list[0].ID+record.Ext)
	var out, errb bytes.Buffer
	if code := run([]string{"replay", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"survival on Multi1", "ended: its_just_over", "Alice", "kills (6):", "Raider 1-1 destroyed by Alice (phaser)", "Bob: gg"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"replay", "-json", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	kinds := map[string]int{}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		kinds[m["kind"].(string)]++
	}
	if kinds["header"] != 1 || kinds["footer"] != 1 || kinds["death"] != 6 || kinds["motion"] == 0 || kinds["chat"] < 3 {
		t.Fatalf("kinds %v", kinds)
	}
	if !strings.HasPrefix(lines[0], `{"blocks":`) || !strings.Contains(lines[len(lines)-1], `"footer"`) {
		t.Fatalf("first %s, last %s", lines[0], lines[len(lines)-1])
	}
	if code := run([]string{"replay", filepath.Join(dir, "missing.bcr")}, &out, &errb); code != 1 {
		t.Fatalf("a missing file: exit %d", code)
	}
}
