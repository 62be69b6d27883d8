package modimport

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// object is a JSON object with its keys in a fixed order, so a pack's files
// read like the vanilla set's and repeat byte for byte.
type object []field

type field struct {
	k string
	v any
}

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) { return o.append(nil) }

func (o object) append(b []byte) ([]byte, error) {
	b = append(b, '{')
	var err error
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendValue(b, f.k); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = appendValue(b, f.v); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendValue writes v as encoding/json would, with fast paths for the
// types the pack files are made of (an import writes a few thousand
// objects).
func appendValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case object:
		return v.append(b)
	case []object:
		b = append(b, '[')
		for i, o := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = o.append(b); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case [3]float32:
		return appendFloats(b, v[:])
	case [2]float32:
		return appendFloats(b, v[:])
	case []float32:
		return appendFloats(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float32:
		// encoding/json's format for float32: 'f' unless the exponent
		// is extreme, where it uses 'e' with its own clean-up.
		if a := math.Abs(float64(v)); a == 0 || a >= 1e-6 && a < 1e21 {
			return strconv.AppendFloat(b, float64(v), 'f', -1, 32), nil
		}
	case string:
		if safeString(v) {
			b = append(b, '"')
			b = append(b, v...)
			return append(b, '"'), nil
		}
	}
	return appendMarshal(b, v)
}

func appendFloats(b []byte, fs []float32) ([]byte, error) {
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendValue(b, f); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// safeString reports whether s needs no JSON escaping.
func safeString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7F {
			return false
		}
	}
	return true
}

func appendMarshal(b []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// encodeFile is a pack file: two-space indent and a final newline.
func encodeFile(v any) ([]byte, error) {
	raw, err := appendValue(nil, v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(raw) * 2)
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
