package server

import (
	"errors"
	"fmt"
	"maps"

	"github.com/bcserver/bcserver/lua"
)

// RotationStep is one [[rotation]] entry: a mode and the [mission] keys
// it plays with. The game plays the steps in order, one match each, and
// starts over; a vote (bc.next_match, bc.set_mode) may skip ahead.
type RotationStep struct {
	Mode      string `toml:"mode"`
	System    string `toml:"system"`
	TimeLimit *int   `toml:"time_limit"`
	FragLimit *int   `toml:"frag_limit"`
}

// maxRotation bounds a rotation's steps.
const maxRotation = 64

// over returns the [mission] keys the step sets.
func (s RotationStep) over() map[string]any {
	m := map[string]any{}
	if s.System != "" {
		m["system"] = s.System
	}
	if s.TimeLimit != nil {
		m["time_limit"] = int64(*s.TimeLimit)
	}
	if s.FragLimit != nil {
		m["frag_limit"] = int64(*s.FragLimit)
	}
	return m
}

// plain is the step as bc.rotation shows it.
func (s RotationStep) plain() map[string]any {
	m := s.over()
	m["mode"] = s.Mode
	return m
}

// checkRotation checks every step's mode and keys, naming the step.
func (c Config) checkRotation() error {
	if len(c.Rotation) > maxRotation {
		return fmt.Errorf("rotation: at most %d steps", maxRotation)
	}
	fsys, where, err := c.MissionsFS()
	if err != nil {
		return nil // reported by Runtime
	}
	var errs []error
	for i, s := range c.Rotation {
		if err := lua.CheckMode(fsys, s.Mode); err != nil {
			errs = append(errs, fmt.Errorf("rotation[%d].mode: %s: %w", i, where, err))
		}
		ms := MissionSection(maps.Clone(c.Mission))
		if ms == nil {
			ms = MissionSection{}
		}
		maps.Copy(ms, s.over())
		if _, err := ms.check(); err != nil {
			errs = append(errs, fmt.Errorf("rotation[%d]: %w", i, err))
		}
	}
	return errors.Join(errs...)
}

// applyRotation makes a game with a rotation start with its first step.
func (c *Config) applyRotation() {
	if len(c.Rotation) == 0 {
		return
	}
	first := c.Rotation[0]
	c.Game.Mode = first.Mode
	c.baseMission = maps.Clone(c.Mission)
	c.Mission = MissionSection(maps.Clone(c.Mission))
	if c.Mission == nil {
		c.Mission = MissionSection{}
	}
	maps.Copy(c.Mission, first.over())
}

// slotSwitch is the mission slot as missions see it (lua.Switcher).
type slotSwitch struct{ m *missionSlot }

func (s slotSwitch) Modes() []string { return s.m.Modes() }

func (s slotSwitch) SetMode(mode string, over map[string]any, now bool) error {
	conf := maps.Clone(s.m.base)
	if conf == nil {
		conf = map[string]any{}
	}
	maps.Copy(conf, over)
	if err := (MissionSection(conf)).checkErr(); err != nil {
		return err
	}
	// A switch from inside the mission's own call waits for the loop's
	// next pass: the running mission is still on the stack.
	s.m.g.After(0, func() {
		if _, err := s.m.setMode(mode, conf, now); err != nil {
			s.m.log.Warn("mode switch failed", "component", "lua", "mode", mode, "err", err)
		}
	})
	return nil
}

func (s slotSwitch) Next(now bool) error {
	m := s.m
	if len(m.rotation) == 0 {
		if now {
			m.g.After(0, func() {
				m.cut("restarted")
				m.g.RestartGame()
			})
		}
		return nil
	}
	if now {
		m.g.After(0, func() { m.advance(true) })
		return nil
	}
	// At the match end the rotation moves on anyway.
	return nil
}

func (s slotSwitch) Rotation() ([]map[string]any, int) {
	out := make([]map[string]any, len(s.m.rotation))
	for i, st := range s.m.rotation {
		out[i] = st.plain()
	}
	if len(out) == 0 {
		return out, 0
	}
	return out, s.m.rotIndex + 1
}

// advance moves to the rotation's next step: at once (now: the match is
// cut and a new one starts; never from inside a Lua call) or, at a match
// end, as the pending switch the slot makes after it.
func (m *missionSlot) advance(now bool) {
	if len(m.rotation) == 0 {
		return
	}
	m.rotIndex = (m.rotIndex + 1) % len(m.rotation)
	st := m.rotation[m.rotIndex]
	conf := maps.Clone(m.base)
	if conf == nil {
		conf = map[string]any{}
	}
	maps.Copy(conf, st.over())
	m.log.Info("rotation", "component", "lua", "step", m.rotIndex+1, "mode", st.Mode, "system", st.System, "now", now)
	if !now {
		m.pending, m.pendingConf = st.Mode, conf
		return
	}
	if _, err := m.setMode(st.Mode, conf, true); err != nil {
		m.log.Error("rotation step failed, the running mission stays", "component", "lua", "mode", st.Mode, "err", err)
	}
}

// checkErr is check for a merged table.
func (s MissionSection) checkErr() error {
	_, err := s.check()
	return err
}
