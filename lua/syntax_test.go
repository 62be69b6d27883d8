package lua

import (
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// A compiled chunk keeps no compiler buffers: every function's slices are
// exactly as long as their contents (they were ~20 KB per function).
func TestCompiledProtoTrimmed(t *testing.T) {
	src := `
		local function f(a) return function(b) return a + b end end
		local t = {}
		for i = 1, 3 do t[i] = f(i)(i) end
		return t
	`
	proto, err := compileChunk([]byte(src), "trim.lua", nil)
	if err != nil {
		t.Fatal(err)
	}
	funcs := 0
	var check func(p *glua.FunctionProto)
	check = func(p *glua.FunctionProto) {
		funcs++
		if cap(p.Code) != len(p.Code) || cap(p.DbgSourcePositions) != len(p.DbgSourcePositions) ||
			cap(p.Constants) != len(p.Constants) || cap(p.DbgCalls) != len(p.DbgCalls) ||
			cap(p.FunctionPrototypes) != len(p.FunctionPrototypes) {
			t.Errorf("%s:%d: code %d/%d lines %d/%d constants %d/%d calls %d/%d", p.SourceName, p.LineDefined,
				len(p.Code), cap(p.Code), len(p.DbgSourcePositions), cap(p.DbgSourcePositions),
				len(p.Constants), cap(p.Constants), len(p.DbgCalls), cap(p.DbgCalls))
		}
		for _, c := range p.FunctionPrototypes {
			check(c)
		}
	}
	check(proto)
	if funcs != 3 {
		t.Fatalf("%d functions, want 3", funcs)
	}
	// The trimmed chunk still runs.
	L := glua.NewState()
	defer L.Close()
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, 1, nil); err != nil {
		t.Fatal(err)
	}
	if got := L.RawGetInt(L.Get(-1).(*glua.LTable), 3); got.(glua.LNumber) != 6 {
		t.Fatalf("t[3] = %v, want 6", got)
	}
}
