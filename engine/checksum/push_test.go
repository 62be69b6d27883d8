package checksum

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
)

// pyc returns a small fake compiled file: the .pyc magic, a timestamp, and
// body, so FileHash covers the body and ignores the timestamp.
func pyc(stamp byte, body string) []byte {
	return append([]byte{0x99, 0x4E, 0x0D, 0x0A, stamp, 0, 0, 0}, body...)
}

// writeTree lays out files (slash paths relative to dir) and returns dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) string {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// modTree is a mod's Scripts/Multiplayer: species tables, a stock mission
// folder and a mod mission, plus files the rules leave out.
func modTree(t *testing.T) string {
	dir := writeTree(t, t.TempDir(), map[string][]byte{
		"SpeciesToShip.pyc":              pyc(1, "ships"),
		"MultiplayerMenus.pyc":           pyc(1, "menus"),
		"__init__.pyc":                   pyc(1, ""),
		"SpeciesToShip.py":               []byte("source is never pushed"),
		"Episode/__init__.pyc":           pyc(1, "ep"),
		"Episode/Mission1/Mission1.pyc":  pyc(1, "m1"),
		"Episode/Mission1/__init__.pyc":  pyc(1, ""),
		"Episode/KM4/KM4.pyc":            pyc(1, "km4"),
		"Episode/KM4/KM4Menus.pyc":       pyc(1, "km4 menus"),
		"UPPER.PYC":                      pyc(1, "suffix case"),
		"two.dots.pyc":                   pyc(1, "dots"),
		"Bad.Dir/x.pyc":                  pyc(1, "dotted folder"),
		"Sources/readme.py":              []byte("a folder with nothing to push"),
		"Episode/Mission1/ trailing.pyc": pyc(1, "space"),
	})
	if err := os.Symlink(filepath.Join(dir, "__init__.pyc"), filepath.Join(dir, "Link.pyc")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func treeFiles(d PushDiff) []string {
	var out []string
	for _, f := range d.Files {
		out = append(out, f.Path)
	}
	return out
}

func TestLoadPushTree(t *testing.T) {
	tr, err := LoadPushTree(modTree(t))
	if err != nil {
		t.Fatal(err)
	}
	if !tr.CanPush() || tr.Files() != 8 {
		t.Fatalf("files %d, can push %t", tr.Files(), tr.CanPush())
	}
	// Byte-wise order within each folder, files then subtrees (mods.md 5.4).
	want := []string{
		"Scripts/Multiplayer/MultiplayerMenus.pyc",
		"Scripts/Multiplayer/SpeciesToShip.pyc",
		"Scripts/Multiplayer/__init__.pyc",
		"Scripts/Multiplayer/Episode/__init__.pyc",
		"Scripts/Multiplayer/Episode/KM4/KM4.pyc",
		"Scripts/Multiplayer/Episode/KM4/KM4Menus.pyc",
		"Scripts/Multiplayer/Episode/Mission1/Mission1.pyc",
		"Scripts/Multiplayer/Episode/Mission1/__init__.pyc",
	}
	all := tr.Diff(codec.ChecksumResponse{Round: FinalRound})
	if got := treeFiles(all); !slices.Equal(got, want) || !all.DirMismatch || all.First() != MultiplayerDir {
		t.Fatalf("whole tree\n got %q\nwant %q", got, want)
	}
	skipped := strings.Join(tr.Skipped, "\n")
	for _, s := range []string{"UPPER.PYC: a file name", "two.dots.pyc: a file name", "Bad.Dir: a folder name",
		"Link.pyc: a symbolic link", "Mission1/ trailing.pyc: leading or trailing space"} {
		if !strings.Contains(skipped, s) {
			t.Errorf("skipped list lacks %q:\n%s", s, skipped)
		}
	}
	if strings.Contains(skipped, "Sources") || strings.Contains(skipped, ".py:") {
		t.Errorf("sources are ignored, not reported:\n%s", skipped)
	}
	f := all.Files[1]
	if f.Name != "SpeciesToShip.pyc" || f.NameHash != StringHash("SpeciesToShip.pyc") || f.Hash != FileHash(pyc(1, "ships")) || f.Size != len(f.Data) {
		t.Errorf("file entry %+v", f)
	}
}

func TestLoadPushTreeRefused(t *testing.T) {
	for name, files := range map[string]map[string][]byte{
		"root without a .pyc":                   {"Episode/Mission1/Mission1.pyc": pyc(1, "m")},
		"folder without a .pyc above some":      {"__init__.pyc": pyc(1, ""), "Episode/Mission1/Mission1.pyc": pyc(1, "m")},
		"only sources":                          {"SpeciesToShip.py": []byte("x")},
		"folder without a .pyc, only a bad one": {"__init__.pyc": pyc(1, ""), "Episode/x.y.pyc": pyc(1, ""), "Episode/M/M.pyc": pyc(1, "")},
	} {
		if _, err := LoadPushTree(writeTree(t, t.TempDir(), files)); err == nil || !strings.Contains(err.Error(), "mods.md 5.10") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := LoadPushTree(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Error("missing folder loaded")
	}
	// A file too large for one message is left out, the tree still loads.
	big := writeTree(t, t.TempDir(), map[string][]byte{"__init__.pyc": pyc(1, ""), "Big.pyc": make([]byte, PushMessageMax)})
	tr, err := LoadPushTree(big)
	if err != nil || tr.Files() != 1 || !strings.Contains(strings.Join(tr.Skipped, ""), "Big.pyc") {
		t.Fatalf("big file: %v, %d files, %q", err, tr.Files(), tr.Skipped)
	}
}

func TestCheckComponent(t *testing.T) {
	for _, tc := range []struct {
		name string
		file bool
		ok   bool
	}{
		{"Mission1.pyc", true, true},
		{"__init__.pyc", true, true},
		{"Mission1", false, true},
		{"x.PYC", true, false},
		{"x.pyc.pyc", true, false},
		{"x.py", true, false},
		{"Episode.old", false, false},
		{"..", false, false},
		{strings.Repeat("a", 60) + ".pyc", true, true},
		{strings.Repeat("a", 61) + ".pyc", true, false},
		{"a:b.pyc", true, false},
		{"a\x7fb.pyc", true, false},
		{".hidden", false, false},
		{"", false, false},
	} {
		if got := checkComponent(tc.name, tc.file) == ""; got != tc.ok {
			t.Errorf("%q (file %t): ok %t, want %t", tc.name, tc.file, got, tc.ok)
		}
	}
}

// answerFor is the round-0xFF response of a client whose
// Scripts/Multiplayer is dir, built as bchash (and so a stock client) does.
func answerFor(t *testing.T, dir string) codec.ChecksumResponse {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "Scripts", "Multiplayer"), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	m, err := Build(root, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resp, ok := m.Answer(StockRequests()[4])
	if !ok {
		t.Fatal("no round-0xFF answer")
	}
	return resp
}

func TestPushDiff(t *testing.T) {
	host := modTree(t)
	tr, err := LoadPushTree(host)
	if err != nil {
		t.Fatal(err)
	}
	same := answerFor(t, host)
	if d := tr.Diff(same); len(d.Files) != 0 || d.DirMismatch {
		t.Fatalf("a client with the same files: %q", treeFiles(d))
	}
	// A recompiled file (new timestamp) is the same file (handshake.md 3.2).
	client := writeTree(t, t.TempDir(), map[string][]byte{
		"SpeciesToShip.pyc":             pyc(9, "ships"), // another timestamp: equal
		"MultiplayerMenus.pyc":          pyc(1, "stock menus"),
		"Extra.pyc":                     pyc(1, "only the client has it"),
		"Episode/__init__.pyc":          pyc(1, "ep"),
		"Episode/Mission1/Mission1.pyc": pyc(1, "old m1"),
		"Episode/Mission1/__init__.pyc": pyc(1, ""),
		"Episode/Mine/Mine.pyc":         pyc(1, "client's own mission"),
	})
	d := tr.Diff(answerFor(t, client))
	want := []string{
		"Scripts/Multiplayer/MultiplayerMenus.pyc", // differs
		"Scripts/Multiplayer/__init__.pyc",         // missing
		"Scripts/Multiplayer/Episode/KM4/KM4.pyc",  // a subtree the client lacks, before common ones
		"Scripts/Multiplayer/Episode/KM4/KM4Menus.pyc",
		"Scripts/Multiplayer/Episode/Mission1/Mission1.pyc",
	}
	if got := treeFiles(d); !slices.Equal(got, want) || d.DirMismatch {
		t.Fatalf("diff\n got %q\nwant %q", got, want)
	}
	if d.First() != want[0] || d.Bytes() != len(pyc(1, "menus"))+len(pyc(1, ""))+len(pyc(1, "km4"))+len(pyc(1, "km4 menus"))+len(pyc(1, "m1")) {
		t.Errorf("first %q, bytes %d", d.First(), d.Bytes())
	}
	// Common subdirectories go in the client's order.
	resp := answerFor(t, client)
	slices.Reverse(resp.Tree.Subdirs[0].Tree.Subdirs)
	if got := treeFiles(tr.Diff(resp)); !slices.Equal(got, want) {
		t.Errorf("reordered client: %q", got)
	}
	// A manifest's round-0xFF entry verifies the same way, without files
	// (bchash hashes every .pyc, so give it only the pushable ones).
	root := t.TempDir()
	for _, f := range tr.Diff(codec.ChecksumResponse{}).Files {
		writeTree(t, root, map[string][]byte{f.Path: f.Data})
	}
	m, err := Build(root, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := PushTreeFromManifest(m)
	if !ok || ref.CanPush() {
		t.Fatalf("manifest tree: %t, can push %t", ok, ref.CanPush())
	}
	if got := treeFiles(ref.Diff(answerFor(t, client))); !slices.Equal(got, want) {
		t.Errorf("manifest tree diff %q", got)
	}
	if err := DefaultPushLimits().Check(ref.Diff(answerFor(t, client))); err == nil {
		t.Error("a hash-only tree passed the push limits")
	}
	if _, ok := PushTreeFromManifest(mustVanilla(t)); ok {
		t.Error("the vanilla manifest has no round 0xFF")
	}
}

func TestPushLimits(t *testing.T) {
	tr, err := LoadPushTree(modTree(t))
	if err != nil {
		t.Fatal(err)
	}
	all := tr.Diff(codec.ChecksumResponse{})
	if err := DefaultPushLimits().Check(all); err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]PushLimits{
		"files": {JoinFiles: 7},
		"bytes": {JoinBytes: all.Bytes() - 1},
		"file":  {File: 10},
	} {
		if err := l.Check(all); err == nil {
			t.Errorf("%s limit passed", name)
		}
	}
}

func TestParsePushMode(t *testing.T) {
	for in, want := range map[string]PushMode{"": PushOff, "off": PushOff, "Verify": PushVerify, " push ": PushPush} {
		var m PushMode
		if err := m.UnmarshalText([]byte(in)); err != nil || m != want {
			t.Errorf("%q: %v %v", in, m, err)
		}
		if b, _ := want.MarshalText(); string(b) != want.String() {
			t.Errorf("marshal %q", b)
		}
	}
	if _, err := ParsePushMode("on"); err == nil {
		t.Error("on parsed")
	}
}

func BenchmarkPushDiff(b *testing.B) {
	dir := b.TempDir()
	files := map[string][]byte{"__init__.pyc": pyc(1, ""), "Episode/__init__.pyc": pyc(1, "")}
	for i := range 30 {
		files["Episode/M"+string(rune('A'+i%26))+string(rune('a'+i/26))+"/x.pyc"] = pyc(1, "m")
	}
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, data, 0o644)
	}
	tr, err := LoadPushTree(dir)
	if err != nil {
		b.Fatal(err)
	}
	resp := codec.ChecksumResponse{DirHash: RequestDirHash(MultiplayerDir)}
	b.ReportAllocs()
	for b.Loop() {
		_ = tr.Diff(resp)
	}
}
