package sandbox

import glua "github.com/yuin/gopher-lua"

// A Lua 5.1 pattern matcher (the semantics of lstrlib.c: classes, sets,
// quantifiers * + - ?, anchors, captures and position captures, %1-%9
// back-references, %b and %f) that charges every step to the mission's
// budget. gopher-lua's own matcher backtracks without any bound, so a
// plausible pattern on a short chat line can run for seconds inside one
// VM instruction, where the instruction budget cannot see it. Like PUC
// Lua, recursion is capped at maxMatchDepth ("pattern too complex").

const (
	maxCaptures   = 32
	maxMatchDepth = 200
	capUnfinished = -1
	capPosition   = -2
	// Steps are flushed to the meter in batches; a batch is a few µs.
	matchBatch = 1024
)

type capture struct{ init, len int }

type matcher struct {
	L       *glua.LState
	meter   *Meter
	src     string
	pat     string
	level   int
	depth   int
	steps   int64
	capture [maxCaptures]capture
}

func (m *matcher) step() {
	m.steps++
	if m.steps >= matchBatch {
		m.meter.Charge(m.L, m.steps)
		m.steps = 0
	}
}

func (m *matcher) flush() {
	m.meter.Charge(m.L, m.steps)
	m.steps = 0
}

func (m *matcher) fail(format string, args ...any) {
	m.L.RaiseError(format, args...)
}

// classEnd returns the index just after the single-character class at p.
func (m *matcher) classEnd(p int) int {
	pat := m.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			m.fail("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for {
			if p >= len(pat) {
				m.fail("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p >= len(pat) {
				m.fail("malformed pattern (missing ']')")
			}
			if pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlpha(c byte) bool { return isLower(c) || isUpper(c) }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isCntrl(c byte) bool { return c < 32 || c == 127 }
func isPunct(c byte) bool { return c > 32 && c < 127 && !isAlpha(c) && !isDigit(c) }
func isXDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func matchClass(c, cl byte) bool {
	var res bool
	switch cl | 0x20 {
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = isCntrl(c)
	case 'd':
		res = isDigit(c)
	case 'l':
		res = isLower(c)
	case 'p':
		res = isPunct(c)
	case 's':
		res = isSpace(c)
	case 'u':
		res = isUpper(c)
	case 'w':
		res = isAlpha(c) || isDigit(c)
	case 'x':
		res = isXDigit(c)
	case 'z':
		res = c == 0
	default:
		return cl == c
	}
	if isUpper(cl) {
		return !res
	}
	return res
}

// matchBracket matches c against the set pat[p] = '[' ... pat[ec] = ']'.
func (m *matcher) matchBracket(c byte, p, ec int) bool {
	pat := m.pat
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		m.step()
		switch {
		case pat[p] == '%':
			p++
			if matchClass(c, pat[p]) {
				return sig
			}
		case pat[p+1] == '-' && p+2 < ec:
			p += 2
			if pat[p-2] <= c && c <= pat[p] {
				return sig
			}
		case pat[p] == c:
			return sig
		}
	}
	return !sig
}

func (m *matcher) single(s, p, ep int) bool {
	if s >= len(m.src) {
		return false
	}
	c := m.src[s]
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.pat[p+1])
	case '[':
		return m.matchBracket(c, p, ep-1)
	}
	return m.pat[p] == c
}

