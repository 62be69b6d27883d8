package missiontest

import (
	"os"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/plugins/record"
)

// recorder records a test game's matches as the server does.
type recorder struct {
	dir  string
	arch *record.Archive
	sink *record.FileSink
}

func (w *Match) startRecording(mode string) error {
	dir, err := os.MkdirTemp("", "bcserver-missiontest-")
	if err != nil {
		return err
	}
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: dir})
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	r := &recorder{dir: dir, arch: arch, sink: record.NewFileSink(arch, record.FileSinkOptions{Queue: 256})}
	w.rec = r
	return w.Game.AddPlugin(record.NewCapture(record.CaptureOptions{Mode: func() string { return mode }, Writer: "test"}, r.sink))
}

func (w *Match) stopRecording() {
	if r := w.rec; r != nil {
		w.rec = nil
		r.sink.Close()
		r.arch.Close()
		os.RemoveAll(r.dir)
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
		if o := s.Footer.Outcome; o != nil {
			if o.Team != nil {
				t.RawSetString("winner_team", glua.LNumber(*o.Team))
			}
			if o.Player != 0 {
				t.RawSetString("winner", glua.LNumber(o.Player))
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
