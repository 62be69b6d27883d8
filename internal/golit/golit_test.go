package golit

import (
	"bytes"
	"go/format"
	"html/template"
	"image"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	ttemplate "text/template"
	"time"
	"unique"
)

type inner struct {
	N    int
	Tags []string
}

type sample struct {
	Name   string
	Hash   uint32
	On     bool
	Scale  float32
	Pos    [3]float32
	Opt    *float32
	Opt2   *float32
	Same   *float32
	Empty  []int
	Nil    []int
	Skip   string `json:"-"`
	Zero   int
	Inners []inner
	inner
}

func f32p(f float32) *float32 { return &f }

func TestWriteValue(t *testing.T) {
	w := &Writer{Pkg: "github.com/bcserver/bcserver/internal/golit", Prefix: "vf"}
	v := sample{Name: "a\"b", Hash: 0xFFFFFFFF, On: true, Scale: 0.1, Pos: [3]float32{1, -2.5, 3e-7},
		Opt: f32p(1.5), Opt2: f32p(2), Same: f32p(1.5), Empty: []int{}, Skip: "x",
		Inners: []inner{{N: 1}, {Tags: []string{"t"}}}, inner: inner{}}
	var b bytes.Buffer
	b.WriteString("package golit\n\nvar x = ")
	if err := w.Value(&b, reflect.ValueOf(v)); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	w.Targets(&b)
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatalf("not Go: %v\n%s", err, b.String())
	}
	got := string(src)
	for _, want := range []string{
		`Name:  "a\"b",`, `Hash:  4294967295,`, `On:    true,`, `Scale: 0.1,`, `Pos:   [3]float32{1, -2.5, 3e-07},`,
		`Opt:   &vf0,`, `Opt2:  &vf1,`, `Same:  &vf0,`, `Empty: []int{},`, `inner{N: 1},`, `inner{Tags: []string{"t"}},`,
		"vf0 float32 = 1.5", "vf1 float32 = 2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, absent := range []string{"Skip", "Zero", "Nil", "inner:"} {
		if strings.Contains(got, absent) {
			t.Errorf("%q written in\n%s", absent, got)
		}
	}
}

func TestWriteValueRejects(t *testing.T) {
	type withMap struct{ M map[int]int }
	type withPtr struct{ P *inner }
	type withTime struct{ T time.Time }
	for _, v := range []any{
		withMap{M: map[int]int{1: 1}},
		withPtr{P: &inner{}},
		withTime{T: time.Unix(1, 0)},
		float32(math.Copysign(0, -1)),
		float32(math.NaN()),
		float32(math.Inf(1)),
		struct{ x int }{x: 1},
	} {
		w := &Writer{Pkg: "github.com/bcserver/bcserver/internal/golit"}
		var b bytes.Buffer
		if err := w.Value(&b, reflect.ValueOf(v)); err == nil {
			t.Errorf("%#v written as %s", v, b.String())
		}
	}
}

func TestSync(t *testing.T) {
	p := t.TempDir() + "/gen.go"
	if err := Sync(p, []byte("a"), false, "regen"); err == nil || !strings.Contains(err.Error(), "regen") {
		t.Fatalf("missing file: %v", err)
	}
	if err := Sync(p, []byte("a"), true, "regen"); err != nil {
		t.Fatal(err)
	}
	if err := Sync(p, []byte("a"), false, "regen"); err != nil {
		t.Fatalf("current file: %v", err)
	}
	if err := Sync(p, []byte("b"), false, "regen"); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("stale file: %v", err)
	}
}

// Types for the kinds a TOML-decoded configuration adds.
type (
	// named stands for config.Duration: a named non-struct type.
	named int64
	// section stands for server.MissionSection: a named map.
	section map[string]any
)

type kinds struct {
	F64     float64
	Dur     named
	Std     time.Duration // another package's type, as an untyped constant
	Mission section
	Empty   map[string]int
	Nil     map[string]int
	Any     any
	Points  []image.Point
	private map[string]int // zero: left out like any zero field
}

