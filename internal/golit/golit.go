// Package golit writes Go values as Go source: composite literals that a
// generator puts in package-level variables, so data a server would parse
// at every start (the stock ship data, the stock checksum manifest) is
// compiled into the binary instead. The generators are tests run with
// -update (engine/ships TestVanillaDecoded, engine/checksum
// TestVanillaManifestDecoded), which otherwise check the files are current.
//
// The values written are what encoding/json and go-toml decode into:
// structs, slices, arrays, maps with string keys, strings, booleans,
// integers, float32, float64, *float32, and interfaces holding any of these
// (the server's default configuration, TestDefaultsGenerated, has a
// map[string]any). Zero fields are left out; a nil slice or map is left
// out, an empty one written as {}. A value in an interface carries its
// type (int64(30), float64(10.1)), since an untyped constant would take
// its default type there instead.
package golit

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Writer writes literals for one generated file of package Pkg.
type Writer struct {
	// Pkg is the import path of the package the literals go in: its types
	// are written unqualified, other packages' types qualified by their
	// package name (Imports lists the paths the file must import).
	Pkg string
	// Prefix names the variables *float32 fields point at (Prefix + n).
	Prefix string
	f32    map[uint32]string
	// imports maps the package name of each qualified type written so far
	// to its import path: two paths of one name cannot both be spelled.
	imports map[string]string
}

// Imports returns the import paths of the other packages' types written
// so far, sorted: what the generated file's import block must hold.
func (w *Writer) Imports() []string { return slices.Sorted(maps.Values(w.imports)) }

// Value writes v as a literal expression.
func (w *Writer) Value(b *bytes.Buffer, v reflect.Value) error { return w.value(b, v, 0) }

// Targets writes the variable block the *float32 fields written so far
// point at (nothing when there are none).
func (w *Writer) Targets(b *bytes.Buffer) {
	if len(w.f32) == 0 {
		return
	}
	b.WriteString("\n// Targets of the *float32 fields (optional numbers).\nvar (\n")
	for _, bits := range slices.Sorted(maps.Keys(w.f32)) {
		fmt.Fprintf(b, "\t%s float32 = %s\n", w.f32[bits], formatF32(math.Float32frombits(bits)))
	}
	b.WriteString(")\n")
}

func (w *Writer) value(b *bytes.Buffer, v reflect.Value, depth int) error {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		name, err := w.typeName(t)
		if err != nil {
			return err
		}
		b.WriteString(name + "{")
		multi := depth < 2 // one field per line near the top, for diffs
		for i := range t.NumField() {
			f := t.Field(i)
			if v.Field(i).IsZero() || f.Tag.Get("json") == "-" {
				continue
			}
			if !f.IsExported() {
				return fmt.Errorf("unexported field %s.%s", t.Name(), f.Name)
			}
			if multi {
				b.WriteString("\n")
			}
			// An embedded struct is set by its type name.
			b.WriteString(f.Name + ": ")
			if err := w.value(b, v.Field(i), depth+1); err != nil {
				return err
			}
			b.WriteString(", ")
		}
		if multi {
			b.WriteString("\n")
		}
		b.WriteString("}")
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		name, err := w.typeName(v.Type())
		if err != nil {
			return err
		}
		b.WriteString(name + "{")
		multi := v.Type().Elem().Kind() == reflect.Struct
		for i := range v.Len() {
			if multi {
				b.WriteString("\n")
			}
			if err := w.value(b, v.Index(i), depth+1); err != nil {
				return err
			}
			b.WriteString(", ")
		}
		if multi {
			b.WriteString("\n")
		}
		b.WriteString("}")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if v.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("map key type %s: only string keys are written", v.Type().Key())
		}
		name, err := w.typeName(v.Type())
		if err != nil {
			return err
		}
		b.WriteString(name + "{")
		// Sorted, so the same map always gives the same file.
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			b.WriteString("\n" + strconv.Quote(k.String()) + ": ")
			if err := w.value(b, v.MapIndex(k), depth+1); err != nil {
				return fmt.Errorf("key %q: %w", k.String(), err)
			}
			b.WriteString(", ")
		}
		if len(keys) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("}")
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		return w.typed(b, v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if v.Elem().Kind() != reflect.Float32 || v.Elem().Type().Name() != "float32" {
			return fmt.Errorf("pointer to %s: only *float32 is written", v.Elem().Type())
		}
		f := float32(v.Elem().Float())
		if err := checkF32(f); err != nil {
			return err
		}
		bits := math.Float32bits(f)
		if w.f32 == nil {
			w.f32 = make(map[uint32]string)
		}
		name, ok := w.f32[bits]
		if !ok {
			name = fmt.Sprintf("%s%d", w.Prefix, len(w.f32))
			w.f32[bits] = name
		}
		b.WriteString("&" + name)
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32:
		f := float32(v.Float())
		if err := checkF32(f); err != nil {
			return err
		}
		b.WriteString(formatF32(f))
	case reflect.Float64:
		f := v.Float()
		if err := checkF64(f); err != nil {
			return err
		}
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	default:
		return fmt.Errorf("kind %s is not written", v.Kind())
	}
	return nil
}

