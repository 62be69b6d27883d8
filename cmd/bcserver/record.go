package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/stats"
)

// RecordSection is [record]: a recording of every match (plugins/record,
// docs/replay-format.md).
type RecordSection struct {
	// Enabled turns recording on; it records when [store] path or dir is
	// set.
	Enabled bool `toml:"enabled"`
	// Dir holds the recordings; empty means "recordings" beside the
	// store's file.
	Dir      string   `toml:"dir"`
	KeepDays int      `toml:"keep_days"`
	MaxFile  ByteSize `toml:"max_file"`
	MaxTotal ByteSize `toml:"max_total"`
	Keyframe Duration `toml:"keyframe"`
}

// SpectateSection is [spectate]: the public, delayed, read-only view of
// the games (plugins/spectate).
type SpectateSection struct {
	Listen     string   `toml:"listen"`
	Delay      Duration `toml:"delay"`
	MaxViewers int      `toml:"max_viewers"`
	PerAddress int      `toml:"per_address"`
	Rate       float64  `toml:"rate"`
	Burst      int      `toml:"burst"`
}

// recordDir is where recordings go, "" for nowhere.
func (c UserConfig) recordDir() string {
	if !c.Record.Enabled {
		return ""
	}
	if c.Record.Dir != "" {
		return c.resolve(c.Record.Dir)
	}
	if c.Store.Path == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(c.resolve(c.Store.Path)), "recordings")
}

// checkRecord validates [record] and [spectate].
func (c UserConfig) checkRecord() error {
	var errs []error
	r := c.Record
	if r.KeepDays < 0 || r.MaxFile < 0 || r.MaxTotal < 0 {
		errs = append(errs, errors.New("record: keep_days, max_file and max_total must not be negative"))
	}
	if r.MaxFile > 0 && r.MaxFile < 64<<10 {
		errs = append(errs, errors.New("record.max_file: at least 64KiB"))
	}
	if k := time.Duration(r.Keyframe); k != 0 && (k < time.Second || k > time.Minute) {
		errs = append(errs, fmt.Errorf("record.keyframe %v: want 1s..1m", k))
	}
	s := c.Spectate
	if s.Listen != "" {
		if _, _, err := net.SplitHostPort(s.Listen); err != nil {
			errs = append(errs, fmt.Errorf("spectate.listen %q: want host:port", s.Listen))
		}
		if s.Listen == c.Admin.Listen {
			errs = append(errs, errors.New("spectate.listen: the same address as admin.listen; the spectator page is public and has its own"))
		}
	}
	if d := time.Duration(s.Delay); d < 0 || d > time.Hour {
		errs = append(errs, fmt.Errorf("spectate.delay %v: want 0..1h", d))
	}
	if s.MaxViewers < 0 || s.PerAddress < 0 || s.Rate < 0 || s.Burst < 0 {
		errs = append(errs, errors.New("spectate: max_viewers, per_address, rate and burst must not be negative"))
	}
	return errors.Join(errs...)
}

// recording is what [record], [spectate] and the career statistics add
// to the games of a process.
type recording struct {
	archive    *record.Archive
	sinks      []*record.FileSink
	spectators []*spectate.Spectator
	spectate   *spectate.Server
	http       *http.Server
	httpDone   chan error
	trackers   []*stats.Tracker
}

// careers lets each game's missions find their game's career tracker
// (bc.stats): the missions start before the store opens.
var careers sync.Map // *engine.Game -> *stats.Tracker

func careerLookup(g *engine.Game) func(string) (map[string]any, bool) {
	return func(name string) (map[string]any, bool) {
		if t, ok := careers.Load(g); ok {
			return t.(*stats.Tracker).Lookup(name)
		}
		return nil, false
	}
}

