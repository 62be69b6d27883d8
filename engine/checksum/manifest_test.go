package checksum

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

func mustVanilla(t testing.TB) *Manifest {
	t.Helper()
	m, err := Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestVanillaManifest(t *testing.T) {
	m := mustVanilla(t)
	if m.RefHash() != StockVersionHash || uint32(m.VersionStringHash) != StockVersionHash {
		t.Errorf("version hash 0x%08X / %v", m.RefHash(), m.VersionStringHash)
	}
	if m.Meta.FileHash != "" {
		t.Errorf("vanilla meta.file_hash = %q: its hashes use the earlier tail rule", m.Meta.FileHash)
	}
	tests := []struct {
		round       uint8
		path        string
		dirHash     uint32
		files       int
		subdirFiles map[string]int
	}{
		{0, "scripts", 0x4DAFCB2F, 1, nil},
		{1, "scripts", 0x4DAFCB2F, 1, nil},
		{2, "scripts/ships", 0xC017D1C4, 51, map[string]int{"Hardpoints": 51}},
		{3, "scripts/mainmenu", 0x3409475D, 4, nil},
	}
	if len(m.Directories) != len(tests) {
		t.Fatalf("%d directories, want %d", len(m.Directories), len(tests))
	}
	for _, tc := range tests {
		var d *Directory
		for i := range m.Directories {
			if m.Directories[i].Round == tc.round {
				d = &m.Directories[i]
			}
		}
		if d == nil {
			t.Errorf("round %d missing", tc.round)
			continue
		}
		if d.Path != tc.path || uint32(d.DirNameHash) != tc.dirHash || len(d.Files) != tc.files {
			t.Errorf("round %d: %q %v %d files", tc.round, d.Path, d.DirNameHash, len(d.Files))
		}
		got := map[string]int{}
		for _, s := range d.Subdirs {
			got[s.Name] = len(s.Files)
		}
		if len(got) != len(tc.subdirFiles) {
			t.Errorf("round %d subdirs %v, want %v", tc.round, got, tc.subdirFiles)
		}
		for k, n := range tc.subdirFiles {
			if got[k] != n {
				t.Errorf("round %d subdir %s: %d files, want %d", tc.round, k, got[k], n)
			}
		}
	}
	if _, ok := m.Lookup(StockRequests()[4]); ok {
		t.Error("vanilla manifest has a round-0xFF entry")
	}
	// Exactly the six entries checked against a stock client (handshake.md
	// 3.3) are verified.
	var verified []string
	var walk func(tr *Tree)
	walk = func(tr *Tree) {
		for i := range tr.Files {
			if m.ContentVerified(&tr.Files[i]) {
				verified = append(verified, tr.Files[i].Filename)
			}
		}
		for i := range tr.Subdirs {
			walk(&tr.Subdirs[i].Tree)
		}
	}
	for i := range m.Directories {
		walk(&m.Directories[i].Tree)
	}
	sort.Strings(verified)
	want := "App.pyc Autoexec.pyc CardSpecificSetup.pyc KeyboardConfig.pyc __init__.pyc mainmenu.pyc"
	if got := strings.Join(verified, " "); got != want {
		t.Errorf("verified entries: %s\nwant %s", got, want)
	}
}

// The embedded copy is the shared vector file, and writing it back gives
// the same bytes (the format is preserved).
func TestVanillaRoundTrip(t *testing.T) {
	dir, err := vectors.Dir()
	if err != nil {
		t.Fatal(err)
	}
	shared, err := os.ReadFile(filepath.Join(dir, "manifest-vanilla-1.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared, []byte(vanillaJSON)) {
		t.Error("engine/checksum/manifest-vanilla-1.1.json differs from testdata/vectors (run make sync-shared)")
	}
	var out bytes.Buffer
	if err := mustVanilla(t).WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	if got := bytes.TrimSpace(out.Bytes()); !bytes.Equal(got, bytes.TrimSpace(shared)) {
		t.Errorf("written manifest differs from the vanilla file:\n%s", firstDiff(got, shared))
	}
}

func firstDiff(a, b []byte) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			lo := max(0, i-80)
			return "got:  " + string(a[lo:min(len(a), i+40)]) + "\nwant: " + string(b[lo:min(len(b), i+40)])
		}
	}
	return "lengths differ"
}

