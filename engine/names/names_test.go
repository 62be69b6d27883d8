package names

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in, want string
		changed  bool
	}{
		{"Alice", "Alice", false},
		{"Cady 2", "Cady 2", false},
		{"Griefer\n255.255.255.255", "Griefer 255.255.255.255", true},
		{"Grief\nnot-an-ip", "Grief not-an-ip", true},
		{"a\r\nb", "a b", true},
		{"evil\u202Egnp.exe", "evil gnp.exe", true},
		{"x\u2066y\u2069", "x y", true},
		{"tab\there", "tab here", true},
		{"del\x7f", "del", true},
		{"c1\u0085x", "c1 x", true},
		{"line\u2028para\u2029", "line para", true},
		{"  padded  ", "padded", true},
		{"\n\t", Fallback, true},
		{"", Fallback, true},
		{"Ünïcödé ☆", "Ünïcödé ☆", false},
		{"Al\u200Bice", "Al\u200Bice", false}, // zero width is not structure: Key handles it
	} {
		got, changed := Clean(c.in)
		if got != c.want || changed != c.changed {
			t.Errorf("Clean(%q) = %q, %v; want %q, %v", c.in, got, changed, c.want, c.changed)
		}
		if len(got) > len(c.in) && c.in != "" && got != Fallback {
			t.Errorf("Clean(%q) grew", c.in)
		}
		if strings.ContainsAny(got, "\r\n\u2028\u2029\u202E") {
			t.Errorf("Clean(%q) = %q keeps a line break or override", c.in, got)
		}
	}
}

func TestKey(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Alice", "alice", true},
		{"Alice", "Al\u200Bice", true},
		{"Alice", "\u200EAlice\u200F", true},
		{"Alice", "Ａｌｉｃｅ", true},       // full width
		{"Alice", "Ali\u00ADce", true}, // soft hyphen
		{"Alice", "Alice\uFE0F", true},
		{"A  B", "A B", true},
		{"ﬁsh", "fish", true},
		{"Alice", "Alicia", false},
		{"Äb", "äb", false},       // the stock fold is A..Z only
		{"Alice", "Аlice", false}, // Cyrillic A: a homoglyph, not a normal form
	} {
		if got := Same(c.a, c.b); got != c.same {
			t.Errorf("Same(%q, %q) = %v (keys %q, %q), want %v", c.a, c.b, got, Key(c.a), Key(c.b), c.same)
		}
	}
}

func TestValid(t *testing.T) {
	for _, s := range []string{"Alice", "Bob (2)", "Ünï"} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false", s)
		}
	}
	for _, s := range []string{"", " a", "a\nb", "a\u202Eb", "a\x00"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true", s)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"Alice", "a\nb", "\u202E", "Ａ\u200B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, _ := Clean(s)
		if !Valid(c) {
			t.Fatalf("Clean(%q) = %q is not Valid", s, c)
		}
		if strings.ContainsAny(c, "\r\n") {
			t.Fatalf("line break in %q", c)
		}
		_ = Key(s)
	})
}