func TestWriteKinds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       any
		want    string // the gofmt'd expression
		imports []string
	}{{
		name: "float64",
		v:    []float64{400, 10.1, 0.1, 1e21, -2.5e-7},
		want: "[]float64{400, 10.1, 0.1, 1e+21, -2.5e-07}",
	}, {
		name: "struct fields",
		v:    kinds{F64: 50, Dur: named(30 * time.Second), Std: time.Minute, Empty: map[string]int{}},
		want: "kinds{\n\tF64:   50,\n\tDur:   30000000000,\n\tStd:   60000000000,\n\tEmpty: map[string]int{},\n}",
	}, {
		name: "map sorted, values typed in the interface",
		v: kinds{Mission: section{
			"time_limit": int64(-1), "system": "Multi1", "quirk": true, "off": false,
			"radius": 10.1, "whole": float64(400), "count": 3, "small": float32(1.5), "byte": uint8(7),
			"d": named(5), "list": []any{int64(1), "a"}, "nested": map[string]any{"k": int64(2)},
			"nothing": nil, "nil list": []int(nil), "nil map": map[string]any(nil),
		}},
		want: `kinds{
	Mission: section{
		"byte":  uint8(7),
		"count": int(3),
		"d":     named(5),
		"list":  []any{int64(1), "a"},
		"nested": map[string]any{
			"k": int64(2),
		},
		"nil list":   []int(nil),
		"nil map":    map[string]any(nil),
		"nothing":    nil,
		"off":        false,
		"quirk":      true,
		"radius":     float64(10.1),
		"small":      float32(1.5),
		"system":     "Multi1",
		"time_limit": int64(-1),
		"whole":      float64(400),
	},
}`,
	}, {
		name: "empty and nil maps",
		v:    []section{{}, nil},
		want: "[]section{section{}, nil}",
	}, {
		name: "any field",
		v:    kinds{Any: int64(30)},
		want: "kinds{\n\tAny: int64(30),\n}",
	}, {
		name:    "other packages qualified",
		v:       []any{time.Duration(5), image.Point{X: 1}, template.HTML("<b>"), rand.PCG{}},
		want:    "[]any{time.Duration(5), image.Point{\n\tX: 1,\n}, template.HTML(\"<b>\"), rand.PCG{}}",
		imports: []string{"html/template", "image", "math/rand/v2", "time"},
	}, {
		name:    "other package's struct in a field",
		v:       kinds{Points: []image.Point{{Y: 2}}},
		want:    "kinds{\n\tPoints: []image.Point{\n\t\timage.Point{Y: 2},\n\t},\n}",
		imports: []string{"image"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Writer{Pkg: "github.com/bcserver/bcserver/internal/golit"}
			var b bytes.Buffer
			b.WriteString("package golit\n\nvar x = ")
			if err := w.Value(&b, reflect.ValueOf(tc.v)); err != nil {
				t.Fatal(err)
			}
			src, err := format.Source(b.Bytes())
			if err != nil {
				t.Fatalf("not Go: %v\n%s", err, b.String())
			}
			got := strings.TrimSpace(strings.TrimPrefix(string(src), "package golit\n\nvar x = "))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if got := w.Imports(); !slices.Equal(got, tc.imports) {
				t.Errorf("imports %q, want %q", got, tc.imports)
			}
		})
	}
}

func TestWriteKindsRejects(t *testing.T) {
	type withAny struct{ A any }
	for _, tc := range []struct {
		name string
		v    any
		want string // in the error
	}{
		{"int keys", map[int]int{1: 1}, "only string keys"},
		{"NaN", math.NaN(), "no Go constant"},
		{"Inf", []float64{math.Inf(-1)}, "no Go constant"},
		{"minus zero", map[string]float64{"z": math.Copysign(0, -1)}, "no Go constant"},
		{"complex in an interface", map[string]any{"c": complex(1, 2)}, `key "c": kind complex128`},
		{"typed nil pointer in an interface", withAny{A: (*float32)(nil)}, "*float32 is not written"},
		{"generic of another package", []any{unique.Handle[string]{}}, "generic type"},
		{"one name, two packages", []any{ttemplate.FuncMap{}, template.HTML("x")}, "both named template"},
		{"unexported non-zero field", kinds{private: map[string]int{}}, "unexported field kinds.private"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Writer{Pkg: "github.com/bcserver/bcserver/internal/golit"}
			var b bytes.Buffer
			err := w.Value(&b, reflect.ValueOf(tc.v))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q (wrote %s)", err, tc.want, b.String())
			}
		})
	}
}
