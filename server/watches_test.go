package server

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/bcserver/bcserver/lua"
)

// Games watching one missions folder share one watcher (a watcher per game
// ran out of inotify instances past ~128 games); each game still hears
// every change, a game busy with a reload does not hold up another, and
// changes arriving during a game's reload come to it as one later batch.
func TestMissionWatchesShareAFolder(t *testing.T) {
	w := newMissionWatches(context.Background(), slog.New(slog.DiscardHandler))
	var started []lua.WatchOptions
	var fire []func([]string)
	w.watch = func(_ context.Context, o lua.WatchOptions, fn func([]string)) error {
		started = append(started, o)
		fire = append(fire, fn)
		return nil
	}
	type call struct {
		paths   []string
		release chan struct{}
	}
	slow := make(chan call, 4)
	fast := make(chan []string, 4)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.subscribe(lua.WatchOptions{Dir: "/m"}, func(p []string) {
		c := call{p, make(chan struct{})}
		slow <- c
		<-c.release
	}))
	must(w.subscribe(lua.WatchOptions{Dir: "/m"}, func(p []string) { fast <- p }))
	must(w.subscribe(lua.WatchOptions{Dir: "/m", Poll: time.Second}, func([]string) {}))
	must(w.subscribe(lua.WatchOptions{Dir: "/other"}, func([]string) {}))
	if len(started) != 3 {
		t.Fatalf("%d watchers for 2 folders watched 3 ways: %+v", len(started), started)
	}

	recv := func(ch chan []string) []string {
		t.Helper()
		select {
		case p := <-ch:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("no change delivered")
			return nil
		}
	}
	recvSlow := func() call {
		t.Helper()
		select {
		case c := <-slow:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("no change delivered to the slow game")
			return call{}
		}
	}
	fire[0]([]string{"deathmatch/main.lua"})
	first := recvSlow() // the slow game is now inside its reload ...
	if p := recv(fast); !slices.Equal(p, []string{"deathmatch/main.lua"}) {
		t.Fatalf("fast game got %v", p) // ... and the other heard it anyway
	}
	fire[0]([]string{"lib/a.lua"})
	fire[0]([]string{"lib/b.lua"})
	if p := recv(fast); !slices.Equal(p, []string{"lib/a.lua"}) {
		t.Fatalf("fast game got %v", p)
	}
	if p := recv(fast); !slices.Equal(p, []string{"lib/b.lua"}) {
		t.Fatalf("fast game got %v", p)
	}
	close(first.release)
	second := recvSlow()
	if !slices.Equal(second.paths, []string{"lib/a.lua", "lib/b.lua"}) {
		t.Fatalf("slow game's next batch %v", second.paths)
	}
	close(second.release)
}
