package record

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/klauspost/compress/zstd"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/capture"
)

// Defaults of ArchiveOptions.
const (
	DefaultMaxFileBytes = 64 << 20
)

// ArchiveOptions configures an Archive.
type ArchiveOptions struct {
	// Dir holds the recordings (created if missing).
	Dir string
	// MaxFileBytes caps one recording (DefaultMaxFileBytes when 0): the
	// blocks past it are not written and the footer says so.
	MaxFileBytes int64
	// MaxTotalBytes caps the folder: the oldest recordings go first (0:
	// no cap).
	MaxTotalBytes int64
	// Keep is how long recordings are kept (0: for ever).
	Keep   time.Duration
	Logger *slog.Logger
	// Now is the wall clock (tests); nil is time.Now.
	Now func() time.Time
}

// Archive is the folder of recordings: the writers put matches there, the
// replay API and the tools read them, and it deletes what is past the
// retention limits.
type Archive struct {
	opts ArchiveOptions
	log  *slog.Logger
	enc  *zstd.Encoder

	mu      sync.Mutex
	entries map[string]cachedEntry
	sums    *simplelru.LRU[sumKey, cachedSummary]
	sumSize int64 // bytes the cached summaries hold (estimated)
	// work bounds the summaries and windows computed at once: each reads
	// blocks of up to 8 MiB.
	work chan struct{}
}

type sumKey struct {
	id     string
	public bool
}

type cachedEntry struct {
	size  int64
	mtime time.Time
	e     Entry
}

type cachedSummary struct {
	size  int64 // of the file
	mtime time.Time
	s     *Summary
	bytes int64 // what it holds in memory (estimated)
}

// Entry is one recording in the list.
type Entry struct {
	ID         string    `json:"id"`
	Bytes      int64     `json:"bytes"`
	Server     string    `json:"server"`
	Game       string    `json:"game,omitempty"`
	Mode       string    `json:"mode"`
	Map        string    `json:"map"`
	Started    time.Time `json:"started"`
	DurationMS uint32    `json:"duration_ms"`
	Finished   bool      `json:"finished"`
	Reason     string    `json:"reason,omitempty"`
	// The outcome the mission gave (Footer): winner_team, winner,
	// winner_name, why, teams.
	*engine.Outcome
}

// NewArchive opens (creating) the folder.
func NewArchive(opts ArchiveOptions) (*Archive, error) {
	if opts.Dir == "" {
		return nil, errors.New("record: no folder")
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	// One encoder for every game of the process: EncodeAll may be called
	// from several writers at once, and each concurrent use holds its own
	// window, so the concurrency bounds the memory.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(2), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return nil, err
	}
	a := &Archive{opts: opts, log: log.With("component", "plugin/record"), enc: enc,
		entries: map[string]cachedEntry{}, work: make(chan struct{}, maxReaders)}
	a.sums, _ = simplelru.NewLRU[sumKey, cachedSummary](maxSummaries, func(_ sumKey, c cachedSummary) { a.sumSize -= c.bytes })
	return a, nil
}

// Dir returns the folder.
func (a *Archive) Dir() string { return a.opts.Dir }

// Close releases the encoder.
func (a *Archive) Close() error { return a.enc.Close() }

// ValidID reports whether id can name a recording (no path tricks).
func ValidID(id string) bool {
	// [0-9A-Za-z][0-9A-Za-z._-]{0,119}, no "..": checked by hand rather
	// than with a regexp compiled at start-up (it showed in the cold start).
	if len(id) == 0 || len(id) > 120 || strings.Contains(id, "..") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// ErrNoRecording is returned for an unknown recording.
var ErrNoRecording = errors.New("no such recording")

func (a *Archive) path(id string) (string, error) {
	if !ValidID(id) {
		return "", ErrNoRecording
	}
	return filepath.Join(a.opts.Dir, id+Ext), nil
}

// Open opens a recording by id.
func (a *Archive) Open(id string) (*File, error) {
	p, err := a.path(id)
	if err != nil {
		return nil, err
	}
	f, err := Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoRecording
	}
	return f, err
}

// List returns the recordings, newest first.
func (a *Archive) List() ([]Entry, error) {
	des, err := os.ReadDir(a.opts.Dir)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	live := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		id, ok := strings.CutSuffix(name, Ext)
		if !ok || !ValidID(id) || !de.Type().IsRegular() {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		live[id] = true
		a.mu.Lock()
		c, hit := a.entries[id]
		a.mu.Unlock()
		if !hit || c.size != info.Size() || !c.mtime.Equal(info.ModTime()) {
			f, err := Open(filepath.Join(a.opts.Dir, name))
			if err != nil {
				continue
			}
			e := Entry{ID: id, Bytes: info.Size(), Server: f.Header.Server, Game: f.Header.Game, Mode: f.Header.Mode, Map: f.Header.Map,
				Started: f.Header.Started, DurationMS: f.Duration(), Finished: f.Footer != nil}
			if f.Footer != nil {
				e.Reason, e.Outcome = f.Footer.Reason, f.Footer.Outcome
			}
			f.Close()
			c = cachedEntry{size: info.Size(), mtime: info.ModTime(), e: e}
			a.mu.Lock()
			a.entries[id] = c
			a.mu.Unlock()
		}
		out = append(out, c.e)
	}
	a.mu.Lock()
	for id := range a.entries {
		if !live[id] {
			delete(a.entries, id)
		}
	}
	a.mu.Unlock()
	slices.SortFunc(out, func(x, y Entry) int {
		if c := y.Started.Compare(x.Started); c != 0 {
			return c
		}
		return strings.Compare(y.ID, x.ID)
	})
	return out, nil
}

