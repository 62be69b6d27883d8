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

// The watcher is driven by real file events; the test waits for the
// reports it expects (bounded), never for time to pass.
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
			changes := make(chan []string, 64)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// A long debounce: the three writes below are one change even
			// on a machine that stalls between them.
			if err := lua.Watch(ctx, lua.WatchOptions{Dir: dir, Poll: tt.poll, Debounce: 250 * time.Millisecond}, func(p []string) { changes <- p }); err != nil {
				t.Fatal(err)
			}
			// await reads reports until one names want; every report must
			// name only .lua files.
			await := func(what, want string) int {
				t.Helper()
				timeout := time.After(10 * time.Second)
				for n := 1; ; n++ {
					select {
					case p := <-changes:
						for _, f := range p {
							if filepath.Ext(f) != ".lua" {
								t.Fatalf("%s: %s reported", what, f)
							}
						}
						if slices.Contains(p, want) {
							return n
						}
					case <-timeout:
						t.Fatalf("%s: %s not reported", what, want)
					}
				}
			}
			for i := 0; i < 3; i++ {
				write("m/main.lua", "-- v2 "+string(rune('a'+i)))
			}
			if n := await("write", "m/main.lua"); n != 1 && tt.poll == 0 {
				t.Fatalf("three writes were %d changes", n)
			}
			// Save by rename, as editors do.
			write("m/.main.lua.tmp", "-- v3")
			if err := os.Rename(filepath.Join(dir, "m/.main.lua.tmp"), filepath.Join(dir, "m/main.lua")); err != nil {
				t.Fatal(err)
			}
			await("rename", "m/main.lua")
			// A new folder and a file in it; a README is not reported.
			if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
				t.Fatal(err)
			}
			write("lib/README.md", "docs")
			write("lib/x.lua", "return 1")
			await("new folder", "lib/x.lua")
			write("m/README.md", "docs")
			write("m/y.lua", "return 2")
			await("after a README", "m/y.lua")
		})
	}
}
