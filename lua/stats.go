package lua

import glua "github.com/yuin/gopher-lua"

// stats is bc.stats(player): the career statistics of a player (by id, or
// a name for someone not connected) as a table, or nil when the server
// keeps none ([store] path unset) or has not read them yet — they are
// read in the background when a player joins, so a mission asks again
// later (on the next spawn, say) rather than waiting.
func (m *mission) stats(L *glua.LState) int {
	var name string
	switch v := L.Get(1).(type) {
	case glua.LString:
		name = string(v)
		if len(name) > 128 {
			L.ArgError(1, "name longer than 128 bytes")
		}
	default:
		p := m.checkPlayer(L, 1)
		if p == nil {
			L.Push(glua.LNil)
			return 1
		}
		name = p.Name
	}
	if m.h.opts.Stats == nil {
		L.Push(glua.LNil)
		return 1
	}
	v, ok := m.h.opts.Stats(name)
	if !ok {
		L.Push(glua.LNil)
		return 1
	}
	L.Push(fromPlain(L, v))
	return 1
}
