// Package scriptmsg is a mod's declared script messages (mods.md 6): per
// message type its name, field layout, who may send it, an optional
// ownership check, a built-in effect and the host policy. A data pack
// carries the table as messages.json; the engine decodes declared types
// for missions and applies the policy.
package scriptmsg

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/codec"
)

// FileName is the table's file in a data pack.
const FileName = "messages.json"

// MaxLen is the largest script message: scripts open a 256-byte buffer
// (mods.md 6.1), and the bound holds for mod types too (6.5 rule 4).
const MaxLen = 256

// Policies: what the host does with a declared message nobody in the
// mission took (mods.md 6.5).
const (
	// PolicyForward relays the bytes unchanged to every in-game client,
	// the sender included ("NoMe"), as a mod's host script re-sends them.
	PolicyForward = "forward"
	// PolicyApply runs the built-in Effect and forwards the message when
	// it took effect.
	PolicyApply = "apply"
	// PolicyHost keeps the message on the host: missions see it, nothing
	// is forwarded (forwarding a host-only type makes every client run the
	// host's action, 6.5 rule 3).
	PolicyHost = "host"
)

// Effects the engine implements (mods.md 6.3).
const (
	// EffectNetPlayerID re-maps a ship to a player (KM 205): fields
	// "object" and "net_player_id".
	EffectNetPlayerID = "net_player_id"
	// EffectDeleteObject removes an object from the host's books without
	// a 0x14 (KM 211): field "object".
	EffectDeleteObject = "delete_object"
)

// Senders: who may send a type.
const (
	FromClient = "client" // any in-game client (the default)
	FromHost   = "host"   // only the host sends it: dropped from clients
)

// Field kinds of a layout (codec.md 1; mods.md 6.1).
var fieldSizes = map[string]int{
	"u8": 1, "i8": 1, "u16": 2, "i16": 2, "i32": 4, "u32": 4, "f32": 4,
	"str8": -1, "str16": -1, "cstr": -1, "bytes": -1,
}

// Table is a pack's message table. It is read-only once loaded.
type Table struct {
	Name     string  `json:"name"`
	Messages []*Type `json:"messages"`
	byType   [256]*Type
}

// Type is one declared message type.
type Type struct {
	Type uint8  `json:"type"`
	Name string `json:"name"`
	// Fields is the layout after the type byte, in order.
	Fields []Field `json:"fields"`
	// From is who may send it: client (default) or host.
	From string `json:"from,omitempty"`
	// Owner names an i32 field that must hold an object id of the
	// sender's id block; Self names an i32 field that, when it equals the
	// sender's player id, passes the check too (KM 205 hardening).
	Owner string `json:"owner,omitempty"`
	Self  string `json:"self,omitempty"`
	// Effect is a built-in effect (EffectNetPlayerID, EffectDeleteObject)
	// for PolicyApply.
	Effect string `json:"effect,omitempty"`
	Policy string `json:"policy"`
	// Note is free text for the host (informational).
	Note string `json:"note,omitempty"`
}

// Field is one field of a layout: u8, i8, u16, i16, i32, u32, f32, str8
// (u8 length + bytes), str16 (u16 length + bytes, KM's WriteShort +
// chars), cstr (bytes up to a NUL, KM's char-by-char strings) or bytes
// (the rest of the message; last only).
type Field struct {
	Name string `json:"name"`
	Kind string `json:"type"`
}

// Value is one decoded field.
type Value struct {
	Name, Kind string
	// Int holds the integer kinds, Float f32, Bytes the string kinds.
	Int   int64
	Float float64
	Bytes []byte
}

// Lookup returns the declaration of a type, or nil. A nil table declares
// nothing.
func (t *Table) Lookup(op byte) *Type {
	if t == nil {
		return nil
	}
	return t.byType[op]
}

// Load decodes and validates a table (strictly: an unknown key is an
// error).
func Load(r io.Reader) (*Table, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("message table: %w", err)
	}
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("message table %q: %w", t.Name, err)
	}
	return &t, nil
}

// LoadFile reads a table file.
func LoadFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

//go:embed kobayashi-maru.json
var kmJSON string

// KobayashiMaruJSON is the shipped example table: Kobayashi Maru's types
// 205 and 211-214 with the server rules of mods.md 6.3.
func KobayashiMaruJSON() string { return kmJSON }

// KobayashiMaru returns the example table, loaded.
func KobayashiMaru() *Table {
	t, err := Load(strings.NewReader(kmJSON))
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return t
}

func (t *Table) validate() error {
	var errs []error
	for i, m := range t.Messages {
		if m == nil {
			errs = append(errs, fmt.Errorf("messages[%d] is null", i))
			continue
		}
		if err := m.validate(); err != nil {
			errs = append(errs, fmt.Errorf("type %d (%s): %w", m.Type, m.Name, err))
			continue
		}
		if prev := t.byType[m.Type]; prev != nil {
			errs = append(errs, fmt.Errorf("type %d declared twice (%s, %s)", m.Type, prev.Name, m.Name))
			continue
		}
		t.byType[m.Type] = m
	}
	return errors.Join(errs...)
}

