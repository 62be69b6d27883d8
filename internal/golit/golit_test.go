package golit

import (
	"bytes"
	"go/format"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
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
	type withMap struct{ M map[string]int }
	type withPtr struct{ P *inner }
	type withTime struct{ T time.Time }
	for _, v := range []any{
		withMap{M: map[string]int{"a": 1}},
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
