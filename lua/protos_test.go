package lua

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/bcserver/bcserver/lua/sandbox"

	glua "github.com/yuin/gopher-lua"
)

func TestProtosReuseSameFileOnly(t *testing.T) {
	c := NewProtos()
	a := []byte("local x = 1\nreturn x\n")
	tests := []struct {
		name string
		path string
		src  []byte
		same bool // the first compile's proto comes back
	}{
		{"same path and bytes", "m/a.lua", a, true},
		{"another path", "m/b.lua", a, false}, // the path is in every error and traceback
		{"edited bytes", "m/a.lua", []byte("local x = 2\nreturn x\n"), false},
	}
	first, err := c.compile(a, "m/a.lua", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		p, err := c.compile(tt.src, tt.path, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if (p == first) != tt.same {
			t.Errorf("%s: reused = %v, want %v", tt.name, p == first, tt.same)
		}
	}
}

// A hit charges the budget as the compile it replaces would have.
func TestProtosChargeOnHit(t *testing.T) {
	c := NewProtos()
	n := 0
	charge := func() { n++ }
	for range 3 {
		if _, err := c.compile([]byte("return 1"), "m/a.lua", charge); err != nil {
			t.Fatal(err)
		}
	}
	if n != 3 {
		t.Fatalf("charged %d times for 3 compiles, want 3", n)
	}
}

// Failures are not kept: each caller gets the error (and the charge) of
// its own compile.
func TestProtosErrorsNotCached(t *testing.T) {
	c := NewProtos()
	for _, src := range []string{"x = = 1", "f(", strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500)} {
		_, want := sandbox.Compile([]byte(src), "m/bad.lua", nil)
		for range 2 {
			_, err := c.compile([]byte(src), "m/bad.lua", nil)
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Fatalf("%.20q: cached compile says %v, sandbox.Compile %v", src, err, want)
			}
		}
		c.Warm(fstest.MapFS{"m/main.lua": {Data: []byte(src)}}, nil, "m", nil)
	}
	if len(c.m) != 0 || c.bytes != 0 || len(c.versions) != 0 {
		t.Fatalf("failed compiles left %d entries, %d bytes, %d paths", len(c.m), c.bytes, len(c.versions))
	}
}

