// Package golit writes Go values as Go source: composite literals that a
// generator puts in package-level variables, so data a server would parse
// at every start (the stock ship data, the stock checksum manifest) is
// compiled into the binary instead. The generators are tests run with
// -update (engine/ships TestVanillaDecoded, engine/checksum
// TestVanillaManifestDecoded), which otherwise check the files are current.
//
// The values written are what encoding/json decodes into: structs, slices,
// arrays, strings, booleans, integers, float32 and *float32. Zero fields
// are left out; a nil slice is left out, an empty one written as {}.
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
)

// Writer writes literals for one generated file of package Pkg.
type Writer struct {
	// Pkg is the import path of the package the literals go in: its types
	// are written unqualified, and no other named type may appear.
	Pkg string
	// Prefix names the variables *float32 fields point at (Prefix + n).
	Prefix string
	f32    map[uint32]string
}

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
	default:
		return fmt.Errorf("kind %s is not written", v.Kind())
	}
	return nil
}

// checkF32 rejects the floats a Go constant cannot spell.
func checkF32(f float32) error {
	if f == 0 && math.Signbit(float64(f)) || math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return fmt.Errorf("float %v has no Go constant", f)
	}
	return nil
}

// formatF32 is the shortest decimal that converts back to f exactly.
func formatF32(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// typeName spells t in package w.Pkg.
func (w *Writer) typeName(t reflect.Type) (string, error) {
	switch {
	case t.Name() != "" && t.PkgPath() == "":
		return t.Name(), nil // predeclared
	case t.Name() != "" && t.PkgPath() == w.Pkg:
		return t.Name(), nil
	case t.Name() != "":
		return "", fmt.Errorf("type %s is not of package %s", t, w.Pkg)
	case t.Kind() == reflect.Slice:
		e, err := w.typeName(t.Elem())
		return "[]" + e, err
	case t.Kind() == reflect.Array:
		e, err := w.typeName(t.Elem())
		return fmt.Sprintf("[%d]%s", t.Len(), e), err
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
