package lua

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults for WatchOptions.
const (
	DefaultDebounce     = 100 * time.Millisecond
	DefaultPollInterval = time.Second
)

// WatchOptions configures Watch.
type WatchOptions struct {
	// Dir is the missions root on disk.
	Dir string
	// Poll, when > 0, scans the tree at this interval instead of using
	// fsnotify (network and container filesystems often deliver no
	// events). fsnotify failing to start also falls back to polling.
	Poll time.Duration
	// Debounce is how long a path must stay quiet before its change is
	// reported: editors write a file in several steps.
	Debounce time.Duration
	Logger   *slog.Logger
}

// Watch reports changed .lua files under opts.Dir (slash paths relative to
// it) to onChange, on its own goroutine, until ctx ends. It watches
// directories rather than files, so a file replaced by rename (how most
// editors save) is still seen, and it adds directories created later.
func Watch(ctx context.Context, opts WatchOptions, onChange func(paths []string)) error {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	log := opts.Logger.With("component", "lua", "watch", opts.Dir)
	if st, err := os.Stat(opts.Dir); err != nil || !st.IsDir() {
		return fmt.Errorf("watching %s: not a directory", opts.Dir)
	}
	if opts.Poll <= 0 {
		w, err := newNotifyWatcher(opts.Dir)
		if err == nil {
			log.Debug("watching missions with fsnotify")
			go w.run(ctx, opts, log, onChange)
			return nil
		}
		log.Warn("fsnotify unavailable, polling the missions folder instead", "err", err, "interval", DefaultPollInterval)
		opts.Poll = DefaultPollInterval
	}
	// The first scan happens before Watch returns, so a change made right
	// after it is never part of the baseline.
	first := scan(opts.Dir)
	go poll(ctx, opts, log, first, onChange)
	return nil
}

// relevant reports whether a change to rel matters to missions.
func relevant(rel string) bool { return strings.HasSuffix(rel, ".lua") }

type notifyWatcher struct {
	root string
	w    *fsnotify.Watcher
}

func newNotifyWatcher(root string) (*notifyWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	nw := &notifyWatcher{root: root, w: w}
	if err := nw.addTree(root); err != nil {
		w.Close()
		return nil, err
	}
	return nw, nil
}

// addTree watches dir and every directory below it.
func (nw *notifyWatcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone again already
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if err := nw.w.Add(p); err != nil {
			return fmt.Errorf("watching %s: %w", p, err)
		}
		return nil
	})
}

func (nw *notifyWatcher) run(ctx context.Context, opts WatchOptions, log *slog.Logger, onChange func([]string)) {
	defer nw.w.Close()
	pending := make(map[string]time.Time) // path → quiet deadline
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	rearm := func() {
		var next time.Time
		for _, t := range pending {
			if next.IsZero() || t.Before(next) {
				next = t
			}
		}
		if !next.IsZero() {
			timer.Reset(max(time.Until(next), 0))
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-nw.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue // touch, permission changes: the content is the same
			}
			if ev.Op.Has(fsnotify.Create) {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					if err := nw.addTree(ev.Name); err != nil {
						log.Warn("cannot watch new folder", "err", err)
					}
					// Files written into it before the watch was added.
					_ = filepath.WalkDir(ev.Name, func(p string, d fs.DirEntry, err error) error {
						if err == nil && !d.IsDir() {
							pending[p] = time.Now().Add(opts.Debounce)
						}
						return nil
					})
					rearm()
					continue
				}
			}
			pending[ev.Name] = time.Now().Add(opts.Debounce)
			rearm()
		case err, ok := <-nw.w.Errors:
			if !ok {
				return
			}
			log.Warn("missions watcher error", "err", err)
		case <-timer.C:
			now := time.Now()
			var due []string
			for p, t := range pending {
				if !t.After(now) {
					delete(pending, p)
					if rel, ok := relPath(nw.root, p); ok && relevant(rel) {
						due = append(due, rel)
					}
				}
			}
			rearm()
			if len(due) > 0 {
				sort.Strings(due)
				onChange(due)
			}
		}
	}
}

func relPath(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// scan stamps every relevant file under root.
func scan(root string) map[string]fileStamp {
	out := make(map[string]fileStamp)
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, ok := relPath(root, p)
		if !ok || !relevant(rel) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[rel] = fileStamp{info.ModTime(), info.Size()}
		}
		return nil
	})
	return out
}

func poll(ctx context.Context, opts WatchOptions, log *slog.Logger, last map[string]fileStamp, onChange func([]string)) {
	log.Debug("polling the missions folder", "interval", opts.Poll)
	t := time.NewTicker(opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cur := scan(opts.Dir)
		var changed []string
		for p, s := range cur {
			if old, ok := last[p]; !ok || old != s {
				changed = append(changed, p)
			}
		}
		for p := range last {
			if _, ok := cur[p]; !ok {
				changed = append(changed, p)
			}
		}
		last = cur
		if len(changed) > 0 {
			sort.Strings(changed)
			onChange(changed)
		}
	}
}

// Affects reports whether a changed file (slash path relative to the
// missions root) belongs to this host's mission: its folder, its addons'
// or lib/.
func (h *Runtime) Affects(rel string) bool {
	for _, a := range h.opts.Addons {
		if strings.HasPrefix(rel, AddonsDir+"/"+a+"/") {
			return true
		}
	}
	return strings.HasPrefix(rel, h.opts.Mode+"/") || strings.HasPrefix(rel, LibDir+"/")
}
