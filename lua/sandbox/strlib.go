package sandbox

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// The parts of the standard library that do work in Go proportional to
// their arguments are replaced or wrapped here, so that work is charged
// to the mission's budget before it is done and results stay under the
// string cap (Options.MaxString). The rest of string/table/base is O(1)
// per call or bounded by values that are already capped.

// maxUnpack bounds the values unpack and string.byte push (PUC Lua's
// "too many results to unpack" at LUAI_MAXCSTACK = 8000).
const maxUnpack = 8000

func (m *Meter) guardLibs() {
	L := m.L
	fn := func(t *glua.LTable, name string, f glua.LGFunction) { t.RawSetString(name, L.NewFunction(f)) }
	orig := func(t *glua.LTable, name string) *glua.LFunction { return t.RawGetString(name).(*glua.LFunction) }

	str := L.GetGlobal("string").(*glua.LTable)
	str.RawSetString("dump", glua.LNil)
	fn(str, "find", m.strFind(true))
	fn(str, "match", m.strFind(false))
	fn(str, "gmatch", m.strGmatch)
	fn(str, "gsub", m.strGsub)
	fn(str, "rep", m.strRep)
	format := orig(str, "format")
	fn(str, "format", func(L *glua.LState) int {
		f := L.CheckString(1)
		if err := checkFormat(f); err != nil {
			L.RaiseError("string.format: %v", err)
		}
		// The strings formatted are charged (and capped) before the call,
		// the result after: it exceeds them by at most 999 characters of
		// padding per directive.
		n := len(f)
		for i := 2; i <= L.GetTop(); i++ {
			if s, ok := L.Get(i).(glua.LString); ok {
				n += len(s)
			}
		}
		m.ChargeBytes(L, "string.format", n)
		r := m.callOrig(format)
		if s, ok := L.Get(-1).(glua.LString); ok && len(s) > m.maxString {
			L.RaiseError("string.format: result of %d bytes exceeds the %d-byte string cap", len(s), m.maxString)
		}
		return r
	})
	for _, name := range []string{"upper", "lower", "reverse"} {
		f := orig(str, name)
		qualified := "string." + name
		fn(str, name, func(L *glua.LState) int {
			m.ChargeBytes(L, qualified, len(L.CheckString(1)))
			return m.callOrig(f)
		})
	}
	byteFn := orig(str, "byte")
	fn(str, "byte", func(L *glua.LState) int {
		s := L.CheckString(1)
		i := startIndex(L.OptInt(2, 1), len(s))
		j := L.OptInt(3, i+1)
		if j < 0 {
			j = len(s) + j + 1
		}
		if j-i > maxUnpack {
			L.RaiseError("string.byte: too many results (%d, at most %d)", j-i, maxUnpack)
		}
		m.Charge(L, int64(max(j-i, 0)/8))
		return m.callOrig(byteFn)
	})

	tbl := L.GetGlobal("table").(*glua.LTable)
	fn(tbl, "concat", m.tableConcat)
	for _, name := range []string{"insert", "remove", "maxn", "getn"} {
		f := orig(tbl, name)
		fn(tbl, name, func(L *glua.LState) int {
			// Inserting or removing at a position moves the rest of the
			// array; maxn scans it.
			if t, ok := L.Get(1).(*glua.LTable); ok {
				m.Charge(L, int64(tableArrayLen(t)/8))
				if name == "insert" && L.GetTop() >= 3 {
					m.checkPadding(L, "table.insert", t, L.Get(2))
				}
			}
			return m.callOrig(f)
		})
	}
	rawset := orig(L.G.Global, "rawset")
	fn(L.G.Global, "rawset", func(L *glua.LState) int {
		if t, ok := L.Get(1).(*glua.LTable); ok {
			m.checkPadding(L, "rawset", t, L.Get(2))
		}
		return m.callOrig(rawset)
	})
	sortFn := orig(tbl, "sort")
	fn(tbl, "sort", func(L *glua.LState) int {
		if t, ok := L.Get(1).(*glua.LTable); ok {
			n := tableArrayLen(t)
			m.Charge(L, int64(n*bits.Len(uint(n))))
		}
		return m.callOrig(sortFn)
	})
	L.SetGlobal("unpack", L.NewFunction(m.unpack))
}

