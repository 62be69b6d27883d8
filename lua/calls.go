package lua

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bcserver/bcserver/lua/sandbox"

	glua "github.com/yuin/gopher-lua"
)

// luaError is a failed call into Lua: the message carries file:line.
type luaError struct {
	msg       string
	traceback string
	overrun   bool // stopped by the time budget, or not run for lack of it
	memory    bool // stopped by the memory limit
}

func (e *luaError) Error() string { return e.msg }

// pcall calls fn(arg) under the budget. Only the outermost call arms the
// meter, so a handler running inside another's action (bc.end_game raising
// game_ended) shares its budget.
func (m *mission) pcall(fn *glua.LFunction, arg glua.LValue) (glua.LValue, error) {
	ret, _, err := m.pcallN(fn, arg, 1)
	return ret, err
}

// pcallN is pcall keeping nret (1 or 2) results.
func (m *mission) pcallN(fn *glua.LFunction, arg glua.LValue, nret int) (glua.LValue, glua.LValue, error) {
	L := m.L
	outer := m.depth == 0
	if outer {
		limit, kind, err := m.h.callBudget(m)
		if err != nil {
			return nil, nil, err
		}
		m.meter.Arm(limit, kind)
	}
	L.Push(fn)
	n := 0
	if arg != nil {
		L.Push(arg)
		n = 1
	}
	m.depth++
	m.trace = ""
	err := L.PCall(n, nret, m.errfunc)
	m.depth--
	var stopped error
	if outer {
		var took time.Duration
		took, stopped = m.meter.Disarm()
		m.h.spend(m, took)
	}
	if err != nil {
		le := &luaError{msg: err.Error()}
		var ae *glua.ApiError
		if errors.As(err, &ae) {
			le.msg = m.meter.ExplainCall(ae.Object.String())
			le.traceback = m.trace
		}
		le.overrun = sandbox.IsTimeout(stopped)
		le.memory = sandbox.IsMemory(stopped)
		return nil, nil, le
	}
	if nret == 2 {
		ret, ret2 := L.Get(-2), L.Get(-1)
		L.Pop(2)
		return ret, ret2, nil
	}
	ret := L.Get(-1)
	L.Pop(1)
	return ret, nil, nil
}

// traceback is the error handler of every call: it records where the
// error happened while the stack is still there. gopher-lua's own trace
// names the function a handler was given "main chunk", which sent authors
// looking at main.lua's top level; this one names each function by where
// it was defined, as PUC Lua does.
func (m *mission) traceback(L *glua.LState) int {
	var b strings.Builder
	b.WriteString("stack traceback:")
	n := 0
	for level := 1; ; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sln", dbg, glua.LNil); err != nil || dbg.What == "G" {
			continue
		}
		if n++; n > maxTraceFrames {
			b.WriteString("\n\t...")
			break
		}
		fmt.Fprintf(&b, "\n\t%s:%d: in ", dbg.Source, dbg.CurrentLine)
		switch {
		case dbg.LineDefined == 0: // gopher-lua calls any bottom frame "main"
			b.WriteString("main chunk")
		case dbg.Name != "" && dbg.Name != "?" && dbg.Name != "main chunk":
			fmt.Fprintf(&b, "function '%s' <%s:%d>", dbg.Name, dbg.Source, dbg.LineDefined)
		default:
			fmt.Fprintf(&b, "function <%s:%d>", dbg.Source, dbg.LineDefined)
		}
	}
	m.trace = b.String()
	return 1 // the error value, unchanged
}

const maxTraceFrames = 20

// call runs a callback; an error is logged and counted, never returned.
func (m *mission) call(callback string, fn *glua.LFunction, arg glua.LValue) (glua.LValue, bool) {
	if m.closed {
		return nil, false
	}
	ret, err := m.pcall(fn, arg)
	if err != nil {
		m.report(callback, err)
		return nil, false
	}
	return ret, true
}

// report logs a failed callback with the mission, callback, file:line and
// traceback, and counts it toward suspension.
func (m *mission) report(callback string, err error) {
	le, _ := err.(*luaError)
	e := MissionError{Version: m.version, Kind: ErrFailed, Callback: callback, Err: err.Error()}
	attrs := []any{"version", m.version, "callback", callback, "err", e.Err}
	if le != nil && le.traceback != "" {
		e.Traceback = le.traceback
		attrs = append(attrs, "traceback", le.traceback)
	}
	msg := "mission callback failed"
	if le != nil && (le.overrun || le.memory) {
		e.Kind, msg = ErrAborted, "mission callback aborted"
	}
	m.h.reportError(e, slogError, true, msg, attrs...)
	m.h.count(m, le)
}

// emit calls every handler of a runtime event; payload builds the
// argument (nil for none).
func (m *mission) emit(name string, payload func(L *glua.LState) *glua.LTable) {
	hs := m.handlers[name]
	if len(hs) == 0 {
		return
	}
	var arg glua.LValue = glua.LNil
	if payload != nil {
		arg = payload(m.L)
	}
	for _, hd := range hs {
		if m.closed {
			return
		}
		m.call(name, hd.fn, arg)
	}
}

// emitStrict is emit for the load events: the first error fails the load.
func (m *mission) emitStrict(name string, payload func(L *glua.LState) *glua.LTable) error {
	hs := m.handlers[name]
	if len(hs) == 0 {
		return nil
	}
	var arg glua.LValue = glua.LNil
	if payload != nil {
		arg = payload(m.L)
	}
	for _, hd := range hs {
		if _, err := m.pcall(hd.fn, arg); err != nil {
			return fmt.Errorf("%s handler: %w", name, err)
		}
	}
	return nil
}
