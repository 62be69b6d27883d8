package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/store"
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

// -version prints the version; a missing -config file is an error unless
// -init-config writes it; -healthcheck fails on a dead URL.
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
	// A missing -config file is an error, and nothing is written: a typo
	// must not start an open server with the defaults.
	if code := run([]string{"-config", path}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no such configuration file") {
		t.Fatalf("missing config: %d %q", code, errb.String())
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a missing config was written")
	}
	// -init-config writes it (an invalid flag then stops the run).
	errb.Reset()
	if code := run([]string{"-config", path, "-init-config", "-max-players", "99"}, &out, &errb); code != 1 {
		t.Fatalf("run: %d %s", code, errb.String())
	}
	if _, err := os.Stat(path); err != nil || !strings.Contains(errb.String(), "wrote the default configuration") {
		t.Fatalf("-init-config: %v %q", err, errb.String())
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

// `bcserver replay` writes a stranger's text as text: escape codes, CR,
// NUL and bidi controls from names and chat reach the terminal escaped,
// a 64-character name is cut to its column, a file written before chat
// was UTF-8 is decoded from Windows-1252, and the chat not every player
// received is left out unless -all (then it is marked).
func TestReplayCommandEscapesText(t *testing.T) {
	dir := t.TempDir()
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	fs := record.NewFileSink(arch, record.FileSinkOptions{})
	// A header without "text": an older file, its chat in the client's
	// code page.
	fs.BeginMatch(&capture.Header{Format: capture.FormatName, Version: record.Version, Server: "evil\x1b]0;owned\x07", Mode: "deathmatch", Started: time.Unix(1e9, 0)})
	long := "\u202e" + strings.Repeat("W", 63)
	for _, r := range []capture.Record{
		{Kind: capture.KindKeyframe},
		{Kind: capture.KindPlayer, Player: 2, InGame: true, Name: "Alice\x1b[31m"},
		{Kind: capture.KindPlayer, Player: 3, InGame: true, Name: long},
		{T: 10, Kind: capture.KindChat, Player: 2, Text: "gr\xfc\xdfe\x1b[2J\rNUL\x00end"},
		{T: 20, Kind: capture.KindChat, Player: 3, Flags: capture.ChatMuted, Text: "muted words"},
		{T: 30, Kind: capture.KindChat, Player: 3, Team: 1, Flags: capture.ChatTeam, Text: "team words"},
	} {
		fs.Record(&r)
	}
	fs.EndMatch(&capture.Footer{DurationMS: 40, Reason: "time_up\x1b[0m"})
	fs.Close()
	list, _ := arch.List()
	if len(list) != 1 {
		t.Fatalf("%d recordings", len(list))
	}
	file := filepath.Join(dir, list[0].ID+record.Ext)
	for _, args := range [][]string{{"replay", file}, {"replay", "-all", file}, {"replay", "-json", file}, {"replay", "-json", "-all", file}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		o := out.String()
		if strings.ContainsAny(o, "\x1b\r\x00\x07\u202e") {
			t.Errorf("%v: a control character reaches the terminal:\n%q", args, o)
		}
		if !strings.Contains(o, "grüße") {
			t.Errorf("%v: the old file's chat is not decoded from Windows-1252:\n%s", args, o)
		}
		all := args[1] == "-all" || len(args) > 3
		for _, sec := range []string{"muted words", "team words"} {
			if strings.Contains(o, sec) != all {
				t.Errorf("%v: %q shown %v:\n%s", args, sec, !all, o)
			}
		}
		if args[1] != "-json" {
			if strings.Contains(o, strings.Repeat("W", 30)) {
				t.Errorf("%v: a 64-character name is not cut:\n%s", args, o)
			}
			if all && !strings.Contains(o, "[muted: only the sender saw it]") {
				t.Errorf("%v: the muted line is not marked:\n%s", args, o)
			}
		}
	}
}

// `bcserver backup` copies the match history the configuration names,
// while its store is open (a running server), and refuses to overwrite.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bc.toml")
	if err := os.WriteFile(cfg, []byte("[store]\npath = \"history.db\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "history.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Unix(1e9, 0)
	st.RecordMatch(history.Match{Mode: "dm", Started: now, Ended: now, Reason: "time_up", Players: []history.MatchPlayer{{Identity: "a", Name: "A"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "copy.db")
	var o, e bytes.Buffer
	if code := run([]string{"backup", "-config", cfg, out}, &o, &e); code != 0 {
		t.Fatalf("backup: %d %s", code, e.String())
	}
	c, err := store.Open(out, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ms, err := c.Matches(ctx, 10, 0); err != nil || len(ms) != 1 {
		t.Fatalf("the copy: %+v %v", ms, err)
	}
	if code := run([]string{"backup", "-db", filepath.Join(dir, "history.db"), out}, &o, &e); code != 1 {
		t.Fatalf("a backup over the copy: exit %d", code)
	}
	if code := run([]string{"backup", out}, &o, &e); code != 2 {
		t.Fatalf("no source: exit %d", code)
	}
}
