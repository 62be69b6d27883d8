package lua

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
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

// copier converts one value tree, breadth first so that when bc.storage
// is over its entry limit the shallow keys are the ones kept; seen maps
// tables already converted so a table referenced twice stays shared and a
// cycle terminates. Tables nested deeper than maxDepth and entries past
// maxEntries are left out and reported, so an oversized bc.storage never
// blocks a reload.
type copier struct {
	root       string // the table copied, for messages: "bc.storage"
	seen       map[*glua.LTable]*Table
	maxDepth   int
	maxEntries int
	entries    int
	queue      []copyJob
	rep        copyReport
}

type copyJob struct {
	src   *glua.LTable
	dst   *Table
	depth int
	path  *copyPath
}

// copyPath is the chain of keys to a table, for messages.
type copyPath struct {
	parent *copyPath
	key    glua.LValue
}

// copyReport says what a copy left out.
type copyReport struct {
	dropped   int    // functions, userdata and their entries
	truncated string // why data was cut ("; "-separated), empty if none was
	depthCut  bool
	sizeCut   bool
}

// PlainTable copies a Lua table out of its state as plain data, as a
// reload copies bc.storage (default limits): the mission test runner seeds
// a game's bc.storage with a test's table through it.
func PlainTable(t *glua.LTable) *Table {
	v, _ := toPlain(t, DefaultStorageDepth, DefaultStorageSize)
	out, _ := v.(*Table)
	return out
}

// toPlain copies a Lua value (bc.storage) out of its state within the
// limits.
func toPlain(v glua.LValue, maxDepth, maxEntries int) (any, copyReport) {
	return toPlainNamed(v, "bc.storage", maxDepth, maxEntries)
}

// toPlainNamed is toPlain for the table root names in its messages.
func toPlainNamed(v glua.LValue, root string, maxDepth, maxEntries int) (any, copyReport) {
	c := &copier{root: root, seen: make(map[*glua.LTable]*Table), maxDepth: maxDepth, maxEntries: maxEntries}
	out := c.value(v, 0, nil)
	for len(c.queue) > 0 {
		j := c.queue[0]
		c.queue = c.queue[1:]
		c.table(j)
	}
	return out, c.rep
}

// truncate records why data was cut, once per kind of limit.
func (c *copier) truncate(flag *bool, format string, args ...any) {
	if *flag {
		return
	}
	*flag = true
	if c.rep.truncated != "" {
		c.rep.truncated += "; "
	}
	c.rep.truncated += fmt.Sprintf(format, args...)
}

// value converts a scalar, or allocates a table's copy and queues it.
func (c *copier) value(v glua.LValue, depth int, path *copyPath) any {
	switch v := v.(type) {
	case *glua.LNilType:
		return nil
	case glua.LBool:
		return bool(v)
	case glua.LNumber:
		return float64(v)
	case glua.LString:
		return string(v)
	case *glua.LTable:
		if t, ok := c.seen[v]; ok {
			return t
		}
		if depth >= c.maxDepth {
			c.truncate(&c.rep.depthCut, "%s%s is nested deeper than %d tables", c.root, path, c.maxDepth)
			return nil
		}
		t := &Table{}
		c.seen[v] = t
		c.queue = append(c.queue, copyJob{v, t, depth, path})
		return t
	default:
		c.rep.dropped++
		return nil
	}
}

func (c *copier) table(j copyJob) {
	j.src.ForEach(func(k, val glua.LValue) {
		if c.entries >= c.maxEntries {
			c.truncate(&c.rep.sizeCut, "%s holds more than %d entries", c.root, c.maxEntries)
			return
		}
		c.entries++
		p := &copyPath{j.path, k}
		kk := c.value(k, j.depth+1, p)
		vv := c.value(val, j.depth+1, p)
		if kk == nil || vv == nil {
			return
		}
		*j.dst = append(*j.dst, Pair{kk, vv})
	})
}

// String is the chain of keys, "[\"a\"][2]", without the root.
func (p *copyPath) String() string {
	var keys []glua.LValue
	for ; p != nil; p = p.parent {
		keys = append(keys, p.key)
	}
	var b strings.Builder
	for i := len(keys) - 1; i >= 0; i-- {
		b.WriteString("[" + keyString(keys[i]) + "]")
		if b.Len() > 200 {
			b.WriteString("…")
			break
		}
	}
	return b.String()
}

func keyString(k glua.LValue) string {
	if s, ok := k.(glua.LString); ok {
		if len(s) > 32 {
			return fmt.Sprintf("%q…", string(s[:32]))
		}
		return fmt.Sprintf("%q", string(s))
	}
	return k.String()
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

// onlyFields charges the budget for a table's entries and raises an error
// naming the first key that is not one of allowed: a misspelt field is an
// error, not a silent default.
func (m *mission) onlyFields(L *glua.LState, t *glua.LTable, fn string, allowed ...string) {
	var bad glua.LValue
	n := 0
	t.ForEach(func(k, _ glua.LValue) {
		n++
		if s, ok := k.(glua.LString); bad == nil && (!ok || !slices.Contains(allowed, string(s))) {
			bad = k
		}
	})
	m.meter.Charge(L, int64(n))
	if bad != nil {
		L.RaiseError("%s: unknown field %s (want %s)", fn, keyString(bad), strings.Join(allowed, ", "))
	}
}
