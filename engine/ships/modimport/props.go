package modimport

import (
	"strconv"
	"strings"
)

// Reading a hardpoint property's setter calls (hardpoint.go's prop) as
// typed values: what the builder asks of each property.

func (p *prop) arg(setter string, i int) (value, bool) {
	if p == nil {
		return value{}, false
	}
	c, ok := p.calls[setter]
	if !ok || i >= len(c.args) {
		return value{}, false
	}
	return c.args[i], true
}

func f32of(v value) float32 {
	if v.kind != vNumber {
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimPrefix(v.str, "+"), 32)
	if err != nil {
		return float32(v.num)
	}
	return float32(f)
}

func (p *prop) f32(setter string) float32 {
	v, _ := p.arg(setter, 0)
	return f32of(v)
}

func (p *prop) integer(setter string) int {
	v, _ := p.arg(setter, 0)
	if v.kind != vNumber {
		return 0
	}
	return int(v.num)
}

func (p *prop) boolean(setter string) bool { return p.integer(setter) != 0 }

func (p *prop) flag(setter string) (bool, bool) {
	v, ok := p.arg(setter, 0)
	return v.num != 0, ok && v.kind == vNumber
}

func (p *prop) str(setter string) (string, bool) {
	v, ok := p.arg(setter, 0)
	return v.str, ok && v.kind == vString
}

func (p *prop) enum(setter string) (string, bool) {
	v, ok := p.arg(setter, 0)
	return v.str, ok && v.kind == vName
}

// vec3 reads SetPosition(x, y, z) or a setter given one helper vector.
func (p *prop) vec3(setter string) [3]float32 {
	var out [3]float32
	if p == nil {
		return out
	}
	c := p.calls[setter]
	if len(c.args) == 1 && c.args[0].kind == vTuple && len(c.args[0].items) == 3 {
		for i := range out {
			out[i] = f32of(c.args[0].items[i])
		}
		return out
	}
	for i := 0; i < 3 && i < len(c.args); i++ {
		out[i] = f32of(c.args[i])
	}
	return out
}

// orientation reads SetOrientation(forward, up).
func (p *prop) orientation() (fwd, up [3]float32) {
	c := p.calls["SetOrientation"]
	read := func(v value) (out [3]float32) {
		if v.kind == vTuple {
			for i := 0; i < 3 && i < len(v.items); i++ {
				out[i] = f32of(v.items[i])
			}
		}
		return out
	}
	if len(c.args) >= 2 {
		return read(c.args[0]), read(c.args[1])
	}
	return fwd, up
}

// pair reads a two-number setter as written (arc pairs are not sorted,
// mods.md 3.8).
func (p *prop) pair(setter string) [2]float32 {
	a, _ := p.arg(setter, 0)
	b, _ := p.arg(setter, 1)
	return [2]float32{f32of(a), f32of(b)}
}

// indexedF32 reads an indexed setter's value for key (or, when the script
// gave a number, for the index n).
func (p *prop) indexedF32(setter, key string, n int) float32 {
	if p == nil {
		return 0
	}
	m := p.indexed[setter]
	c, ok := m[key]
	if !ok && n >= 0 {
		c, ok = m[strconv.Itoa(n)]
	}
	if !ok || len(c.args) < 2 {
		return 0
	}
	return f32of(c.args[1])
}

func (p *prop) indexedStr(setter string, n int) string {
	if p == nil {
		return ""
	}
	c, ok := p.indexed[setter][strconv.Itoa(n)]
	if !ok || len(c.args) < 2 || c.args[1].kind != vString {
		return ""
	}
	return c.args[1].str
}
