package names

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// The stock client's 8-bit text (chat lines, the names in game-layer
// messages) is in the Windows code page of a western install: 1252. It is
// decoded once, where it enters the server (the engine's chat), and
// encoded once where the server writes it; everything between holds
// UTF-8.
var cp1252 = charmap.Windows1252

// Decode returns the client's 8-bit text as UTF-8 ("gr\xfc\xdfe" is
// "grüße"). Bytes the code page leaves undefined keep their Latin-1
// meaning (C1 controls, which CleanText takes out).
func Decode(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/4)
	for _, c := range b {
		if c < utf8.RuneSelf {
			sb.WriteByte(c)
			continue
		}
		sb.WriteRune(cp1252.DecodeByte(c))
	}
	return sb.String()
}

// AppendEncode appends s in the client's code page to dst: characters the
// code page cannot hold become '?'.
func AppendEncode(dst []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
			continue
		}
		if b, ok := cp1252.EncodeRune(r); ok {
			dst = append(dst, b)
			continue
		}
		dst = append(dst, '?')
	}
	return dst
}

// Encode returns s in the client's code page (AppendEncode).
func Encode(s string) []byte { return AppendEncode(make([]byte, 0, len(s)), s) }

// CleanText returns a line of chat (already UTF-8) fit to show as one
// line anywhere: control characters (a newline that would draw a second,
// forged line), line and paragraph separators and bidi controls (a
// right-to-left override that turns the text around) become a space, runs
// of spaces fold into one and the ends are trimmed; invalid UTF-8 becomes
// U+FFFD. Unlike Clean, an empty result stays empty.
func CleanText(s string) string {
	if cleanASCII(s) {
		return s
	}
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafe(r) || r != ' ' && unicode.IsSpace(r) {
			clean = false
			break
		}
	}
	if clean && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ") && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		if unsafe(r) || unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				space = true
			}
			continue
		}
		b.WriteRune(r)
		space = false
	}
	return strings.TrimSuffix(b.String(), " ")
}

// cleanASCII reports whether s is printable ASCII with single spaces
// inside it only: the common line, which needs no copy (checked a byte at
// a time; the Unicode tables cost ten times as much).
func cleanASCII(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == ' ' && prev == ' ' {
			return false
		}
		prev = c
	}
	return prev != ' ' || len(s) == 0
}

// Ellipsis returns s cut to at most n characters, the last of them "…"
// when it was cut: a name as long as the client allows must not push a
// table's columns out of view.
func Ellipsis(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n-1 {
			break
		}
		k++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// Empty reports whether a name shows as nothing: once cleaned and with
// its invisible characters dropped (Key) nothing is left. Such a name is
// refused at admission: it would show blank everywhere, and every career
// would be one.
func Empty(name string) bool { return Key(name) == "" }
