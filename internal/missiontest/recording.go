package missiontest

import (
	"context"
	"os"
	"path/filepath"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/stats"
	"github.com/bcserver/bcserver/plugins/store"
)

// recorder records a test game's matches as a server with [store] path
// does: the recordings, the match history and the careers.
type recorder struct {
	dir  string
	arch *record.Archive
	sink *record.FileSink
	st   *store.Store
}

func (w *Match) startRecording(mode string) error {
	dir, err := os.MkdirTemp("", "bcserver-missiontest-")
	if err != nil {
		return err
	}
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: filepath.Join(dir, "recordings")})
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	st, err := w.openStore(dir)
	if err != nil {
		arch.Close()
		os.RemoveAll(dir)
		return err
	}
	r := &recorder{dir: dir, arch: arch, sink: record.NewFileSink(arch, record.FileSinkOptions{Queue: 256}), st: st}
	w.rec = r
	modeOf := func() string { return mode }
	if err := w.Game.AddPlugin(store.NewRecorder(st, store.RecorderOptions{Mode: modeOf, Server: "test"})); err != nil {
		return err
	}
	// Careers are read at once by bc.stats (careers.go), not in the
	// background: the tally has no Post.
	careers := stats.New(stats.Options{Store: st})
	return w.Game.AddPlugin(capture.NewCapture(capture.CaptureOptions{Mode: modeOf, Writer: "test"}, r.sink, careers))
}

func (w *Match) stopRecording() {
	if r := w.rec; r != nil {
		w.rec = nil
		r.sink.Close()
		r.arch.Close()
		r.st.Close()
		os.RemoveAll(r.dir)
	}
}

// Matches returns the match history the test game recorded, newest
// first (nil without Record).
func (w *Match) Matches() ([]history.Match, error) {
	r := w.rec
	if r == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := r.st.Flush(ctx); err != nil {
		return nil, err
	}
	return r.st.Matches(ctx, 500, 0)
}

// matchesTable is g:matches(): the history as the admin API gives it.
func matchesTable(L *glua.LState, w *Match) glua.LValue {
	ms, err := w.Matches()
	if err != nil {
		L.RaiseError("matches: %v", err)
	}
	out := L.NewTable()
	for _, m := range ms {
		t := L.NewTable()
		t.RawSetString("mode", glua.LString(m.Mode))
		t.RawSetString("map", glua.LString(m.Map))
		t.RawSetString("reason", glua.LString(m.Reason))
		t.RawSetString("duration", glua.LNumber(m.Ended.Sub(m.Started).Seconds()))
		outcomeFields(L, t, m.Outcome)
		players := L.NewTable()
		for _, p := range m.Players {
			pt := L.NewTable()
			pt.RawSetString("name", glua.LString(p.Name))
			pt.RawSetString("team", glua.LNumber(p.Team))
			pt.RawSetString("kills", glua.LNumber(p.Kills))
			pt.RawSetString("deaths", glua.LNumber(p.Deaths))
			pt.RawSetString("score", glua.LNumber(p.Score))
			players.Append(pt)
		}
		t.RawSetString("players", players)
		out.Append(t)
	}
	return out
}

// outcomeFields sets the outcome of a match on t: winner_team,
// winner_name (and winner, the player id, when known), why, teams.
func outcomeFields(L *glua.LState, t *glua.LTable, o *engine.Outcome) {
	if o == nil {
		return
	}
	if o.Team != nil {
		t.RawSetString("winner_team", glua.LNumber(*o.Team))
	}
	if o.Player != 0 {
		t.RawSetString("winner", glua.LNumber(o.Player))
	}
	if o.PlayerName != "" {
		t.RawSetString("winner_name", glua.LString(o.PlayerName))
	}
	if o.Why != "" {
		t.RawSetString("why", glua.LString(o.Why))
	}
	if len(o.Teams) > 0 {
		teams := L.NewTable()
		for _, ts := range o.Teams {
			row := L.NewTable()
			row.RawSetString("kills", glua.LNumber(ts.Kills))
			row.RawSetString("score", glua.LNumber(ts.Score))
			teams.RawSetInt(ts.Team, row)
		}
		t.RawSetString("teams", teams)
	}
}

// Recording reads back the last match recorded to its end (nil when none
// has ended yet, or the game records nothing).
func (w *Match) Recording() (*record.Summary, error) {
	r := w.rec
	if r == nil {
		return nil, nil
	}
	if err := r.sink.Flush(); err != nil {
		return nil, err
	}
	list, err := r.arch.List()
	if err != nil {
		return nil, err
	}
	for _, e := range list {
		if e.Finished {
			return r.arch.Summary(e.ID)
		}
	}
	return nil, nil
}

// recordingTable is g:recording(): the last finished match as read back
// from its file, or nil.
func recordingTable(L *glua.LState, w *Match) glua.LValue {
	s, err := w.Recording()
	if err != nil {
		L.RaiseError("recording: %v", err)
	}
	if s == nil {
		return glua.LNil
	}
	t := L.NewTable()
	t.RawSetString("mode", glua.LString(s.Header.Mode))
	t.RawSetString("map", glua.LString(s.Header.Map))
	t.RawSetString("duration", glua.LNumber(float64(s.DurationMS)/1000))
	if s.Footer != nil {
		t.RawSetString("reason", glua.LString(s.Footer.Reason))
		outcomeFields(L, t, s.Footer.Outcome)
	}
	players := L.NewTable()
	for _, p := range s.Players {
		pt := L.NewTable()
		pt.RawSetString("id", glua.LNumber(p.ID))
		pt.RawSetString("name", glua.LString(p.Name))
		pt.RawSetString("kills", glua.LNumber(p.Kills))
		pt.RawSetString("deaths", glua.LNumber(p.Deaths))
		pt.RawSetString("score", glua.LNumber(p.Score))
		if p.Team >= 0 {
			pt.RawSetString("team", glua.LNumber(p.Team))
		}
		pt.RawSetString("left", glua.LBool(p.Left))
		players.Append(pt)
	}
	t.RawSetString("players", players)
	kills := L.NewTable()
	for _, k := range s.Kills {
		kt := L.NewTable()
		kt.RawSetString("t", glua.LNumber(float64(k.T)/1000))
		kt.RawSetString("victim", glua.LString(k.Victim))
		kt.RawSetString("victim_id", glua.LNumber(k.VictimID))
		kt.RawSetString("victim_ship", glua.LNumber(k.VictimShip))
		kt.RawSetString("victim_host", glua.LBool(k.VictimIsHost))
		kt.RawSetString("killer", glua.LString(k.Killer))
		kt.RawSetString("killer_id", glua.LNumber(k.KillerID))
		kt.RawSetString("cause", glua.LString(k.Cause))
		kt.RawSetString("weapon", glua.LString(k.Weapon))
		kills.Append(kt)
	}
	t.RawSetString("kills", kills)
	chat := L.NewTable()
	for _, c := range s.Chat {
		ct := L.NewTable()
		ct.RawSetString("t", glua.LNumber(float64(c.T)/1000))
		ct.RawSetString("player", glua.LNumber(c.Player))
		ct.RawSetString("name", glua.LString(c.Name))
		ct.RawSetString("text", glua.LString(c.Text))
		ct.RawSetString("team", glua.LBool(c.Team))
		chat.Append(ct)
	}
	t.RawSetString("chat", chat)
	return t
}