func TestLoadManifestErrors(t *testing.T) {
	const ok = `{"meta":{},"version_string":"60","version_string_hash":"0x7E0CE243","directories":[
		{"index":0,"path":"scripts","filter":"App.pyc","recursive":false,"dir_name_hash":"0x4DAFCB2F",
		 "files":[{"filename":"App.pyc","name_hash":"0x373EB677","content_hash":"0xF8A0A768"}],"subdirs":[]}]}`
	tests := []struct {
		name    string
		json    string
		errText string // "" = must load
	}{
		{"ok", ok, ""},
		{"hashes filled in", `{"meta":{},"version_string":"60","directories":[
			{"index":255,"path":"Scripts/Multiplayer","filter":"*.pyc","recursive":true,
			 "files":[{"filename":"a.pyc","content_hash":"0x1"}],
			 "subdirs":[{"name":"Episode","files":[{"name_hash":"0x12345678","content_hash":7}]}]}]}`, ""},
		{"unknown field", strings.Replace(ok, `"content_hash"`, `"content_verifed":true,"content_hash"`, 1), "content_verifed"},
		{"bad version hash", strings.Replace(ok, "0x7E0CE243", "0x7E0CE244", 1), "version_string_hash"},
		{"bad dir hash", strings.Replace(ok, "0x4DAFCB2F", "0x5FF2585F", 1), "dir_name_hash"},
		{"bad name hash", strings.Replace(ok, "0x373EB677", "0x373EB678", 1), `"App.pyc": name_hash`},
		{"hash not hex string", strings.Replace(ok, `"0xF8A0A768"`, `"F8A0A768"`, 1), "0x"},
		{"hash too big", strings.Replace(ok, `"0xF8A0A768"`, `"0x1F8A0A768"`, 1), "hash"},
		{"round twice", strings.Replace(ok, `"subdirs":[]}]}`, `"subdirs":[]},{"index":0,"path":"x","filter":"y","recursive":false}]}`, 1), "two entries"},
		{"index out of range", strings.Replace(ok, `"index":0`, `"index":256`, 1), "index"},
		{"no filter", strings.Replace(ok, `"filter":"App.pyc"`, `"filter":""`, 1), "filter"},
		{"trailing data", ok + `{}`, "after the JSON"},
		{"not json", `{"meta":`, "decoding"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadManifest(strings.NewReader(tc.json))
			if tc.errText == "" {
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				for _, d := range m.Directories {
					if uint32(d.DirNameHash) != RequestDirHash(d.Path) {
						t.Errorf("dir hash not filled: %v", d.DirNameHash)
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("err = %v, want it to mention %q", err, tc.errText)
			}
		})
	}
}

func TestHex32JSON(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		bad  bool
	}{
		{`"0x7E0CE243"`, 0x7E0CE243, false},
		{`"0x7e0ce243"`, 0x7E0CE243, false},
		{`"0X00000001"`, 1, false},
		{`42`, 42, false},
		{`"42"`, 0, true},
		{`"0x"`, 0, true},
		{`-1`, 0, true},
		{`4294967296`, 0, true},
		{`true`, 0, true},
	}
	for _, tc := range tests {
		var h Hex32
		err := json.Unmarshal([]byte(tc.in), &h)
		if (err != nil) != tc.bad || (!tc.bad && uint32(h) != tc.want) {
			t.Errorf("%s: got %v, %v", tc.in, h, err)
		}
	}
	b, _ := json.Marshal(Hex32(0xF8A0A768))
	if string(b) != `"0xF8A0A768"` {
		t.Errorf("marshal: %s", b)
	}
}

func TestParseManifestFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	if _, err := ParseManifestFile(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"bogus":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseManifestFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad file: %v", err)
	}
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(vanillaJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := ParseManifestFile(good); err != nil || len(m.Directories) != 4 {
		t.Errorf("good file: %v", err)
	}
}

// meta.file_hash = "stock" makes every entry verified, without per-entry
// flags (the documented bchash marker).
func TestStockFileHashMeta(t *testing.T) {
	m, err := LoadManifest(strings.NewReader(`{"meta":{"generator":"bchash","file_hash":"stock"},
		"version_string":"60","directories":[{"index":2,"path":"scripts/ships","filter":"*.pyc","recursive":true,
		"files":[{"filename":"Akira.pyc","content_hash":"0x1"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f := &m.Directories[0].Files[0]; !m.ContentVerified(f) {
		t.Error("entry of a stock-hash manifest not verified")
	}
	v := mustVanilla(t)
	if f := &v.Directories[2].Files[0]; v.ContentVerified(f) {
		t.Errorf("vanilla %s counted as verified", f.Filename)
	}
}
