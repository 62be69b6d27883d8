package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine/checksum"
)

func writeTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "MyMod")
	files := map[string]string{
		"scripts/App.pyc":                          "app-bytes",
		"scripts/Autoexec.pyc":                     "autoexec",
		"scripts/ships/Akira.pyc":                  "akira!",
		"scripts/ships/Hardpoints/akira.pyc":       "hp",
		"scripts/MainMenu/mainmenu.pyc":            "menu1234",
		"Scripts/Multiplayer/Episode/Mission1.pyc": "m1",
	}
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRun(t *testing.T) {
	root := writeTree(t)
	outFile := filepath.Join(t.TempDir(), "manifest.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-root", root, "-o", outFile}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout with -o: %q", stdout.String())
	}
	m, err := checksum.ParseManifestFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if m.Meta.Name != "MyMod" || m.Meta.Generator != checksum.GeneratorName || m.Meta.FileHash != checksum.FileHashStock {
		t.Errorf("meta %+v", m.Meta)
	}
	if len(m.Directories) != 5 {
		t.Fatalf("%d directories, want all five rounds", len(m.Directories))
	}
	for _, req := range checksum.StockRequests() {
		resp, ok := m.Answer(req)
		if !ok {
			t.Fatalf("round %d: no answer", req.Round)
		}
		if res := m.Check(req, resp, checksum.ModeStrict); !res.OK {
			t.Errorf("round %d: %+v", req.Round, res)
		}
	}
	for _, want := range []string{"round 0x00 scripts/ App.pyc: 1 files", "round 0x02 scripts/ships *.pyc: 2 files in 1 subdirectories", "round 0xFF"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr.String())
		}
	}

	// Standard output gives the same bytes.
	written, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"-root", root, "-name", "MyMod"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !bytes.Equal(stdout.Bytes(), written) {
		t.Error("stdout output differs from the -o file")
	}
}

func TestRunErrors(t *testing.T) {
	root := writeTree(t)
	missing := filepath.Join(t.TempDir(), "no-such-install")
	badOut := filepath.Join(t.TempDir(), "no-such-dir", "m.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"help", []string{"-h"}, 0, "-root"},
		{"no root", nil, 2, "-root is required"},
		{"stray argument", []string{"-root", root, "extra"}, 2, `unexpected argument "extra"`},
		{"unknown flag", []string{"-bogus"}, 2, "bogus"},
		{"missing root", []string{"-root", missing}, 1, missing},
		{"unwritable output", []string{"-root", root, "-o", badOut}, 1, badOut},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d mentioning %q", code, stderr.String(), tc.code, tc.stderr)
			}
		})
	}
}

func TestRunWarnsAboutEmptyRounds(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-root", root}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"would not answer", "directory not found"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
