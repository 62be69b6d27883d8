package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/bits"
	"sort"
	"strconv"

	glua "github.com/yuin/gopher-lua"
)

// bc.json.encode(value) and bc.json.decode(text): the usual mapping, with
// every value charged to the budget and the text capped by the string cap.
//
//   - a table whose keys are exactly 1..n (n >= 1) is an array, any other
//     table an object with string keys (a number key is written as its
//     decimal string); an empty table is {};
//   - nil is null; NaN and infinities, functions and userdata are errors;
//   - decode turns null into nil (a hole in an array), numbers into Lua
//     numbers, and nests at most maxJSONDepth deep.

const maxJSONDepth = 64

func (m *Meter) JSON() *glua.LTable {
	L := m.L
	t := L.NewTable()
	t.RawSetString("encode", L.NewFunction(m.jsonEncode))
	t.RawSetString("decode", L.NewFunction(m.jsonDecode))
	return t
}

type jsonEncoder struct {
	m    *Meter
	L    *glua.LState
	b    bytes.Buffer
	open map[*glua.LTable]bool
}

func (m *Meter) jsonEncode(L *glua.LState) int {
	e := &jsonEncoder{m: m, L: L, open: make(map[*glua.LTable]bool)}
	if err := e.value(L.Get(1), 0); err != nil {
		L.Push(glua.LNil)
		L.Push(glua.LString("bc.json.encode: " + err.Error()))
		return 2
	}
	m.ChargeBytes(L, "bc.json.encode", e.b.Len())
	L.Push(glua.LString(e.b.String()))
	return 1
}

func (e *jsonEncoder) grow() error {
	e.m.Charge(e.L, 1)
	if e.b.Len() > e.m.maxString {
		return errors.New("result exceeds the string cap")
	}
	return nil
}

func (e *jsonEncoder) value(v glua.LValue, depth int) error {
	if err := e.grow(); err != nil {
		return err
	}
	switch v := v.(type) {
	case *glua.LNilType:
		e.b.WriteString("null")
	case glua.LBool:
		e.b.WriteString(strconv.FormatBool(bool(v)))
	case glua.LNumber:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return errors.New("NaN or infinity has no JSON form")
		}
		e.b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	case glua.LString:
		e.m.Charge(e.L, int64(len(v)/BytesPerStep))
		b, _ := json.Marshal(string(v))
		e.b.Write(b)
	case *glua.LTable:
		if depth >= maxJSONDepth {
			return errors.New("nested deeper than 64 tables")
		}
		if e.open[v] {
			return errors.New("a table contains itself")
		}
		e.open[v] = true
		defer delete(e.open, v)
		return e.table(v, depth)
	default:
		return errors.New("a " + v.Type().String() + " has no JSON form")
	}
	return nil
}

func (e *jsonEncoder) table(t *glua.LTable, depth int) error {
	n := 0
	keys := 0
	t.ForEach(func(k, _ glua.LValue) { keys++ })
	for i := 1; t.RawGetInt(i) != glua.LNil; i++ {
		n = i
	}
	if n > 0 && n == keys {
		e.b.WriteByte('[')
		for i := 1; i <= n; i++ {
			if i > 1 {
				e.b.WriteByte(',')
			}
			if err := e.value(t.RawGetInt(i), depth+1); err != nil {
				return err
			}
		}
		e.b.WriteByte(']')
		return nil
	}
	type kv struct {
		k string
		v glua.LValue
	}
	// Collecting and sorting the keys is charged before it is done, at
	// table.sort's rate: a big object cannot sort unbudgeted.
	e.m.Charge(e.L, int64(keys*bits.Len(uint(keys))))
	var pairs []kv
	var err error
	t.ForEach(func(k, v glua.LValue) {
		switch k := k.(type) {
		case glua.LString:
			pairs = append(pairs, kv{string(k), v})
		case glua.LNumber:
			pairs = append(pairs, kv{strconv.FormatFloat(float64(k), 'g', -1, 64), v})
		default:
			err = errors.New("a " + k.Type().String() + " key has no JSON form")
		}
	})
	if err != nil {
		return err
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].k < pairs[j].k })
	e.b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			e.b.WriteByte(',')
		}
		b, _ := json.Marshal(p.k)
		e.b.Write(b)
		e.b.WriteByte(':')
		if err := e.value(p.v, depth+1); err != nil {
			return err
		}
	}
	e.b.WriteByte('}')
	return nil
}

// jsonDecode returns the value, or nil and an error message.
func (m *Meter) jsonDecode(L *glua.LState) int {
	s := L.CheckString(1)
	m.Charge(L, int64(len(s)/BytesPerStep))
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	v, err := m.jsonValue(L, dec, 0)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("text after the value")
		}
	}
	if err != nil {
		L.Push(glua.LNil)
		L.Push(glua.LString("bc.json.decode: " + err.Error()))
		return 2
	}
	L.Push(v)
	return 1
}

func (m *Meter) jsonValue(L *glua.LState, dec *json.Decoder, depth int) (glua.LValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return m.jsonToken(L, dec, tok, depth)
}

func (m *Meter) jsonToken(L *glua.LState, dec *json.Decoder, tok json.Token, depth int) (glua.LValue, error) {
	m.Charge(L, 1)
	switch t := tok.(type) {
	case nil:
		return glua.LNil, nil
	case bool:
		return glua.LBool(t), nil
	case string:
		return glua.LString(t), nil
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return nil, err
		}
		return glua.LNumber(f), nil
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, errors.New("nested deeper than 64 levels")
		}
		out := L.NewTable()
		switch t {
		case '[':
			for i := 1; dec.More(); i++ {
				v, err := m.jsonValue(L, dec, depth+1)
				if err != nil {
					return nil, err
				}
				out.RawSetInt(i, v)
			}
		case '{':
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := m.jsonValue(L, dec, depth+1)
				if err != nil {
					return nil, err
				}
				out.RawSetString(k.(string), v)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return out, nil
	}
	return nil, errors.New("unexpected token")
}
