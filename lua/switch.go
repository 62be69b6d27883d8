package lua

import (
	glua "github.com/yuin/gopher-lua"
)

// Switcher is what the server gives missions to change the game: the
// votes addon's !vote mode and the rotation. Its methods run on the game
// goroutine; a switch takes effect after the running Lua call returns.
type Switcher interface {
	// Modes lists the modes the missions folder has.
	Modes() []string
	// SetMode switches to mode with over merged over the [mission]
	// table (system, time_limit, frag_limit): at once when now is set,
	// else when the running match ends.
	SetMode(mode string, over map[string]any, now bool) error
	// Next advances the rotation (at once with now, else at the match
	// end); without a rotation it restarts the running mode.
	Next(now bool) error
	// Rotation lists the rotation's steps ({mode, system, ...}) and the
	// index of the running one (1-based, 0 for none).
	Rotation() ([]map[string]any, int)
}

// switchAPI adds bc.modes, bc.set_mode, bc.next_match and bc.rotation.
func (m *mission) switchAPI(bc *glua.LTable) {
	L := m.L
	fn := func(name string, f glua.LGFunction) { bc.RawSetString(name, L.NewFunction(f)) }
	sw := m.h.opts.Switch
	fn("modes", func(L *glua.LState) int {
		t := L.NewTable()
		if sw != nil {
			for _, s := range sw.Modes() {
				t.Append(glua.LString(s))
			}
		}
		L.Push(t)
		return 1
	})
	fn("set_mode", func(L *glua.LState) int {
		mode := L.CheckString(1)
		if len(mode) > 64 {
			L.ArgError(1, "mode name longer than 64 bytes")
		}
		over := map[string]any{}
		now := false
		if opt := L.OptTable(2, nil); opt != nil {
			for _, k := range []string{"system", "time_limit", "frag_limit"} {
				switch v := opt.RawGetString(k).(type) {
				case glua.LString:
					if len(v) > 32 {
						L.ArgError(2, k+" longer than 32 bytes")
					}
					over[k] = string(v)
				case glua.LNumber:
					over[k] = int64(v)
				}
			}
			now = glua.LVAsBool(opt.RawGetString("now"))
		}
		if sw == nil {
			L.RaiseError("bc.set_mode: this server does not let missions switch modes")
		}
		if !containsString(sw.Modes(), mode) {
			L.ArgError(1, "no mode "+mode)
		}
		m.effect(func() {
			if err := sw.SetMode(mode, over, now); err != nil {
				m.h.log.Warn("bc.set_mode failed", "mode", mode, "err", err)
			}
		})
		return 0
	})
	fn("next_match", func(L *glua.LState) int {
		now := glua.LVAsBool(L.Get(1))
		if sw == nil {
			L.RaiseError("bc.next_match: this server does not let missions switch modes")
		}
		m.effect(func() {
			if err := sw.Next(now); err != nil {
				m.h.log.Warn("bc.next_match failed", "err", err)
			}
		})
		return 0
	})
	fn("rotation", func(L *glua.LState) int {
		t := L.NewTable()
		cur := 0
		if sw != nil {
			var steps []map[string]any
			steps, cur = sw.Rotation()
			for _, s := range steps {
				t.Append(fromPlain(L, s))
			}
		}
		L.Push(t)
		L.Push(glua.LNumber(cur))
		return 2
	})
	fn("rating", m.rating)
	fn("balance_teams", func(L *glua.LState) int {
		if b := m.h.opts.Balance; b != nil {
			m.effect(b)
			L.Push(glua.LTrue)
		} else {
			L.Push(glua.LFalse)
		}
		return 1
	})
}

// rating is bc.rating(player): the player's skill rating in the running
// mode's family ({rating, deviation, volatility, matches, family,
// season}), or nil.
func (m *mission) rating(L *glua.LState) int {
	p := m.checkPlayer(L, 1)
	if p == nil || m.h.opts.Rating == nil {
		L.Push(glua.LNil)
		return 1
	}
	v, ok := m.h.opts.Rating(p)
	if !ok {
		L.Push(glua.LNil)
		return 1
	}
	L.Push(fromPlain(L, v))
	return 1
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