// match returns the end of the match of pat[p:] at src[s:], or -1.
func (m *matcher) match(s, p int) int {
	m.depth++
	if m.depth > maxMatchDepth {
		m.fail("pattern too complex")
	}
	defer func() { m.depth-- }()
	pat, src := m.pat, m.src
	for {
		m.step()
		if p >= len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch c := pat[p+1]; {
				case c == 'b':
					s = m.matchBalance(s, p+2)
					if s < 0 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						m.fail("missing '[' after '%%f' in pattern")
					}
					ep := m.classEnd(p)
					var prev, cur byte
					if s > 0 {
						prev = src[s-1]
					}
					if s < len(src) {
						cur = src[s]
					}
					if !m.matchBracket(prev, p, ep-1) && m.matchBracket(cur, p, ep-1) {
						p = ep
						continue
					}
					return -1
				case isDigit(c):
					s = m.matchCapture(s, c)
					if s < 0 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		// default: a single-character class, possibly quantified
		ep := m.classEnd(p)
		ok := m.single(s, p, ep)
		if ep < len(pat) {
			switch pat[ep] {
			case '?':
				if ok {
					if r := m.match(s+1, ep+1); r >= 0 {
						return r
					}
				}
				p = ep + 1
				continue
			case '*':
				return m.maxExpand(s, p, ep)
			case '+':
				if !ok {
					return -1
				}
				return m.maxExpand(s+1, p, ep)
			case '-':
				return m.minExpand(s, p, ep)
			}
		}
		if !ok {
			return -1
		}
		s++
		p = ep
	}
}

func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for m.single(s+i, p, ep) {
		m.step()
		i++
	}
	for ; i >= 0; i-- {
		if r := m.match(s+i, ep+1); r >= 0 {
			return r
		}
	}
	return -1
}

func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if r := m.match(s, ep+1); r >= 0 {
			return r
		}
		if !m.single(s, p, ep) {
			return -1
		}
		s++
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.fail("too many captures")
	}
	m.capture[m.level] = capture{s, what}
	m.level++
	r := m.match(s, p)
	if r < 0 {
		m.level--
	}
	return r
}

func (m *matcher) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.capture[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		m.fail("invalid pattern capture")
	}
	m.capture[l].len = s - m.capture[l].init
	r := m.match(s, p)
	if r < 0 {
		m.capture[l].len = capUnfinished
	}
	return r
}

func (m *matcher) matchCapture(s int, c byte) int {
	l := int(c - '1')
	if l < 0 || l >= m.level || m.capture[l].len == capUnfinished {
		m.fail("invalid capture index")
	}
	n := m.capture[l].len
	if n < 0 {
		return -1 // a position capture: PUC Lua's size_t compare never matches
	}
	m.meter.Charge(m.L, int64(n/BytesPerStep))
	init := m.capture[l].init
	if len(m.src)-s >= n && m.src[init:init+n] == m.src[s:s+n] {
		return s + n
	}
	return -1
}

func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.fail("missing arguments to '%%b'")
	}
	if s >= len(m.src) || m.src[s] != m.pat[p] {
		return -1
	}
	b, e := m.pat[p], m.pat[p+1]
	cont := 1
	for s++; s < len(m.src); s++ {
		m.step()
		switch m.src[s] {
		case e:
			cont--
			if cont == 0 {
				return s + 1
			}
		case b:
			cont++
		}
	}
	return -1
}

// value returns capture i of a match src[s:e] (the whole match when the
// pattern has no captures and i is 0).
func (m *matcher) value(i, s, e int) glua.LValue {
	if i >= m.level {
		if i == 0 {
			return glua.LString(m.src[s:e])
		}
		m.fail("invalid capture index")
	}
	c := m.capture[i]
	switch c.len {
	case capUnfinished:
		m.fail("unfinished capture")
	case capPosition:
		return glua.LNumber(c.init + 1)
	}
	return glua.LString(m.src[c.init : c.init+c.len])
}

// push pushes the captures of a match (or the whole match) and returns
// their count. wholeIfNone is false for find, which pushes only captures.
func (m *matcher) push(s, e int, wholeIfNone bool) int {
	n := m.level
	if n == 0 && wholeIfNone {
		n = 1
	}
	for i := 0; i < n; i++ {
		m.L.Push(m.value(i, s, e))
	}
	return n
}

// run tries the pattern at every start from init (only init when
// anchored) and returns the first match.
func (m *matcher) run(init int, anchor bool, p int) (int, int) {
	for s := init; s <= len(m.src); s++ {
		m.level = 0
		if e := m.match(s, p); e >= 0 {
			return s, e
		}
		if anchor {
			break
		}
	}
	return -1, -1
}
