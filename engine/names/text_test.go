package names

import (
	"strings"
	"testing"
)

func TestDecodeEncode(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		text string
	}{
		{"gr\xfc\xdfe aus M\xfcnchen", "grüße aus München"},
		{"\x80 5 \x8a\x9a", "€ 5 Šš"},
		{"plain", "plain"},
		{"", ""},
	} {
		if got := Decode([]byte(tc.raw)); got != tc.text {
			t.Errorf("Decode(%q) = %q, want %q", tc.raw, got, tc.text)
		}
		if got := string(Encode(tc.text)); got != tc.raw {
			t.Errorf("Encode(%q) = %q, want %q", tc.text, got, tc.raw)
		}
	}
	if got := string(Encode("日本")); got != "??" {
		t.Errorf("characters outside the code page: %q", got)
	}
}

// Chat can hold nothing that draws a second line, turns text around or
// reaches a terminal as a control sequence.
func TestCleanText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"hello", "hello"},
		{"gg\nhost: everyone is banned", "gg host: everyone is banned"},
		{"\r\n\t  spaced   out  ", "spaced out"},
		{"abc\u202edef", "abc def"},
		{"\x1b[31mred\x1b[0m", "[31mred [0m"},
		{"nul\x00byte", "nul byte"},
		{"c1\u009bcsi", "c1 csi"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"\u2028", ""},
		{"", ""},
	} {
		got := CleanText(tc.in)
		if got != tc.want {
			t.Errorf("CleanText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsAny(got, "\n\r\x00\x1b\u202e") {
			t.Errorf("CleanText(%q) kept a control: %q", tc.in, got)
		}
	}
}

func TestEllipsis(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"Alice", 24, "Alice"},
		{strings.Repeat("W", 64), 24, strings.Repeat("W", 23) + "…"},
		{"Ärger Ärger Ärger", 7, "Ärger…"},
		{"ab", 2, "ab"},
	} {
		if got := Ellipsis(tc.in, tc.n); got != tc.want {
			t.Errorf("Ellipsis(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestEmpty(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"\u200b\u200b\u200b", true},
		{"\u200b \u2060\ufeff", true},
		{"\u202e\u202d", true},
		{"A\u200b", false},
		{"Player", false},
	} {
		if got := Empty(tc.in); got != tc.want {
			t.Errorf("Empty(%q) = %v", tc.in, got)
		}
	}
}
