package lua_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bcserver/bcserver/lua"
)

func TestWatch(t *testing.T) {
	for _, tt := range []struct {
		name string
		poll time.Duration
	}{{"fsnotify", 0}, {"poll", 20 * time.Millisecond}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
				t.Fatal(err)
			}
			write := func(rel, s string) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(dir, rel), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("m/main.lua", "-- v1")
			changes := make(chan []string, 16)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if err := lua.Watch(ctx, lua.WatchOptions{Dir: dir, Poll: tt.poll, Debounce: 30 * time.Millisecond}, func(p []string) { changes <- p }); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // let the poller take its first scan
			next := func(what string) []string {
				t.Helper()
				select {
				case p := <-changes:
					return p
				case <-time.After(3 * time.Second):
					t.Fatalf("%s: no change reported", what)
					return nil
				}
			}
			// Several writes to one file are one change.
			for i := 0; i < 3; i++ {
				write("m/main.lua", "-- v2 "+string(rune('a'+i)))
			}
			if got := next("write"); !slices.Equal(got, []string{"m/main.lua"}) {
				t.Fatalf("write: %v", got)
			}
			// Save by rename, as editors do.
			write("m/.main.lua.tmp", "-- v3")
			if err := os.Rename(filepath.Join(dir, "m/.main.lua.tmp"), filepath.Join(dir, "m/main.lua")); err != nil {
				t.Fatal(err)
			}
			if got := next("rename"); !slices.Contains(got, "m/main.lua") {
				t.Fatalf("rename: %v", got)
			}
			// A new folder and a file in it.
			if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			write("lib/x.lua", "return 1")
			if got := next("new folder"); !slices.Contains(got, "lib/x.lua") {
				t.Fatalf("new folder: %v", got)
			}
			// Other files are not reported.
			write("m/README.md", "docs")
			select {
			case p := <-changes:
				t.Fatalf("README change reported: %v", p)
			case <-time.After(150 * time.Millisecond):
			}
		})
	}
}
