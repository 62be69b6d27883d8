// Package names treats player names as data, never as structure. A name
// comes from the client's identity message (transport.md 4.5), where a
// modified client can put any UTF-16 text: line breaks that would add a
// line to the ban file or the log, a right-to-left override that turns the
// rest of a log line around, zero-width characters that make "Al\u200Bice"
// look exactly like "Alice".
//
// Clean removes what would break a line-based format or the way text is
// shown; Key is the form two names are compared in, so look-alikes clash.
package names

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fallback is the name given to a player whose name is empty once cleaned.
const Fallback = "Player"

// unsafe reports a character Clean takes out of a name: control
// characters (C0, DEL, C1), the line and paragraph separators, and the
// bidirectional controls (embeddings, overrides, isolates and the
// left-to-right/right-to-left/Arabic letter marks).
func unsafe(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
		unicode.Is(unicode.Bidi_Control, r)
}

// Clean returns name with every control, line-separator and bidi control
// character replaced by a space, runs of spaces folded into one and the
// ends trimmed; an empty result becomes Fallback. changed reports whether
// the result differs from name. Clean never makes a name longer.
func Clean(name string) (clean string, changed bool) {
	var b strings.Builder
	b.Grow(len(name))
	space := true // at the start: drop leading spaces
	for _, r := range name {
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
	clean = strings.TrimSuffix(b.String(), " ")
	if clean == "" {
		clean = Fallback
	}
	return clean, clean != name
}

// Valid reports whether name is already clean: what a line-based file
// (the ban list) accepts as a name.
func Valid(name string) bool {
	c, changed := Clean(name)
	return !changed && c != ""
}

// invisible reports a character Key drops: formatting characters (zero
// widths, joiners, bidi marks, the soft hyphen, the BOM) and the other
// default-ignorable code points (variation selectors, fillers), which
// change nothing a player sees.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unsafe(r)
}

// Key returns the form in which two names are compared: Unicode NFKC (so
// full-width "Ａｌｉｃｅ" and ligatures match their plain forms), invisible
// characters removed, spaces folded, and A..Z folded to a..z the way the
// stock host compares names and passwords (_wcsicmp in the C locale,
// transport.md 4.5). Names with the same Key look alike.
func Key(name string) string {
	s := norm.NFKC.String(name)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch {
		case invisible(r):
			continue
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
			continue
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		}
		b.WriteRune(r)
		space = false
	}
	return strings.TrimSuffix(b.String(), " ")
}

// Same reports whether two names look alike (equal Keys).
func Same(a, b string) bool {
	if a == b {
		return true
	}
	return Key(a) == Key(b)
}
