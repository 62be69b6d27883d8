//go:build unix

package modimport

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"

	"github.com/bcserver/bcserver/engine/ships"
)

// memCeiling is what one import may allocate in all, however hostile the
// tree: the total bounds the peak.
const memCeiling = 64 << 20

// allocated runs fn and returns the bytes the process allocated meanwhile
// (the test runs nothing else at the time).
func allocated(fn func()) uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	before := s[0].Value.Uint64()
	fn()
	metrics.Read(s)
	return s[0].Value.Uint64() - before
}

// hostileRows are the species of the hostile tree: each ship script names
// a hardpoint that attacks the importer one way.
var hostileRows = []struct {
	script, hardpoint string
	ok                bool   // imported (else relayed only)
	want              string // in the finding about the hardpoint
}{
	{"Mini", "mini", true, ""},
	{"AbsLink", "abslink", false, "symbolic link"},
	{"RelLink", "rellink", false, "symbolic link"},
	{"Zero", "zero", false, "symbolic link"},
	{"Fifo", "fifo", false, "not a regular file (a named pipe)"},
	{"Huge", "huge", false, "629145600 bytes, more than any game script"},
	{"Deep", "deep", false, "more than 200 nested brackets"},
	{"Deeper", "deeper", false, "more than 200 nested brackets"},
	{"BigNum", "bignum", false, "number 1e999 is beyond the game's 32-bit numbers"},
	{"Eclair", "\xe9clair", true, ""},
}

