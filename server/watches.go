package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/bcserver/bcserver/lua"
)

// missionWatches shares one watcher per missions folder among the games of
// a process. A watcher per game would take an inotify instance each, and a
// Linux user has 128 by default: past that, games fell back to polling
// with a warning each.
type missionWatches struct {
	ctx context.Context
	log *slog.Logger
	// watch starts a watcher (lua.Watch; tests replace it).
	watch func(context.Context, lua.WatchOptions, func([]string)) error

	mu      sync.Mutex
	folders map[watchKey]*folderWatch
}

// watchKey tells watchers apart: the folder and how it is watched.
type watchKey struct {
	dir  string
	poll time.Duration
}

func newMissionWatches(ctx context.Context, log *slog.Logger) *missionWatches {
	return &missionWatches{ctx: ctx, log: log, watch: lua.Watch, folders: make(map[watchKey]*folderWatch)}
}

// subscribe calls onChange with the changed files under opts.Dir until the
// process's context ends, starting the folder's watcher on first use.
// Subscribers are called independently: a game busy reloading does not
// delay another's reload, and one game's changes never run twice at once.
func (w *missionWatches) subscribe(opts lua.WatchOptions, onChange func([]string)) error {
	s := &subscriber{fn: onChange}
	key := watchKey{opts.Dir, opts.Poll}
	w.mu.Lock()
	defer w.mu.Unlock()
	if fw := w.folders[key]; fw != nil {
		fw.add(s)
		return nil
	}
	fw := &folderWatch{subs: []*subscriber{s}}
	opts.Logger = w.log
	if err := w.watch(w.ctx, opts, fw.notify); err != nil {
		return err
	}
	w.folders[key] = fw
	return nil
}

// folderWatch is one folder's watcher and the games listening to it.
type folderWatch struct {
	mu   sync.Mutex
	subs []*subscriber
}

func (fw *folderWatch) add(s *subscriber) {
	fw.mu.Lock()
	fw.subs = append(fw.subs, s)
	fw.mu.Unlock()
}

func (fw *folderWatch) notify(paths []string) {
	fw.mu.Lock()
	subs := fw.subs
	fw.mu.Unlock()
	for _, s := range subs {
		s.deliver(paths)
	}
}

// subscriber runs one game's change handler on a goroutine of its own
// while changes keep coming, one batch at a time, collecting the paths
// that arrive meanwhile into the next batch.
type subscriber struct {
	fn      func([]string)
	mu      sync.Mutex
	running bool
	pending []string
}

func (s *subscriber) deliver(paths []string) {
	s.mu.Lock()
	if s.running {
		s.pending = append(s.pending, paths...)
		s.mu.Unlock()
		return
	}
	s.running = true
	s.mu.Unlock()
	go func() {
		for {
			s.fn(paths)
			s.mu.Lock()
			if len(s.pending) == 0 {
				s.running = false
				s.mu.Unlock()
				return
			}
			paths, s.pending = s.pending, nil
			s.mu.Unlock()
		}
	}()
}
