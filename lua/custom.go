package lua

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"
)

// Custom events let the scripts of one mode (its main.lua, its modules and
// its addons) talk without knowing each other: bc.on("ctf:flag_taken", fn)
// and bc.emit("ctf:flag_taken", {...}). A custom name has a namespace and
// a colon, so a typo of an engine event is still an error. emit calls the
// handlers at once, in registration order, inside the emitter's budget; a
// failing handler is reported like any other and the rest still run.

const maxCustomEventName = 64

func customEvent(name string) bool {
	if len(name) == 0 || len(name) > maxCustomEventName {
		return false
	}
	colon := -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == ':':
			if colon >= 0 {
				return false
			}
			colon = i
		case nameByte(c, false, "_-."):
		default:
			return false
		}
	}
	return colon > 0 && colon < len(name)-1
}

// emitCustom is bc.emit(name [, payload]).
func (m *mission) emitCustom(L *glua.LState) int {
	name := L.CheckString(1)
	if !customEvent(name) {
		L.ArgError(1, fmt.Sprintf("%q is not a custom event name (\"addon:event\", letters, digits, _ - .)", name))
	}
	arg := L.Get(2)
	for _, hd := range append([]handler(nil), m.handlers[name]...) {
		if m.closed {
			break
		}
		m.call(name, hd.fn, arg)
	}
	return 0
}
