package lua

// nameByte reports whether c may stand in a name a mission gives (a
// command, a custom event, a module path): an ASCII digit, a lowercase
// letter, an uppercase one unless lowerOnly, or one of extra.
func nameByte(c byte, lowerOnly bool, extra string) bool {
	switch {
	case c >= '0' && c <= '9', c >= 'a' && c <= 'z':
		return true
	case c >= 'A' && c <= 'Z':
		return !lowerOnly
	}
	for i := 0; i < len(extra); i++ {
		if extra[i] == c {
			return true
		}
	}
	return false
}