func (m *Type) validate() error {
	switch {
	case m.Type < codec.MaxMessageTypes:
		return fmt.Errorf("below MAX_MESSAGE_TYPES (%d): an engine opcode", codec.MaxMessageTypes)
	case m.Type == codec.OpChat || m.Type == codec.OpTeamChat:
		return errors.New("chat is the core's (missions.md 2.2)")
	case m.Name == "":
		return errors.New("no name")
	}
	switch m.From {
	case "":
		m.From = FromClient
	case FromClient, FromHost:
	default:
		return fmt.Errorf("from %q: want client or host", m.From)
	}
	switch m.Policy {
	case PolicyForward, PolicyHost:
		if m.Effect != "" {
			return fmt.Errorf("effect %q needs policy apply", m.Effect)
		}
	case PolicyApply:
	default:
		return fmt.Errorf("policy %q: want forward, apply or host", m.Policy)
	}
	seen := map[string]bool{}
	for i, f := range m.Fields {
		if _, ok := fieldSizes[f.Kind]; !ok {
			return fmt.Errorf("field %q: unknown type %q", f.Name, f.Kind)
		}
		if f.Name == "" || seen[f.Name] {
			return fmt.Errorf("field %d: missing or repeated name %q", i, f.Name)
		}
		if f.Kind == "bytes" && i != len(m.Fields)-1 {
			return fmt.Errorf("field %q: bytes must come last", f.Name)
		}
		seen[f.Name] = true
	}
	i32 := func(name, what string) error {
		if name == "" {
			return nil
		}
		if k, ok := m.kind(name); !ok || k != "i32" {
			return fmt.Errorf("%s field %q is not an i32 field", what, name)
		}
		return nil
	}
	if err := errors.Join(i32(m.Owner, "owner"), i32(m.Self, "self")); err != nil {
		return err
	}
	switch m.Effect {
	case "":
		if m.Policy == PolicyApply {
			return errors.New("policy apply without an effect")
		}
	case EffectNetPlayerID:
		return errors.Join(i32("object", "effect"), i32("net_player_id", "effect"))
	case EffectDeleteObject:
		return i32("object", "effect")
	default:
		return fmt.Errorf("effect %q: want %s or %s", m.Effect, EffectNetPlayerID, EffectDeleteObject)
	}
	return nil
}

func (m *Type) kind(name string) (string, bool) {
	for _, f := range m.Fields {
		if f.Name == name {
			return f.Kind, true
		}
	}
	return "", false
}

// Decode reads payload (type byte first) by the layout. The whole message
// must be used: bytes left over, or a field cut short, are an error, and
// so is a message over MaxLen. Bytes values alias payload.
func (m *Type) Decode(payload []byte) ([]Value, error) {
	if len(payload) > MaxLen {
		return nil, fmt.Errorf("%s: %d bytes, script messages hold %d", m.Name, len(payload), MaxLen)
	}
	if len(payload) == 0 || payload[0] != m.Type {
		return nil, fmt.Errorf("%s: not a type %d message", m.Name, m.Type)
	}
	r := codec.NewReader(payload[1:])
	out := make([]Value, len(m.Fields))
	for i, f := range m.Fields {
		v := Value{Name: f.Name, Kind: f.Kind}
		switch f.Kind {
		case "u8":
			v.Int = int64(r.U8())
		case "i8":
			v.Int = int64(r.I8())
		case "u16":
			v.Int = int64(r.U16())
		case "i16":
			v.Int = int64(int16(r.U16()))
		case "i32":
			v.Int = int64(r.I32())
		case "u32":
			v.Int = int64(r.U32())
		case "f32":
			v.Float = float64(r.F32())
		case "str8":
			v.Bytes = r.Str8()
		case "str16":
			v.Bytes = r.Str16()
		case "cstr":
			rest := r.Rest()
			n := slices.Index(rest, 0)
			if n < 0 {
				return nil, fmt.Errorf("%s: field %s has no NUL terminator", m.Name, f.Name)
			}
			v.Bytes = r.Raw(n)
			r.U8()
		case "bytes":
			v.Bytes = r.Raw(r.Len())
		}
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("%s: field %s: %w", m.Name, f.Name, err)
		}
		out[i] = v
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%s: %d bytes after the last field", m.Name, r.Len())
	}
	return out, nil
}

// Int returns the integer field called name.
func Int(vs []Value, name string) (int64, bool) {
	for _, v := range vs {
		if v.Name == name {
			return v.Int, true
		}
	}
	return 0, false
}