// startRecording adds a capture to every game with its sinks (the
// recording files, the spectator view, the career statistics) and opens
// the spectator listener.
func (op *operator) startRecording(uc UserConfig, units []*gameUnit, log *slog.Logger) error {
	rec := &recording{}
	op.rec = rec
	if dir := uc.recordDir(); dir != "" {
		a, err := record.NewArchive(record.ArchiveOptions{Dir: dir, MaxFileBytes: int64(uc.Record.MaxFile), MaxTotalBytes: int64(uc.Record.MaxTotal),
			Keep: time.Duration(uc.Record.KeepDays) * 24 * time.Hour, Logger: log})
		if err != nil {
			return err
		}
		rec.archive = a
		a.Sweep("")
		log.Info("recording every match", "component", "plugin/record", "dir", dir)
	}
	for _, u := range units {
		g := u.srv.Game()
		co := record.CaptureOptions{Mode: u.missions.Mode, Writer: versionString(), Keyframe: time.Duration(uc.Record.Keyframe), Logger: log}
		if len(units) > 1 {
			co.Game = u.label // the file names say which game
		}
		capture := record.NewCapture(co)
		n := 0
		if rec.archive != nil {
			fs := record.NewFileSink(rec.archive, record.FileSinkOptions{Logger: log})
			rec.sinks = append(rec.sinks, fs)
			u.metrics.SetRecord(func() (uint64, uint64) { return fs.Stats.DroppedBlocks.Load(), fs.Stats.DroppedRecords.Load() })
			capture.AddSink(fs)
			n++
		}
		if uc.Spectate.Listen != "" {
			delay := time.Duration(uc.Spectate.Delay)
			sp := spectate.NewSpectator(u.label, delay)
			rec.spectators = append(rec.spectators, sp)
			capture.AddSink(sp)
			n++
		}
		if op.store != nil {
			t := stats.New(stats.Options{Store: op.store, Post: g.Post, Logger: log})
			rec.trackers = append(rec.trackers, t)
			careers.Store(g, t)
			capture.AddSink(t)
			n++
		}
		if n == 0 {
			continue
		}
		if err := g.AddPlugin(capture); err != nil {
			return err
		}
		prev := u.missions.cut
		u.missions.cut = func(reason string) {
			if prev != nil {
				prev(reason)
			}
			capture.Cut(reason)
		}
		u.capture = capture
	}
	if uc.Spectate.Listen != "" {
		s := uc.Spectate
		rec.spectate = spectate.New(spectate.Options{Spectators: rec.spectators, MaxViewers: s.MaxViewers, PerAddress: s.PerAddress,
			Rate: s.Rate, Burst: s.Burst, Logger: log})
		ln, err := net.Listen("tcp", s.Listen)
		if err != nil {
			return fmt.Errorf("plugin/spectate: %w", err)
		}
		rec.http = &http.Server{Handler: rec.spectate, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
		rec.httpDone = make(chan error, 1)
		go func() { rec.httpDone <- rec.http.Serve(ln) }()
		log.Info("spectator page listening", "component", "plugin/spectate", "url", "http://"+ln.Addr().String()+"/", "delay", time.Duration(s.Delay))
	}
	return nil
}

// adminOptions adds the replays, the career statistics and the cut of the
// recording to a game's admin options.
func (op *operator) adminOptions(u *gameUnit, o *admin.Options) {
	rec := op.rec
	if rec == nil {
		return
	}
	if rec.archive != nil {
		o.Replays = rec.archive.API()
	}
	if op.store != nil {
		o.Career = stats.API(op.store)
	}
	if u.capture != nil {
		prev := o.Cut
		c := u.capture
		o.Cut = func(reason string) {
			if prev != nil {
				prev(reason)
			}
			c.Cut(reason)
		}
	}
}

// stopSpectate closes the spectator page (before the games stop).
func (op *operator) stopSpectate() {
	if rec := op.rec; rec != nil && rec.http != nil {
		rec.spectate.Close()
		_ = rec.http.Close()
		<-rec.httpDone
		rec.http = nil
	}
}

// closeRecording writes what the recorders hold (after the games
// stopped).
func (op *operator) closeRecording() {
	rec := op.rec
	if rec == nil {
		return
	}
	op.stopSpectate()
	for _, s := range rec.sinks {
		s.Close()
	}
	rec.sinks = nil
	for _, u := range op.games {
		careers.Delete(u.srv.Game())
	}
	if rec.archive != nil {
		_ = rec.archive.Close()
		rec.archive = nil
	}
}