// checkPadding is the meter's array padding check for Go functions that
// store t[key] (see meter.arrayPadding).
func (m *Meter) checkPadding(L *glua.LState, what string, t *glua.LTable, key glua.LValue) {
	if err := m.arrayPadding(t, key, true); err != nil {
		L.RaiseError("%s: %v", what, err)
	}
	m.Charge(L, 0)
}

// callOrig calls a library function with the current arguments and
// returns its results.
func (m *Meter) callOrig(f *glua.LFunction) int {
	L := m.L
	top := L.GetTop()
	L.Push(f)
	for i := 1; i <= top; i++ {
		L.Push(L.Get(i))
	}
	L.Call(top, glua.MultRet)
	return L.GetTop() - top
}

func (m *Meter) strRep(L *glua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || len(s) == 0 {
		L.Push(glua.LString(""))
		return 1
	}
	if n > m.maxString/len(s) {
		L.RaiseError("string.rep: result of %d x %d bytes exceeds the %d-byte string cap", n, len(s), m.maxString)
	}
	m.ChargeBytes(L, "string.rep", len(s)*n)
	L.Push(glua.LString(strings.Repeat(s, n)))
	return 1
}

// tableConcat is table.concat(t [, sep [, i [, j]]]) with the result
// length known, capped and charged before it is built.
func (m *Meter) tableConcat(L *glua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := L.OptInt(3, 1)
	j := L.OptInt(4, t.Len())
	if i > j {
		L.Push(glua.LString(""))
		return 1
	}
	// i <= j, so the unsigned difference is exact even where j-i
	// overflows int (unpack({}, -9e18, 9e18)).
	if uint(j-i) >= uint(m.maxString) {
		L.RaiseError("table.concat: %d elements exceed the %d-byte string cap", j-i+1, m.maxString)
	}
	m.Charge(L, int64(j-i+1)/4)
	n := 0
	for k := i; k <= j; k++ {
		v := t.RawGetInt(k)
		switch v := v.(type) {
		case glua.LString:
			n += len(v)
		case glua.LNumber:
			n += 24
		default:
			L.RaiseError("table.concat: invalid value (a %s) at index %d", v.Type().String(), k)
		}
		if k < j {
			n += len(sep)
		}
		if n > m.maxString {
			break
		}
	}
	m.ChargeBytes(L, "table.concat", n)
	var b strings.Builder
	b.Grow(n)
	for k := i; k <= j; k++ {
		b.WriteString(t.RawGetInt(k).String())
		if k < j {
			b.WriteString(sep)
		}
	}
	L.Push(glua.LString(b.String()))
	return 1
}

// unpack is unpack(t [, i [, j]]) with at most maxUnpack results.
func (m *Meter) unpack(L *glua.LState) int {
	t := L.CheckTable(1)
	i := L.OptInt(2, 1)
	j := L.OptInt(3, t.Len())
	if i > j {
		return 0
	}
	if uint(j-i) >= maxUnpack { // exact for i <= j, as in tableConcat
		L.RaiseError("unpack: too many results (%d, at most %d)", j-i+1, maxUnpack)
	}
	m.Charge(L, int64(j-i+1)/8)
	for k := i; k <= j; k++ {
		L.Push(t.RawGetInt(k))
	}
	return j - i + 1
}

// checkFormat accepts Lua 5.1's conversions only ('%' flags, width,
// precision, one of "cdiouxXeEfgGqs", or "%%") with widths and precisions
// up to 999. gopher-lua hands the format to Go's fmt.Sprintf: a width of
// "%999999999d" would allocate megabytes, and Go's own verbs ("%#v") print
// a table's whole contents by reflection, unbudgeted. Digits outside a
// directive ("%d of 10000") are plain text.
func checkFormat(f string) error {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		for part := 0; part < 2; part++ {
			run := 0
			for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				run++
			}
			if run > 3 {
				return errors.New("width or precision above 999")
			}
			if part == 0 && i < len(f) && f[i] == '.' {
				i++
				continue
			}
			break
		}
		if i >= len(f) {
			return errors.New("invalid conversion at the end of the format")
		}
		if strings.IndexByte("cdiouxXeEfgGqs", f[i]) < 0 {
			return fmt.Errorf("invalid conversion '%%%c' (Lua 5.1's are %%c %%d %%i %%o %%u %%x %%X %%e %%E %%f %%g %%G %%q %%s)", f[i])
		}
	}
	return nil
}