// writeHostileTree lays out a mod tree in root/scripts with every attack of
// issue 34 in it, and a file outside the tree the links point at.
func writeHostileTree(t *testing.T, root string) (scripts, secret string) {
	t.Helper()
	scripts = filepath.Join(root, "scripts")
	outside := filepath.Join(root, "outside")
	secret = filepath.Join(outside, "secret.py")
	write := func(p string, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A hardpoint that would import fine, with a name to look for.
	write(secret, strings.ReplaceAll(miniHardpoint, `"Mini"`, `"SECRET-MARKER"`))
	var tbl strings.Builder
	tbl.WriteString("import App\nUNKNOWN = 0\n")
	for i, r := range hostileRows {
		fmt.Fprintf(&tbl, "%s = %d\n", strings.ToUpper(r.script), i+1)
	}
	fmt.Fprintf(&tbl, "MAX_SHIPS = %d\nMAX_FLYABLE_SHIPS = %[1]d\nkSpeciesTuple = (\n\t(None, 0, \"Neutral\", 0),\n", len(hostileRows)+1)
	for _, r := range hostileRows {
		fmt.Fprintf(&tbl, "\t(%q, 200, \"Federation\", 1),\n", r.script)
		write(filepath.Join(scripts, "ships", r.script+".py"),
			strings.NewReplacer(`"mini"`, `"`+r.hardpoint+`"`, "MINI", strings.ToUpper(r.script)).Replace(miniShip))
	}
	tbl.WriteString(")\n")
	write(filepath.Join(scripts, "Multiplayer", "SpeciesToShip.py"), tbl.String())
	write(filepath.Join(scripts, "Multiplayer", "SpeciesToTorp.py"), miniTorps)
	hp := filepath.Join(scripts, "ships", "Hardpoints")
	write(filepath.Join(hp, "mini.py"), miniHardpoint)
	write(filepath.Join(hp, "\xe9clair.py"), miniHardpoint) // a Latin-1 name, as a Windows install has them
	write(filepath.Join(hp, "bignum.py"), strings.Replace(miniHardpoint, "Hull.SetMaxCondition(1000.000000)", "Hull.SetMaxCondition(1e999)", 1))
	write(filepath.Join(hp, "deep.py"), "x = "+strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000)+"\n")
	write(filepath.Join(hp, "deeper.py"), "x = "+strings.Repeat("(", 1000000)+"\n")
	for name, target := range map[string]string{
		"abslink.py": secret,
		"rellink.py": filepath.Join("..", "..", "..", "outside", "secret.py"),
		"zero.py":    "/dev/zero",
	} {
		if err := os.Symlink(target, filepath.Join(hp, name)); err != nil {
			t.Fatal(err)
		}
	}
	// A linked folder: the walk must not enter the host's root.
	if err := os.Symlink("/", filepath.Join(scripts, "Tactical")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(hp, "fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	// 600 MB that take no disk: reading it whole is the attack.
	f, err := os.Create(filepath.Join(hp, "huge.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(600 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return scripts, secret
}

// snapshot records every entry under root but skip (path, type, size,
// content hash of regular files), without following links.
func snapshot(t *testing.T, root, skip string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		v := fmt.Sprintf("%v %d", info.Mode(), info.Size())
		if info.Mode().IsRegular() && info.Size() < 1<<20 {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The importer over a tree built to hurt it (issue 34): file links out of
// the tree (absolute, relative, to /dev/zero), a linked folder, a named
// pipe, a 600 MB file, 100,000 and 1,000,000 nested brackets, a number
// beyond float32, a Latin-1 file name. It stays under the memory ceiling,
// refuses each with the file (and line) and what to do, takes nothing from
// outside the tree, and writing the pack changes nothing outside OUT_DIR.
func TestImportHostileTree(t *testing.T) {
	root := t.TempDir()
	scripts, _ := writeHostileTree(t, root)
	out := filepath.Join(root, "packs", "hostile")
	if err := os.Mkdir(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root, out)

	var p *Pack
	var err error
	n := allocated(func() { p, err = ImportDir(scripts, Options{Label: "hostile", Vanilla: ships.VanillaData()}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the import allocated %.1f MB", float64(n)/(1<<20))
	if n > memCeiling {
		t.Errorf("the import allocated %d bytes, more than the ceiling of %d", n, memCeiling)
	}
	rep := p.Report.String()
	for i, r := range hostileRows {
		imported := strings.Contains(rep, fmt.Sprintf("\n  %d %s: ", i+1, r.script))
		if imported != r.ok {
			t.Errorf("%s: imported %t, want %t", r.script, imported, r.ok)
		}
		if r.want == "" {
			continue
		}
		found := false
		for _, f := range p.Report.Findings {
			if f.Class == r.script && strings.Contains(f.File, r.hardpoint) && strings.Contains(f.Msg, r.want) && f.Fix != "" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no finding naming %s.py with %q", r.script, r.hardpoint, r.want)
		}
	}
	for _, want := range []string{
		"warning: Tactical: not read: a symbolic link",
		"ships/Hardpoints/deep.py:1: class Deep:",
		"ships/Hardpoints/bignum.py:6: class BigNum:",
		"10 Eclair: ship script and hardpoint from the folder (ships/Hardpoints/\u00e9clair.py)",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for name, b := range p.Files {
		if strings.Contains(string(b), "SECRET-MARKER") {
			t.Errorf("%s holds content from outside the tree", name)
		}
	}
	for _, f := range p.Report.Findings {
		if f.File == "" || f.Fix == "" {
			t.Errorf("finding without a place or a fix: %s", f)
		}
		for _, internal := range []string{"strconv.", "json:", "invalid argument", "loading data folder", "no such file", "open "} {
			if strings.Contains(f.String(), internal) {
				t.Errorf("internal error text in the report: %s", f)
			}
		}
	}

	if err := p.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, root, out); !equalMaps(before, after) {
		t.Errorf("writing the pack changed things outside OUT_DIR:\n%s", diffMaps(before, after))
	}
}

// Writing a pack: an existing folder is replaced only when it holds a pack
// and nothing else; a link planted in it, or a scripts folder given as
// OUT_DIR, is refused and nothing outside OUT_DIR changes.
func TestWriteDirHostileOutDir(t *testing.T) {
	p, err := Import(miniMod(nil), Options{Label: "mini"})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	target := filepath.Join(root, "elsewhere", "target.txt")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	pack := filepath.Join(root, "pack")
	if err := p.WriteDir(pack); err != nil {
		t.Fatal(err)
	}
	// A report.txt link planted in the pack.
	if err := os.Remove(filepath.Join(pack, "report.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(pack, "report.txt")); err != nil {
		t.Fatal(err)
	}
	// A scripts folder that holds a manifest.json of its own.
	scripts := filepath.Join(root, "scripts")
	for _, f := range []string{"manifest.json", "ships/Akira.py", "projectiles/x.json", "Multiplayer/SpeciesToShip.py"} {
		p := filepath.Join(scripts, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"version": "x", "ships": [], "projectiles": []}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linkedOut := filepath.Join(root, "linked")
	if err := os.Symlink(filepath.Join(root, "elsewhere"), linkedOut); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root, "")
	for _, tc := range []struct{ dir, want string }{
		{pack, "holds report.txt, which an import does not write"},
		{scripts, "holds Multiplayer, which an import does not write"},
		{linkedOut, "is a symbolic link"},
	} {
		err := p.WriteDir(tc.dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.dir, err, tc.want)
		}
	}
	if after := snapshot(t, root, ""); !equalMaps(before, after) {
		t.Errorf("refused writes changed files:\n%s", diffMaps(before, after))
	}
	// A pack with only its own files is replaced whole; an old
	// messages.json stays.
	fresh := filepath.Join(root, "fresh")
	if err := p.WriteDir(fresh); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fresh, messagesFile), []byte(`{"messages": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fresh, "ships", "mini", "ship.json"), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteDir(fresh); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "ships", "mini", "ship.json")); string(b) != string(p.Files["ships/mini/ship.json"]) {
		t.Error("the old pack's file survived")
	}
	if _, err := os.Stat(filepath.Join(fresh, messagesFile)); err != nil {
		t.Error("the old messages.json is gone")
	}
	if m, _ := filepath.Glob(filepath.Join(root, ".fresh*")); len(m) != 0 {
		t.Errorf("left behind: %v", m)
	}
}

// The species tables are bounded by the byte that names their rows, and a
// table the folder holds only compiled is named as such.
func TestImportTableBounds(t *testing.T) {
	for name, tc := range map[string]struct {
		edit map[string]string
		want string
	}{
		"MAX_TORPS": {map[string]string{"Multiplayer/SpeciesToTorp.py": "UNKNOWN = 0\nMAX_TORPS = 100000\nkSpeciesTuple = ((UNKNOWN, None),)\n"},
			"Multiplayer/SpeciesToTorp.py:2: MAX_TORPS = 100000: the index is one byte on the wire (0..255) (set MAX_TORPS to at most 256"},
		"MAX_SHIPS": {map[string]string{"Multiplayer/SpeciesToShip.py": strings.Replace(miniTable, "MAX_SHIPS = 2", "MAX_SHIPS = 300", 1)},
			"Multiplayer/SpeciesToShip.py:4: MAX_SHIPS = 300: the species is one byte"},
		"compiled only": {map[string]string{"Multiplayer/SpeciesToShip.py": "", "Multiplayer/SpeciesToShip.pyc": "\x99N\r\n"},
			"Multiplayer/SpeciesToShip.pyc: only the compiled table is in the folder; the importer reads Python source (decompile it into SpeciesToShip.py"},
	} {
		_, err := Import(miniMod(tc.edit), Options{})
		if !errors.Is(err, ErrNoPack) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %q", name, err, tc.want)
		}
	}
	// The star-system table is not needed for a pack: refused with a
	// warning, the pack built.
	p, err := Import(miniMod(map[string]string{"Multiplayer/SpeciesToSystem.py": "MAX_SYSTEMS = 100000\nkSpeciesTuple = ((0, None),)\n"}), Options{})
	if err != nil || !strings.Contains(p.Report.String(), "warning: Multiplayer/SpeciesToSystem.py:1: star-system table not read: MAX_SYSTEMS = 100000") {
		t.Errorf("%v\n%s", err, p.Report)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func diffMaps(a, b map[string]string) string {
	var s strings.Builder
	for k, v := range a {
		if b[k] != v {
			fmt.Fprintf(&s, "  %s: %q -> %q\n", k, v, b[k])
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			fmt.Fprintf(&s, "  new %s: %q\n", k, v)
		}
	}
	return s.String()
}
