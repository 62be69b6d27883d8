// Package vectors loads the captured reference bytes in testdata/vectors so
// tests can compare against real stock bytes.
//
// testdata/vectors is the repo's copy of the project's shared reference
// folder (the "shared" folder beside a checkout on the maintainers'
// machines); `make sync-shared` refreshes every copy and TestCopiesMatchShared
// flags drift when the shared folder is present. A bare clone needs nothing
// outside the repo. The directory is found by walking up from the working
// directory to the module root (the folder holding go.mod);
// BCSERVER_VECTORS overrides it.
package vectors

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir returns the directory holding the vector files: the repo's
// testdata/vectors, or BCSERVER_VECTORS when set.
func Dir() (string, error) {
	if d := os.Getenv("BCSERVER_VECTORS"); d != "" {
		return d, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	d := filepath.Join(root, "testdata", "vectors")
	if _, err := os.Stat(d); err != nil {
		return "", fmt.Errorf("vector copies not found (%s): %w", d, err)
	}
	return d, nil
}

// ModuleRoot walks up from the working directory to the folder with go.mod.
func ModuleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("go.mod not found above the working directory")
		}
		d = parent
	}
}

// Load decodes one vector file (by base name, e.g. "cipher.json") into v.
func Load(name string, v any) error {
	d, err := Dir()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(d, name))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("vector file %s: %w", name, err)
	}
	return nil
}

// Hex decodes the hex strings the vector files use (spaces allowed).
func Hex(s string) ([]byte, error) {
	s = strings.ReplaceAll(s, " ", "")
	return hex.DecodeString(s)
}

// TB is the part of testing.TB the helpers need.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// MustLoad is Load for tests.
func MustLoad(t TB, name string, v any) {
	t.Helper()
	if err := Load(name, v); err != nil {
		t.Fatalf("loading vectors: %v", err)
	}
}

// MustHex is Hex for tests.
func MustHex(t TB, s string) []byte {
	t.Helper()
	b, err := Hex(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// entry is the common shape of the named vectors in the list-style files
// (session.json, simulation.json, missions.json, transport.json).
type entry struct {
	Name       string `json:"name"`
	PayloadHex string `json:"payload_hex"`
	PlainHex   string `json:"plain_hex"`
}

// Named returns the bytes of the vector called name in file: its
// payload_hex, or plain_hex for whole datagrams.
func Named(file, name string) ([]byte, error) {
	var es []entry
	if err := Load(file, &es); err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Name != name {
			continue
		}
		if e.PlainHex != "" {
			return Hex(e.PlainHex)
		}
		return Hex(e.PayloadHex)
	}
	return nil, fmt.Errorf("%s: no vector %q", file, name)
}

// MustNamed is Named for tests.
func MustNamed(t TB, file, name string) []byte {
	t.Helper()
	b, err := Named(file, name)
	if err != nil {
		t.Fatalf("loading vectors: %v", err)
	}
	return b
}
