package sandbox

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"
)

// MaxSource is the largest chunk of source a mission may load (a file, or
// a string given to load).
const MaxSource = 1 << 20

// Open opens the allow-listed standard library in L, metered by m: base
// without the functions that reach the disk or the raw VM, string, table,
// math; no io, os, debug, package, coroutine or channel. load and
// loadstring take source text only, under the nesting limits, charged to
// m; the string and table functions that do bulk work charge it too
// (guardLibs). require and print are the caller's to set.
func Open(L *glua.LState, m *Meter) error {
	for _, lib := range []struct {
		name string
		fn   glua.LGFunction
	}{{glua.BaseLibName, glua.OpenBase}, {glua.TabLibName, glua.OpenTable}, {glua.StringLibName, glua.OpenString}, {glua.MathLibName, glua.OpenMath}} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(glua.LString(lib.name))
		if err := L.PCall(1, 0, nil); err != nil {
			return fmt.Errorf("opening %s: %w", lib.name, err)
		}
	}
	for _, name := range []string{"dofile", "loadfile", "module", "require", "collectgarbage", "_printregs", "newproxy", "print", "load", "loadstring"} {
		L.SetGlobal(name, glua.LNil)
	}
	load := L.NewFunction(m.loadString)
	L.SetGlobal("load", load)
	L.SetGlobal("loadstring", load)
	m.guardLibs()
	return nil
}

// loadString is `load`/`loadstring` for source text only: gopher-lua has
// no bytecode loader, and function readers are refused so the chunk's size
// is known up front. The nesting limits apply as to files, and compiling
// is charged to the budget.
func (m *Meter) loadString(L *glua.LState) int {
	s, ok := L.Get(1).(glua.LString)
	if !ok {
		L.Push(glua.LNil)
		L.Push(glua.LString("load: only source strings are allowed"))
		return 2
	}
	if len(s) > MaxSource {
		L.Push(glua.LNil)
		L.Push(glua.LString(fmt.Sprintf("load: chunk of %d bytes is larger than %d", len(s), MaxSource)))
		return 2
	}
	name := L.OptString(2, "=(load)")
	m.Charge(L, int64(len(s)/BytesPerStep)) // the nesting scan
	proto, err := Compile([]byte(s), name, func() {
		m.Charge(L, int64(len(s)/CompileBytesPerStep))
	})
	if err != nil {
		L.Push(glua.LNil)
		L.Push(glua.LString(err.Error()))
		return 2
	}
	L.Push(L.NewFunctionFromProto(proto))
	return 1
}

// CompileBytesPerStep prices compiling source on the game goroutine.
const CompileBytesPerStep = 4
