package lua

import (
	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/scriptmsg"
)

// fieldsTable is a declared script message's fields as a Lua table by
// field name (mods.md 6.5): numbers for the integer and float kinds,
// strings for str8, str16, cstr and bytes.
func (m *mission) fieldsTable(vs []scriptmsg.Value) *glua.LTable {
	t := m.L.CreateTable(0, len(vs))
	for _, v := range vs {
		switch v.Kind {
		case "f32":
			t.RawSetString(v.Name, glua.LNumber(v.Float))
		case "str8", "str16", "cstr", "bytes":
			t.RawSetString(v.Name, glua.LString(v.Bytes))
		default:
			t.RawSetString(v.Name, glua.LNumber(v.Int))
		}
	}
	return t
}