// typed writes v, the dynamic value of an interface, as an expression of
// exactly v's type: in an interface an untyped constant would take its
// default type (30 an int, not the int64 go-toml decodes) and a bare nil
// would be a nil interface rather than a nil slice.
func (w *Writer) typed(b *bytes.Buffer, v reflect.Value, depth int) error {
	t := v.Type()
	switch k := v.Kind(); {
	case (k == reflect.Slice || k == reflect.Map || k == reflect.Pointer) && v.IsNil():
		name, err := w.typeName(t)
		if err != nil {
			return err
		}
		b.WriteString(name + "(nil)")
		return nil
	case k == reflect.Struct || k == reflect.Array || k == reflect.Slice || k == reflect.Map:
		return w.value(b, v, depth) // the composite literal names its type
	case t == reflect.TypeFor[string]() || t == reflect.TypeFor[bool]() || t == reflect.TypeFor[*float32]():
		return w.value(b, v, depth) // the default type of the constant, or &target's type
	}
	name, err := w.typeName(t)
	if err != nil {
		return err
	}
	b.WriteString(name + "(")
	if err := w.value(b, v, depth); err != nil {
		return err
	}
	b.WriteString(")")
	return nil
}

// checkF32 rejects the floats a Go constant cannot spell.
func checkF32(f float32) error { return checkF64(float64(f)) }

// checkF64 rejects the floats a Go constant cannot spell.
func checkF64(f float64) error {
	if f == 0 && math.Signbit(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("float %v has no Go constant", f)
	}
	return nil
}

// formatF32 is the shortest decimal that converts back to f exactly.
func formatF32(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// typeName spells t in package w.Pkg, recording the imports it needs.
func (w *Writer) typeName(t reflect.Type) (string, error) {
	switch {
	case t.Name() != "" && t.PkgPath() == "":
		return t.Name(), nil // predeclared
	case t.Name() != "" && t.PkgPath() == w.Pkg:
		return t.Name(), nil
	case strings.Contains(t.Name(), "["):
		// Its type arguments would need qualifying (and importing) too.
		return "", fmt.Errorf("generic type %s of another package is not written", t)
	case t.Name() != "":
		// t.String() is "pkg.Name", the qualifier being the package's
		// name, which need not be the last element of its path.
		pkg := strings.TrimSuffix(t.String(), "."+t.Name())
		if have, ok := w.imports[pkg]; ok && have != t.PkgPath() {
			return "", fmt.Errorf("type %s: packages %s and %s are both named %s", t, have, t.PkgPath(), pkg)
		}
		if w.imports == nil {
			w.imports = make(map[string]string)
		}
		w.imports[pkg] = t.PkgPath()
		return t.String(), nil
	case t.Kind() == reflect.Slice:
		e, err := w.typeName(t.Elem())
		return "[]" + e, err
	case t.Kind() == reflect.Array:
		e, err := w.typeName(t.Elem())
		return fmt.Sprintf("[%d]%s", t.Len(), e), err
	case t.Kind() == reflect.Map:
		k, err := w.typeName(t.Key())
		if err != nil {
			return "", err
		}
		e, err := w.typeName(t.Elem())
		return "map[" + k + "]" + e, err
	case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		return "any", nil
	}
	return "", fmt.Errorf("type %s is not written", t)
}

// Sync keeps a generated file current: with update it writes src to path;
// otherwise it returns an error when the file is missing or differs from
// src, saying to run regen.
func Sync(path string, src []byte, update bool, regen string) error {
	if update {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	}
	have, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w (run %s)", path, err, regen)
	}
	if !bytes.Equal(have, src) {
		return fmt.Errorf("%s is stale: run %s", path, regen)
	}
	return nil
}
