package checksum

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

// fixtureEntry is one file or empty directory of the test game folder.
type fixtureEntry struct {
	path string
	hex  string // file content; unused with dir
	dir  bool   // an empty directory
}

// buildFixture lays out a small game folder. File contents are inputs of
// hashes.json, so the expected content hashes come from the vectors, with
// every length mod 4. Directory and file names use mixed case the way a
// real install does (requests say both "scripts/" and "Scripts/").
func buildFixture() []fixtureEntry {
	return []fixtureEntry{
		{path: "Scripts/App.pyc", hex: "AABBCCDD0000000011223344"},        // rem 0: 0xFF54AA89
		{path: "Scripts/autoexec.PYC", hex: "994E0D0A112233446300000000"}, // rem 1: 0x506A7544
		{path: "Scripts/Local.py", hex: "41"},
		{path: "Scripts/ships/Galaxy.PYC", hex: "010203040506070811223344556677"}, // rem 3: 0xC3526262
		{path: "Scripts/ships/Akira.pyc", hex: "0102030405060708AABB"},            // rem 2: 0x201811F6
		{path: "Scripts/ships/notes.txt", hex: "41"},
		{path: "Scripts/ships/Hardpoints/akira.pyc", hex: "414243"},  // 0x0000038E
		{path: "Scripts/ships/Hardpoints/Sub/deep.pyc", hex: "4142"}, // 0x00000186
		{path: "Scripts/ships/Empty", dir: true},
		{path: "Scripts/ships/OnlyPy/x.py", hex: "41"},
		{path: "Scripts/MainMenu/mainmenu.pyc", hex: "41"},                     // 0x00000082
		{path: "Scripts/MainMenu/__init__.pyc", hex: ""},                       // 0
		{path: "Scripts/MainMenu/Sub/skip.pyc", hex: "41"},                     // round 3 is not recursive
		{path: "Scripts/multiplayer/MultiplayerMenus.pyc", hex: "80"},          // 0xFFFFFF01
		{path: "Scripts/multiplayer/Episode/Mission1/Mission1.pyc", hex: "7F"}, // 0x000000FE
	}
}

func writeFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range buildFixture() {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if f.dir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, vectors.MustHex(t, f.hex), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func vf(name string, content uint32) File {
	return File{Filename: name, NameHash: Hex32(StringHash(name)), ContentHash: Hex32(content), ContentVerified: true}
}

func vsub(name string, files []File, subs ...Subdir) Subdir {
	if subs == nil {
		subs = []Subdir{}
	}
	return Subdir{Name: name, NameHash: Hex32(StringHash(name)), Tree: Tree{Files: files, Subdirs: subs}}
}

func vdir(req codec.ChecksumRequest, files []File, subs ...Subdir) Directory {
	if subs == nil {
		subs = []Subdir{}
	}
	p := strings.TrimSuffix(req.Dir, "/")
	return Directory{Round: req.Round, Path: p, Filter: req.Filter, Recursive: req.Recursive,
		DirNameHash: Hex32(StringHash(p)), Tree: Tree{Files: files, Subdirs: subs}}
}

func TestBuild(t *testing.T) {
	root := writeFixture(t)
	m, err := Build(root, BuildOptions{Name: "fixture"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := StockRequests()
	want := &Manifest{
		Meta:              Meta{Name: "fixture", Generator: GeneratorName, GeneratorVersion: GeneratorVersion, FileHash: FileHashStock},
		VersionString:     "60",
		VersionStringHash: 0x7E0CE243,
		Directories: []Directory{
			vdir(reqs[0], []File{vf("App.pyc", 0xFF54AA89)}),
			vdir(reqs[1], []File{vf("autoexec.PYC", 0x506A7544)}),
			vdir(reqs[2], []File{vf("Akira.pyc", 0x201811F6), vf("Galaxy.PYC", 0xC3526262)},
				vsub("Hardpoints", []File{vf("akira.pyc", 0x38E)}, vsub("Sub", []File{vf("deep.pyc", 0x186)}))),
			vdir(reqs[3], []File{vf("__init__.pyc", 0), vf("mainmenu.pyc", 0x82)}),
			vdir(reqs[4], []File{vf("MultiplayerMenus.pyc", 0xFFFFFF01)},
				vsub("Episode", []File{}, vsub("Mission1", []File{vf("Mission1.pyc", 0xFE)}))),
		},
	}
	if !reflect.DeepEqual(m, want) {
		var got, exp bytes.Buffer
		_ = m.WriteJSON(&got)
		_ = want.WriteJSON(&exp)
		t.Fatalf("built manifest:\n%s\nwant:\n%s", got.String(), exp.String())
	}

	// Round trip through the JSON format.
	var buf bytes.Buffer
	if err := m.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := LoadManifest(&buf)
	if err != nil {
		t.Fatalf("reloading: %v", err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Errorf("JSON round trip changed the manifest")
	}

	// A client holding exactly these files passes every round, strictly.
	for _, req := range reqs {
		resp, ok := back.Answer(req)
		if !ok {
			t.Fatalf("round %d: no answer", req.Round)
		}
		enc, err := resp.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := codec.DecodeChecksumResponse(enc)
		if err != nil {
			t.Fatalf("round %d: %v", req.Round, err)
		}
		if res := m.Check(req, dec, ModeStrict); !res.OK || len(res.Soft) != 0 || res.Note != "" {
			t.Errorf("round %d: %+v", req.Round, res)
		}
	}

	// Pointing at the scripts folder itself gives the same manifest.
	m2, err := Build(filepath.Join(root, "Scripts"), BuildOptions{Name: "fixture"})
	if err != nil || !reflect.DeepEqual(m2, m) {
		t.Errorf("built from the scripts folder: %v", err)
	}
}

// One changed byte fails the round with 0x22 naming the file, in strict
// and in verified mode (built entries are verified), except where the
// stock hash does not read the byte.
func TestBuildDetectsChange(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		offset int
		round  uint8
		file   string // "" = still passes
		reason string
	}{
		// The 0x22 string is the path as the host builds it: the request
		// directory as sent, then the names as stored (handshake.md 2.4).
		{"first word", "Scripts/ships/Galaxy.PYC", 0, 2, "scripts/ships/Galaxy.PYC", "content hash"},
		{"last word", "Scripts/App.pyc", 11, 0, "scripts/App.pyc", "content hash"},
		{"first tail byte", "Scripts/ships/Akira.pyc", 8, 2, "scripts/ships/Akira.pyc", "content hash"},
		{"in a subdirectory", "Scripts/ships/Hardpoints/akira.pyc", 0, 2, "scripts/ships/Hardpoints/akira.pyc", "content hash"},
		{"two levels down", "Scripts/multiplayer/Episode/Mission1/Mission1.pyc", 0, 0xFF, "Scripts/Multiplayer/Episode/Mission1/Mission1.pyc", "content hash"},
		{"pyc timestamp is not hashed", "Scripts/App.pyc", 5, 0, "", ""},
		{"second tail byte is not read", "Scripts/ships/Akira.pyc", 9, 2, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFixture(t)
			orig, err := Build(root, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(root, filepath.FromSlash(tc.path))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[tc.offset] ^= 0x10
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			changed, err := Build(root, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			req := stockRequest(t, tc.round)
			resp, ok := changed.Answer(req)
			if !ok {
				t.Fatal("no answer")
			}
			for _, mode := range []Mode{ModeStrict, ModeVerified} {
				res := orig.Check(req, resp, mode)
				if tc.file == "" {
					if !res.OK {
						t.Errorf("%v: %+v", mode, res)
					}
					continue
				}
				if res.OK || res.Opcode != codec.ChecksumFailFileOpcode || res.File != tc.file || !strings.Contains(res.Reason, tc.reason) {
					t.Errorf("%v: %+v", mode, res)
				}
			}
			if res := orig.Check(req, resp, ModeOff); !res.OK {
				t.Errorf("off: %+v", res)
			}
		})
	}
}

func TestBuildPartialTree(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "scripts", "ships"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := Build(root, BuildOptions{VersionString: "61"})
	if err != nil {
		t.Fatal(err)
	}
	var rounds []uint8
	for _, d := range m.Directories {
		rounds = append(rounds, d.Round)
	}
	// scripts/ and scripts/ships exist (empty); mainmenu and Multiplayer do not.
	if !reflect.DeepEqual(rounds, []uint8{0, 1, 2}) {
		t.Errorf("rounds %v", rounds)
	}
	if m.RefHash() != StringHash("61") {
		t.Errorf("version hash 0x%08X", m.RefHash())
	}
	for _, req := range StockRequests() {
		if _, ok := m.Answer(req); ok {
			t.Errorf("round %d answered with no files", req.Round)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "deep")
	p := filepath.Join(deep, "scripts", "ships")
	for i := 0; i <= codec.ChecksumMaxDepth; i++ {
		p = filepath.Join(p, "d")
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "x.pyc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		root    string
		opts    BuildOptions
		errText string
	}{
		{"missing root", filepath.Join(root, "nope"), BuildOptions{}, filepath.Join(root, "nope")},
		{"root is a file", file, BuildOptions{}, file},
		{"too deep", deep, BuildOptions{}, "deeper than"},
		{"request leaves the folder", root, BuildOptions{Requests: []codec.ChecksumRequest{{Dir: "../x", Filter: "*"}}}, "leaves"},
		{"two requests for a round", deep, BuildOptions{Requests: []codec.ChecksumRequest{
			{Round: 1, Dir: "scripts/", Filter: "a"}, {Round: 1, Dir: "scripts/", Filter: "b"}}}, "two entries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.root, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("err = %v, want it to mention %q", err, tc.errText)
			}
		})
	}
}

func TestBuildUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files regardless of permissions")
	}
	root := t.TempDir()
	p := filepath.Join(root, "scripts", "App.pyc")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(root, BuildOptions{}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("err = %v, want it to name %s", err, p)
	}
}

func TestWildcardMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*.pyc", "akira.pyc", true},
		{"*.pyc", ".pyc", true},
		{"*.pyc", "akira.py", false},
		{"*.pyc", "akira.pyc.bak", false},
		{"*.pyc", "a.pyc.pyc", true},
		{"app.pyc", "app.pyc", true},
		{"app.pyc", "xapp.pyc", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"*", "", true},
		{"", "", true},
		{"", "a", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
	}
	for _, tc := range tests {
		if got := wildcardMatch(tc.pattern, tc.name); got != tc.want {
			t.Errorf("wildcardMatch(%q, %q) = %t", tc.pattern, tc.name, got)
		}
	}
}
