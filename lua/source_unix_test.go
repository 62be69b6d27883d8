//go:build unix

package lua

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A mission folder's .lua files are read only if they are regular files
// and at most the source limit: a FIFO (which would block the reader, and
// leave the game loading for ever) or a link to /dev/zero (which never
// ends) is refused at once with the file's name, as is a file over the
// limit.
func TestMissionFilesAreReadBounded(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(t *testing.T, path string)
		want string
	}{
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, "lib/x.lua: not a regular file"},
		{"device", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Skip("no symlinks here:", err)
			}
		}, "lib/x.lua: not a regular file"},
		{"too large", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(strings.Repeat("-", 1<<20+1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "lib/x.lua: larger than 1048576 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"m", "lib"} {
				if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "m", MainFile), []byte("local x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tt.make(t, filepath.Join(dir, "lib", "x.lua"))
			done := make(chan error, 1)
			go func() {
				_, err := readSource(os.DirFS(dir), nil, "m", nil)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("reading the folder: %v, want an error with %q", err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("reading the folder did not return within 10 s")
			}
		})
	}
}
