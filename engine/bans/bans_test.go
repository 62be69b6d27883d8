package bans

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseAndMatch(t *testing.T) {
	for _, tc := range []struct {
		entry string
		addr  string
		name  string
		match bool
	}{
		{"203.0.113.7", "203.0.113.7", "", true},
		{"203.0.113.7", "203.0.113.8", "", false},
		{"203.0.113.255", "203.0.113.8", "", true},
		{"203.0.255.255", "203.0.9.8", "", true},
		{"255.255.255.255", "1.2.3.4", "", true},
		{"203.0.113.255", "203.0.114.8", "", false},
		{"203.0.113.7", "::ffff:203.0.113.7", "", true},
		{"203.0.113.7", "2001:db8::1", "", false},
		{"name:Griefer", "", "griefer", true},
		{"name:Griefer", "", "GRIEFER", true},
		{"name: Griefer ", "", "Griefer", true},
		{"name:Griefer", "", "Griefer (2)", false},
		{"name:Ärger", "", "ärger", false}, // only A..Z fold, as stock
		{"name:Griefer", "203.0.113.7", "", false},
	} {
		e, err := Parse(tc.entry)
		if err != nil {
			t.Fatalf("%q: %v", tc.entry, err)
		}
		got := false
		if tc.addr != "" {
			got = e.MatchAddr(netip.MustParseAddr(tc.addr))
		} else {
			got = e.MatchName(tc.name)
		}
		if got != tc.match {
			t.Errorf("%q vs %q%q: %v", tc.entry, tc.addr, tc.name, got)
		}
	}
	for _, bad := range []string{"", "name:", "name:   ", "1.2.3", "1.2.3.256", "2001:db8::1", "bob", "name:" + strings.Repeat("x", 65)} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if e, _ := Parse(" 10.0.0.255 "); e.String() != "10.0.0.255" {
		t.Errorf("String %q", e.String())
	}
}

func TestFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "banlist.txt")
	// A missing file is an empty list; the first Add creates it.
	l, err := Load([]string{"192.0.2.255"}, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.BannedAddr(netip.MustParseAddr("192.0.2.9")); !ok {
		t.Fatal("fixed ban missing")
	}
	for _, s := range []string{"203.0.113.7", "name:Griefer"} {
		e, _ := Parse(s)
		if ok, err := l.Add(e); !ok || err != nil {
			t.Fatalf("add %s: %v %v", s, ok, err)
		}
	}
	if ok, err := l.Add(Entry{Name: "GRIEFER"}); ok || err != nil {
		t.Fatalf("duplicate added: %v %v", ok, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# bcserver ban list") || !strings.HasSuffix(string(b), "203.0.113.7\nname:Griefer\n") {
		t.Fatalf("file:\n%s", b)
	}
	// A host's comments survive a rewrite; removed entries go.
	if err := os.WriteFile(path, append(b, []byte("\n# the usual suspects\n198.51.100.255\r\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = Load([]string{"192.0.2.255"}, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries()) != 4 {
		t.Fatalf("entries %v", l.Entries())
	}
	if ok, err := l.Remove(Entry{Name: "griefer"}); !ok || err != nil {
		t.Fatalf("remove: %v %v", ok, err)
	}
	if ok, _ := l.Remove(Entry{Name: "nobody"}); ok {
		t.Fatal("removed a ban that was not there")
	}
	if _, err := l.Remove(Entry{IP: [4]byte{192, 0, 2, 255}}); err == nil {
		t.Fatal("removed a ban from the configuration")
	}
	b, _ = os.ReadFile(path)
	if strings.Contains(string(b), "Griefer") || !strings.Contains(string(b), "# the usual suspects\n198.51.100.255\n") {
		t.Fatalf("file after remove:\n%s", b)
	}
	if _, ok := l.BannedName("Griefer"); ok {
		t.Fatal("name still banned")
	}
	if e, ok := l.BannedAddr(netip.MustParseAddr("198.51.100.3")); !ok || e.String() != "198.51.100.255" {
		t.Fatalf("wildcard from the file: %v %v", e, ok)
	}
	// No temporary files are left behind.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("folder holds %d files", len(ents))
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "banlist.txt")
	if err := os.WriteFile(path, []byte("# ok\n1.2.3.4\nbogus line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(nil, path); err == nil || !strings.Contains(err.Error(), "banlist.txt:3") {
		t.Fatalf("error %v", err)
	}
	if _, err := Load([]string{"nope"}, ""); err == nil {
		t.Fatal("bad fixed entry accepted")
	}
	l, _ := Load(nil, "")
	if _, err := l.Add(Entry{Name: "x"}); err == nil {
		t.Fatal("added without a file")
	}
	// A file that cannot be replaced (here a folder in its place) leaves
	// the list unchanged and no temporary file behind.
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "banlist.txt", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	l = &List{path: filepath.Join(sub, "banlist.txt")}
	if _, err := l.Add(Entry{Name: "x"}); err == nil {
		t.Fatal("replaced a folder")
	}
	if len(l.Entries()) != 0 {
		t.Fatal("failed add changed the list")
	}
	if ents, _ := os.ReadDir(sub); len(ents) != 1 {
		t.Fatalf("%d files left", len(ents))
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte("# c\n1.2.3.255\nname:Bob\n"))
	f.Add([]byte("name:\xff\xfe\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "banlist.txt")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := Load(nil, path)
		if err != nil {
			return
		}
		for _, e := range l.Entries() {
			if again, err := Parse(e.String()); err != nil || !again.Same(e) {
				t.Fatalf("%q does not read back: %v", e.String(), err)
			}
		}
	})
}

// A name that would break the one-entry-per-line grammar (or hide what a
// line says) is refused, so no name can write a second entry into the
// file (issue 21); look-alike names match a name ban.
func TestHostileNameEntries(t *testing.T) {
	for _, s := range []string{"name:a\n10.9.9.9", "name:Grief\nnot-an-ip", "name:evil\u202Ex", "name:a\u2028b", "name:a\x00"} {
		if e, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", s, e)
		}
	}
	path := filepath.Join(t.TempDir(), "banlist.txt")
	l, err := Load(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Parse("name:Alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Add(e); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"alice", "Al\u200Bice", "Ａｌｉｃｅ"} {
		if _, hit := l.BannedName(n); !hit {
			t.Errorf("%q not banned by name:Alice", n)
		}
	}
	if _, err := Load(nil, path); err != nil {
		t.Fatalf("reloading: %v", err)
	}
}

func TestBroad(t *testing.T) {
	for _, c := range []struct {
		s     string
		broad bool
	}{
		{"255.255.255.255", true},
		{"255.0.0.1", true},
		{"0.0.0.0", true},
		{"127.0.0.1", true},
		{"127.255.255.255", true},
		{"203.0.113.255", false},
		{"10.255.255.255", false},
		{"203.0.113.7", false},
		{"name:Alice", false},
	} {
		e, err := Parse(c.s)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Broad() != ""; got != c.broad {
			t.Errorf("%s: broad %v (%q)", c.s, got, e.Broad())
		}
	}
}
