package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/record"
)

// `bcserver replay FILE` prints the score table and the kills; -json
// writes the header, every record and the footer as JSON lines.
func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	fs := record.NewFileSink(arch, record.FileSinkOptions{})
	if _, err := replaytest.Play(fs); err != nil {
		t.Fatal(err)
	}
	fs.Close()
	list, _ := arch.List()
	if len(list) != 1 {
		t.Fatalf("%d recordings", len(list))
	}
	file := filepath.Join(dir, list[0].ID+record.Ext)
	var out, errb bytes.Buffer
	if code := run([]string{"replay", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"survival on Multi1", "ended: its_just_over", "Alice", "kills (6):", "Raider 1-1 destroyed by Alice (phaser)", "Bob: gg"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"replay", "-json", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	kinds := map[string]int{}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		kinds[m["kind"].(string)]++
	}
	if kinds["header"] != 1 || kinds["footer"] != 1 || kinds["death"] != 6 || kinds["motion"] == 0 || kinds["chat"] < 3 {
		t.Fatalf("kinds %v", kinds)
	}
	if !strings.HasPrefix(lines[0], `{"blocks":`) || !strings.Contains(lines[len(lines)-1], `"footer"`) {
		t.Fatalf("first %s, last %s", lines[0], lines[len(lines)-1])
	}
	if code := run([]string{"replay", filepath.Join(dir, "missing.bcr")}, &out, &errb); code != 1 {
		t.Fatalf("a missing file: exit %d", code)
	}
}

// -version prints the version; a missing -config file is written and said
// so; -healthcheck fails on a dead URL.
func TestVersionAndHealthcheckFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "bcserver ") || !strings.Contains(out.String(), "commit") {
		t.Fatalf("-version: %d %q", code, out.String())
	}
	if code := run([]string{"-healthcheck", "http://127.0.0.1:1/healthz"}, &out, &errb); code != 1 {
		t.Fatalf("-healthcheck on a dead port: %d", code)
	}
	path := filepath.Join(t.TempDir(), "new.toml")
	errb.Reset()
	// An invalid flag stops the run after the file was written.
	if code := run([]string{"-config", path, "-max-players", "99"}, &out, &errb); code != 1 {
		t.Fatalf("run: %d %s", code, errb.String())
	}
	if _, err := os.Stat(path); err != nil || !strings.Contains(errb.String(), "wrote the default configuration") {
		t.Fatalf("missing config: %v %q", err, errb.String())
	}
}

// notifyContext ends its context on a caught signal, and stop ends it
// without one.
func TestNotifyContext(t *testing.T) {
	ctx, stop, registered := notifyContext(syscall.SIGUSR1)
	defer stop()
	<-registered
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the context did not end on the signal")
	}
	ctx2, stop2, _ := notifyContext(syscall.SIGUSR2)
	stop2()
	if ctx2.Err() == nil {
		t.Fatal("stop did not end the context")
	}
}
