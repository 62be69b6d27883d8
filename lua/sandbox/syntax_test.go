package sandbox

import (
	"runtime"
	"strings"
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
	proto, err := Compile([]byte(src), "trim.lua", nil)
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

// hostileShapes are sources of about MaxSource bytes built to make the
// parser or the tree large: chains the LR parser stacks up before it
// reduces (unary operators, right-associative .. and ^), and chains it
// reduces as it goes but that nest in the tree (binary operators, fields,
// calls, indexing).
func hostileShapes() []struct {
	name, src string
	scan      bool // refused by the nesting scan, before the parser runs
} {
	fill := func(prefix, unit, suffix string) string {
		n := (MaxSource - len(prefix) - len(suffix)) / len(unit)
		return prefix + strings.Repeat(unit, n) + suffix
	}
	return []struct {
		name, src string
		scan      bool
	}{
		{"unary minus", fill("return ", "- ", "1"), true},
		{"not", fill("return ", "not ", "1"), true},
		{"length", fill("return ", "#", "t"), true},
		{"concat", fill("return a", "..a", ""), true},
		{"power", fill("return a", "^a", ""), true},
		{"mixed", fill("return a", "^-a..#a", ""), true},
		{"concat in brackets", fill("return a", "..(a)", ""), true},
		{"plus", fill("return a", "+a", ""), false},
		{"fields", fill("return a", ".b", ""), false},
		{"calls", fill("f", "'a'", ""), false},
		{"indexing", fill("return a", "[1]", ""), false},
	}
}

// Checking a hostile source stays within a small, fixed amount of memory
// whatever its shape (a 1 MB chain of unary operators took ~500 MB on its
// way to being refused). Measured as the bytes allocated while checking,
// which bounds the peak and does not depend on timing or on the collector.
func TestCheckingHostileSourceIsBoundedInMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("parses megabytes")
	}
	const scanBound, parseBound = 1 << 20, 96 << 20
	for _, tc := range hostileShapes() {
		src := []byte(tc.src)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Compile(src, "m.lua", nil)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		bound := uint64(parseBound)
		want := "nested too deeply"
		if tc.scan {
			bound = scanBound
			want = "expression nested too deeply (a chain of more than"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", tc.name, err, want)
		}
		if alloc > bound {
			t.Errorf("%s: checking %d KB allocated %d MB, more than %d MB", tc.name, len(tc.src)>>10, alloc>>20, bound>>20)
		}
		t.Logf("%-20s %4d KB: %6.1f MB allocated", tc.name, len(tc.src)>>10, float64(alloc)/(1<<20))
	}
}

// The chain count refuses nothing the tree check lets through: long
// chains within the limit, and runs that statements, commas, comparisons
// and brackets end, compile.
func TestOperatorChainsWithinLimitsCompile(t *testing.T) {
	for name, src := range map[string]string{
		"concat chain":       "return a" + strings.Repeat(" .. a", 100),
		"unary chain":        "return " + strings.Repeat("- ", 900) + "1",
		"statements":         strings.Repeat("s = s .. 'x' .. -1 .. #t\n", 2000),
		"statements no sep":  strings.Repeat("s = s .. 'x' t = -t ^ 2 ", 2000),
		"arguments":          strings.Repeat("f(a .. b, -c .. d, #e)\n", 2000),
		"table":              "t = {" + strings.Repeat("-1, 'a' .. 'b'; ", 2000) + "}",
		"comparisons":        "return a" + strings.Repeat(" .. a == a", 500),
		"numbers":            strings.Repeat("x = 1e-5 - 0x1e - 2 - .5 ^ 2\n", 2000),
		"brackets":           strings.Repeat("x = (a .. b) .. (c .. d)\n", 2000),
		"function expr":      strings.Repeat("f = function() return -1 end - 1\n", 500),
		"long strings":       strings.Repeat("s = [[ - - - ]] .. [==[..]==] -- - - -\n", 2000),
		"keywords end chain": strings.Repeat("if - a then return -b elseif not c then x = d .. e else y = -f end\n", 1000),
	} {
		if _, err := Compile([]byte(src), "m.lua", nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// gopher-lua's compiler runs out of registers on a long concatenation
	// long before the tree check, so the scan is checked alone here.
	if _, _, err := scanNesting([]byte("return a"+strings.Repeat(" .. a", maxOperatorChain)), "m.lua"); err != nil {
		t.Errorf("a chain of %d: %v", maxOperatorChain, err)
	}
}

// BenchmarkCheckHostileSource measures checking each hostile shape
// (B/op is what one check allocates).
func BenchmarkCheckHostileSource(b *testing.B) {
	for _, tc := range hostileShapes() {
		b.Run(strings.ReplaceAll(tc.name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			src := []byte(tc.src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				_, _ = Compile(src, "m.lua", nil)
			}
		})
	}
}