// The summary cache: at most maxSummaries summaries, and at most
// maxSummaryBytes of them (a summary is bounded, MaxSummaryChat and the
// rest, to a few MB).
const (
	maxSummaries    = 16
	maxSummaryBytes = 32 << 20
	// maxReaders is how many summaries and windows are computed at once.
	maxReaders = 2
)

// Summary returns the summary of a recording (the admin's view).
func (a *Archive) Summary(id string) (*Summary, error) { return a.SummaryView(id, View{}) }

// SummaryView returns the summary of a recording showing v, computed once
// per version of the file and view.
func (a *Archive) SummaryView(id string, v View) (*Summary, error) {
	p, err := a.path(id)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, ErrNoRecording
	}
	key := sumKey{id, v.Public}
	a.mu.Lock()
	if c, ok := a.sums.Get(key); ok && c.size == st.Size() && c.mtime.Equal(st.ModTime()) {
		a.mu.Unlock()
		return c.s, nil
	}
	a.mu.Unlock()
	a.work <- struct{}{}
	defer func() { <-a.work }()
	f, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := SummarizeView(f, v)
	if err != nil {
		return nil, err
	}
	s.Bytes = st.Size()
	n := s.memSize()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sums.Remove(key) // a stale version; the eviction callback counts it out
	if n > maxSummaryBytes/4 {
		return s, nil // served, not kept
	}
	for a.sumSize+n > maxSummaryBytes {
		if _, _, ok := a.sums.RemoveOldest(); !ok {
			break
		}
	}
	a.sums.Add(key, cachedSummary{size: st.Size(), mtime: st.ModTime(), s: s, bytes: n})
	a.sumSize += n
	return s, nil
}

// FramesView computes a window of a recording (FramesView), one of at
// most maxReaders at once.
func (a *Archive) FramesView(id string, from, to, step uint32, v View) (*Window, error) {
	a.work <- struct{}{}
	defer func() { <-a.work }()
	f, err := a.Open(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return FramesView(f, from, to, step, v)
}

// memSize estimates what a summary holds in memory: its strings and a
// fixed cost per entry.
func (s *Summary) memSize() int64 {
	n := int64(1024)
	for _, c := range s.Chat {
		n += 96 + int64(len(c.Name)+len(c.Text))
	}
	for _, k := range s.Kills {
		n += 160 + int64(len(k.Victim)+len(k.Killer)+len(k.VictimClass))
	}
	for _, sh := range s.Ships {
		n += 96 + int64(len(sh.Name)+len(sh.Class))
	}
	for _, p := range s.Players {
		n += 96 + int64(len(p.Name))
	}
	return n
}

// SummaryCache reports the summaries cached and the bytes they hold.
func (a *Archive) SummaryCache() (n int, bytes int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sums.Len(), a.sumSize
}

// Sweep deletes the recordings older than Keep, then the oldest until the
// folder fits MaxTotalBytes. keepID is never deleted (the one being
// written).
func (a *Archive) Sweep(keepID string) {
	des, err := os.ReadDir(a.opts.Dir)
	if err != nil {
		return
	}
	type file struct {
		name  string
		size  int64
		mtime time.Time
	}
	var files []file
	var total int64
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), Ext)
		if !ok || !ValidID(id) || id == keepID || !de.Type().IsRegular() {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		files = append(files, file{de.Name(), info.Size(), info.ModTime()})
		total += info.Size()
	}
	slices.SortFunc(files, func(x, y file) int { return x.mtime.Compare(y.mtime) })
	now := a.opts.Now()
	for _, f := range files {
		old := a.opts.Keep > 0 && now.Sub(f.mtime) > a.opts.Keep
		over := a.opts.MaxTotalBytes > 0 && total > a.opts.MaxTotalBytes
		if !old && !over {
			continue
		}
		if err := os.Remove(filepath.Join(a.opts.Dir, f.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			a.log.Warn("deleting an old recording", "file", f.name, "err", err)
			continue
		}
		total -= f.size
		why := "older than keep_days"
		if !old {
			why = "over max_total"
		}
		a.log.Info("recording deleted", "file", f.name, "why", why)
	}
}

// fileID names a match's recording: its start time (UTC) and game label.
func fileID(h *capture.Header) string {
	id := h.Started.UTC().Format("20060102-150405.000")
	if g := sanitize(h.Game); g != "" {
		id += "-" + g
	}
	return id
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') && b.Len() < 40 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