// Warm compiles main.lua and what it requires by name, transitively, and
// stops at cycles; what nothing requires is left alone.
func TestProtosWarm(t *testing.T) {
	fsys := fstest.MapFS{
		"m/main.lua":           {Data: []byte(`local u = require("util")` + "\n" + `local s = require 'shared.tools'`)},
		"m/util.lua":           {Data: []byte(`local again = require("main") return 1`)},
		"lib/shared/tools.lua": {Data: []byte(`return {}`)},
		"lib/unused.lua":       {Data: []byte(`return 2`)},
		"m/broken.lua":         {Data: []byte(`x = =`)},
		"addons/a/main.lua":    {Data: []byte(`require("helper")`)},
		"lib/helper.lua":       {Data: []byte(`return 3`)},
	}
	c := NewProtos()
	c.Warm(fsys, nil, "m", []string{"a"})
	var got []string
	for k := range c.m {
		got = append(got, k[:strings.IndexByte(k, 0)])
	}
	want := map[string]bool{"m/main.lua": true, "m/util.lua": true, "lib/shared/tools.lua": true, "addons/a/main.lua": true, "lib/helper.lua": true}
	if len(got) != len(want) {
		t.Fatalf("warmed %v, want %v", got, want)
	}
	for _, p := range got {
		if !want[p] {
			t.Fatalf("warmed %v, want %v", got, want)
		}
	}
	// The Runtime's source takes the warmed protos.
	src, err := compileSource(c, fsys, nil, "m", []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	if e := c.m["m/main.lua\x00"+string(fsys["m/main.lua"].Data)]; e == nil || src.main != e.proto {
		t.Fatal("compileSource compiled main.lua again instead of taking the warmed proto")
	}
}

// Warm and games compiling the same files at once: every caller gets a
// working proto and nobody waits forever (run with -race).
func TestProtosConcurrent(t *testing.T) {
	fsys := fstest.MapFS{
		"m/main.lua":   {Data: []byte(`local u = require("util") return u`)},
		"lib/util.lua": {Data: []byte(strings.Repeat("a = (a or 0) + 1\n", 200) + "return a")},
	}
	c := NewProtos()
	var wg sync.WaitGroup
	protos := make([]*glua.FunctionProto, 4)
	for i := range 4 {
		wg.Add(2)
		go func() { defer wg.Done(); c.Warm(fsys, nil, "m", nil) }()
		go func() {
			defer wg.Done()
			p, err := c.compile(fsys["lib/util.lua"].Data, "lib/util.lua", nil)
			if err != nil {
				t.Error(err)
			}
			protos[i] = p
		}()
	}
	wg.Wait()
	for i, p := range protos {
		if p == nil || len(p.Code) == 0 {
			t.Fatalf("caller %d got no proto", i)
		}
	}
}

// The keys are bounded: past the bound the cache starts over.
func TestProtosBound(t *testing.T) {
	c := NewProtos()
	c.claim("a", strings.Repeat("a", maxProtoSource-4))
	c.claim("b", "bbbbbbbb")
	if len(c.m) != 1 || c.bytes != 8 || len(c.versions) != 1 {
		t.Fatalf("after the bound: %d entries, %d bytes, %d paths; want 1, 8, 1", len(c.m), c.bytes, len(c.versions))
	}
}

// A host editing one file keeps the newest maxProtoVersions of it: the
// oldest goes, the newest is reused.
func TestProtosVersionsPerPath(t *testing.T) {
	c := NewProtos()
	var protos []*glua.FunctionProto
	for i := range maxProtoVersions + 3 {
		p, err := c.compile([]byte(fmt.Sprintf("return %d", i)), "m/main.lua", nil)
		if err != nil {
			t.Fatal(err)
		}
		protos = append(protos, p)
	}
	if len(c.m) != maxProtoVersions || len(c.versions["m/main.lua"]) != maxProtoVersions {
		t.Fatalf("%d entries, %d versions of the path; want %d", len(c.m), len(c.versions["m/main.lua"]), maxProtoVersions)
	}
	last := maxProtoVersions + 2
	if p, _ := c.compile([]byte(fmt.Sprintf("return %d", last)), "m/main.lua", nil); p != protos[last] {
		t.Fatal("the newest version was compiled again")
	}
	if p, _ := c.compile([]byte("return 0"), "m/main.lua", nil); p == protos[0] {
		t.Fatal("the oldest version is still cached")
	}
	want := 0
	for k := range c.m {
		want += len(k)
	}
	if c.bytes != want {
		t.Fatalf("bytes %d, keys hold %d", c.bytes, want)
	}
}

func TestLiteralRequires(t *testing.T) {
	src := `local a = require("a.b")
local b = require 'c'
local c = require ( "d" )
local x = myrequire("no")
local y = require(name)
local z = require("bad name")
-- require("e")
require"f"`
	got := strings.Join(literalRequires([]byte(src)), ",")
	if want := "a.b,c,d,e,f"; got != want {
		t.Fatalf("literalRequires = %s, want %s", got, want)
	}
}

// A compile whose budget charge raises (a panic in Go) leaves nothing
// behind: a waiter compiles for itself and the next caller compiles anew.
func TestProtosChargePanic(t *testing.T) {
	c := NewProtos()
	src := []byte("return 1")
	func() {
		defer func() { _ = recover() }()
		_, _ = c.compile(src, "m/a.lua", func() { panic("budget") })
	}()
	if len(c.m) != 0 || c.bytes != 0 || len(c.versions) != 0 {
		t.Fatalf("an abandoned compile left %d entries, %d bytes, %d paths", len(c.m), c.bytes, len(c.versions))
	}
	if p, err := c.compile(src, "m/a.lua", nil); err != nil || p == nil {
		t.Fatalf("after an abandoned compile: %v", err)
	}
}

// Warm stops at its source bound; what it leaves is compiled by the game.
func TestProtosWarmBounded(t *testing.T) {
	big := strings.Repeat("a = 1\n", (maxWarmSource*2/3)/6)
	fsys := fstest.MapFS{
		"m/main.lua":    {Data: []byte(`require("big") require("big2") require("small")`)},
		"lib/big.lua":   {Data: []byte(big)},
		"lib/big2.lua":  {Data: []byte(big)},
		"lib/small.lua": {Data: []byte("return 1")},
	}
	c := NewProtos()
	c.Warm(fsys, nil, "m", nil)
	if len(c.m) != 2 {
		t.Fatalf("warmed %d files, want main.lua and big.lua (big2.lua is past the bound)", len(c.m))
	}
}
