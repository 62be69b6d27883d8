package sandbox

import (
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// string.find, match, gmatch and gsub on the budgeted matcher
// (pattern.go), with Lua 5.1's argument rules.

const patternSpecials = "^$*+?.([%-"

// strFind is string.find and string.match (find false).
func (mi *Meter) strFind(find bool) glua.LGFunction {
	return func(L *glua.LState) int {
		src := L.CheckString(1)
		pat := L.CheckString(2)
		init := min(startIndex(L.OptInt(3, 1), len(src)), len(src))
		if find && (L.ToBool(4) || !strings.ContainsAny(pat, patternSpecials)) {
			mi.Charge(L, int64((len(src)-init)/BytesPerStep))
			if i := strings.Index(src[init:], pat); i >= 0 {
				L.Push(glua.LNumber(init + i + 1))
				L.Push(glua.LNumber(init + i + len(pat)))
				return 2
			}
			L.Push(glua.LNil)
			return 1
		}
		m := &matcher{L: L, meter: mi, src: src, pat: pat}
		p, anchor := 0, false
		if len(pat) > 0 && pat[0] == '^' {
			p, anchor = 1, true
		}
		s, e := m.run(init, anchor, p)
		m.flush()
		if s < 0 {
			L.Push(glua.LNil)
			return 1
		}
		if find {
			L.Push(glua.LNumber(s + 1))
			L.Push(glua.LNumber(e))
			return 2 + m.push(s, e, false)
		}
		return m.push(s, e, true)
	}
}

// startIndex converts a Lua 1-based, possibly negative, start position
// into a 0-based offset (str_find_aux).
func startIndex(i, n int) int {
	if i < 0 {
		i = n + i + 1
	}
	i--
	if i < 0 {
		return 0
	}
	return i
}

// strGmatch is string.gmatch: an iterator over successive matches. As in
// Lua 5.1, '^' is not an anchor here.
func (mi *Meter) strGmatch(L *glua.LState) int {
	src := L.CheckString(1)
	pat := L.CheckString(2)
	pos := 0
	L.Push(L.NewFunction(func(L *glua.LState) int {
		m := &matcher{L: L, meter: mi, src: src, pat: pat}
		for ; pos <= len(src); pos++ {
			m.level = 0
			if e := m.match(pos, 0); e >= 0 {
				s := pos
				pos = e
				if e == s {
					pos++ // an empty match: move on
				}
				m.flush()
				return m.push(s, e, true)
			}
		}
		m.flush()
		return 0
	}))
	return 1
}

// strGsub is string.gsub(s, pattern, repl [, n]) with the result capped
// at the string cap.
func (mi *Meter) strGsub(L *glua.LState) int {
	src := L.CheckString(1)
	pat := L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case glua.LTString, glua.LTNumber, glua.LTTable, glua.LTFunction:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := L.OptInt(4, len(src)+1)
	m := &matcher{L: L, meter: mi, src: src, pat: pat}
	p, anchor := 0, false
	if len(pat) > 0 && pat[0] == '^' {
		p, anchor = 1, true
	}
	var b strings.Builder
	add := func(s string) {
		if b.Len()+len(s) > mi.maxString {
			L.RaiseError("string.gsub: result exceeds the %d-byte string cap", mi.maxString)
		}
		mi.ChargeBytes(L, "string.gsub", len(s))
		b.WriteString(s)
	}
	s, n := 0, 0
loop:
	for n < maxN {
		m.level = 0
		e := m.match(s, p)
		if e >= 0 {
			n++
			add(mi.gsubValue(m, repl, s, e))
		}
		switch {
		case e >= 0 && e > s:
			s = e
		case s < len(src):
			add(src[s : s+1])
			s++
		default:
			break loop
		}
		if anchor {
			break
		}
	}
	if s < len(src) {
		add(src[s:])
	}
	m.flush()
	L.Push(glua.LString(b.String()))
	L.Push(glua.LNumber(n))
	return 2
}

// gsubValue is the replacement for one match src[s:e].
func (mi *Meter) gsubValue(m *matcher, repl glua.LValue, s, e int) string {
	L := m.L
	whole := m.src[s:e]
	var v glua.LValue
	switch r := repl.(type) {
	case glua.LString, glua.LNumber:
		rs := r.String()
		var b strings.Builder
		for i := 0; i < len(rs); i++ {
			c := rs[i]
			if c != '%' || i+1 == len(rs) {
				b.WriteByte(c)
				continue
			}
			i++
			switch d := rs[i]; {
			case d == '0':
				b.WriteString(whole)
			case isDigit(d):
				b.WriteString(m.value(int(d-'1'), s, e).String())
			default:
				b.WriteByte(d)
			}
			if b.Len() > mi.maxString {
				L.RaiseError("string.gsub: result exceeds the %d-byte string cap", mi.maxString)
			}
		}
		return b.String()
	case *glua.LTable:
		v = L.GetTable(r, m.value(0, s, e))
	case *glua.LFunction:
		top := L.GetTop()
		L.Push(r)
		n := m.push(s, e, true)
		L.Call(n, 1)
		v = L.Get(-1)
		L.SetTop(top)
	}
	switch v := v.(type) {
	case *glua.LNilType:
		return whole
	case glua.LBool:
		if !bool(v) {
			return whole
		}
	case glua.LString, glua.LNumber:
		return v.String()
	}
	L.RaiseError("invalid replacement value (a %s)", v.Type().String())
	return ""
}
