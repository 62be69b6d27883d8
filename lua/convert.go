package lua

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"time"

	glua "github.com/yuin/gopher-lua"
)

// Plain data is what survives a reload in bc.storage: nil, booleans,
// numbers, strings and tables of them (Factorio's `storage` rule).
// Functions, userdata and threads belong to one Lua state and are dropped.

// Table is a Lua table copied out of a state, its pairs in iteration order.
type Table []Pair

// Pair is one key/value of a Table.
type Pair struct{ Key, Value any }

// Limits on a copied value, so a runaway storage table cannot stall a
// reload.
const (
	maxCopyDepth   = 64
	maxCopyEntries = 1 << 20
)

// copier converts one value tree; seen maps tables already converted so a
// table referenced twice stays shared and a cycle terminates.
type copier struct {
	seen    map[*glua.LTable]*Table
	entries int
	dropped int
}

// toPlain copies a Lua value out of its state. Values that are not plain
// data are dropped and counted.
func toPlain(v glua.LValue) (any, int, error) {
	c := &copier{seen: make(map[*glua.LTable]*Table)}
	out, err := c.value(v, 0)
	return out, c.dropped, err
}

func (c *copier) value(v glua.LValue, depth int) (any, error) {
	switch v := v.(type) {
	case *glua.LNilType:
		return nil, nil
	case glua.LBool:
		return bool(v), nil
	case glua.LNumber:
		return float64(v), nil
	case glua.LString:
		return string(v), nil
	case *glua.LTable:
		if t, ok := c.seen[v]; ok {
			return t, nil
		}
		if depth >= maxCopyDepth {
			return nil, fmt.Errorf("storage nested deeper than %d tables", maxCopyDepth)
		}
		t := &Table{}
		c.seen[v] = t
		var err error
		v.ForEach(func(k, val glua.LValue) {
			if err != nil {
				return
			}
			c.entries++
			if c.entries > maxCopyEntries {
				err = fmt.Errorf("storage holds more than %d entries", maxCopyEntries)
				return
			}
			kk, e := c.value(k, depth+1)
			if e != nil {
				err = e
				return
			}
			vv, e := c.value(val, depth+1)
			if e != nil {
				err = e
				return
			}
			if kk == nil || vv == nil {
				c.dropped++ // a function or userdata key or value
				return
			}
			*t = append(*t, Pair{kk, vv})
		})
		return t, err
	default:
		c.dropped++
		return nil, nil
	}
}

// fromPlain rebuilds a copied value, or a Go value from configuration
// (strings, bools, integers, floats, slices, string-keyed maps, times), in
// state L.
func fromPlain(L *glua.LState, v any) glua.LValue {
	return (&builder{L: L, seen: make(map[*Table]*glua.LTable)}).value(v)
}

type builder struct {
	L    *glua.LState
	seen map[*Table]*glua.LTable
}

func (b *builder) value(v any) glua.LValue {
	switch v := v.(type) {
	case nil:
		return glua.LNil
	case bool:
		return glua.LBool(v)
	case string:
		return glua.LString(v)
	case float64:
		return glua.LNumber(v)
	case float32:
		return glua.LNumber(v)
	case int:
		return glua.LNumber(v)
	case int64:
		return glua.LNumber(v)
	case int32:
		return glua.LNumber(v)
	case uint8:
		return glua.LNumber(v)
	case time.Time:
		return glua.LString(v.Format(time.RFC3339Nano))
	case time.Duration:
		return glua.LNumber(v.Seconds())
	case *Table:
		if t, ok := b.seen[v]; ok {
			return t
		}
		t := b.L.NewTable()
		b.seen[v] = t
		for _, p := range *v {
			t.RawSet(b.value(p.Key), b.value(p.Value))
		}
		return t
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t := b.L.CreateTable(0, len(v))
		for _, k := range keys {
			t.RawSetString(k, b.value(v[k]))
		}
		return t
	case []any:
		t := b.L.CreateTable(len(v), 0)
		for _, e := range v {
			t.Append(b.value(e))
		}
		return t
	}
	// Other slices and maps from a TOML decoder ([]string, []int64 ...).
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		t := b.L.CreateTable(rv.Len(), 0)
		for i := 0; i < rv.Len(); i++ {
			t.Append(b.value(rv.Index(i).Interface()))
		}
		return t
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f, _ := toFloat(rv)
		return glua.LNumber(f)
	}
	return glua.LString(fmt.Sprint(v))
}

func toFloat(rv reflect.Value) (float64, bool) {
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f, !math.IsNaN(f)
	}
	return 0, false
}

// Get returns the value stored under key (a string, or a number as
// float64 or int), nil if absent.
func (t *Table) Get(key any) any {
	if t == nil {
		return nil
	}
	if i, ok := key.(int); ok {
		key = float64(i)
	}
	for _, p := range *t {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
}
