package sandbox

import (
	"fmt"
	"strings"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// gopher-lua reports every call of a value that is not a function as
// "attempt to call a non-function object", which leaves an author guessing
// which name on the line was nil. PUC Lua names it ("attempt to call
// global 'spawn_guard' (a nil value)"), and so do we: the meter sees each
// CALL before it runs (vmpeek.go); when the register it calls holds no
// function and nothing with a __call metamethod, it works out what was
// loaded into that register from the function's bytecode, as PUC Lua's
// getobjname does, and keeps the message. The call then fails as before
// and pcall swaps the message in.

// nonFunctionCall is gopher-lua's message for a call of a non-function.
const nonFunctionCall = "attempt to call a non-function object"

// badCall is a call the meter saw go wrong: where (source:line) and the
// message to report instead of gopher-lua's.
type badCall struct {
	where, msg string
}

// checkCall runs before a CALL or TAILCALL whose function register a
// holds v. Only a value that is not a function costs anything.
func (m *Meter) checkCall(frame unsafe.Pointer, v glua.LValue, a int) {
	if _, ok := v.(*glua.LFunction); ok {
		return
	}
	if m.L.GetMetaField(v, "__call") != glua.LNil {
		return
	}
	fn := *(**glua.LFunction)(unsafe.Add(frame, vmOffsets.fn))
	pc := *(*int)(unsafe.Add(frame, vmOffsets.pc)) - 1
	if fn == nil || fn.Proto == nil || pc < 0 || pc >= len(fn.Proto.Code) {
		return
	}
	p := fn.Proto
	what := calleeName(fn, pc, a)
	line := 0
	if pc < len(p.DbgSourcePositions) {
		line = p.DbgSourcePositions[pc]
	}
	msg := fmt.Sprintf("attempt to call a %s value", v.Type().String())
	if what != "" {
		msg = fmt.Sprintf("attempt to call %s (a %s value)", what, v.Type().String())
	}
	m.call = badCall{where: fmt.Sprintf("%s:%d:", p.SourceName, line), msg: msg}
}

// explainCall rewrites gopher-lua's message for the last bad call the
// meter saw, when the error is that call's.
func (m *Meter) ExplainCall(msg string) string {
	c := m.call
	m.call = badCall{}
	if c.msg == "" || !strings.Contains(msg, nonFunctionCall) || !strings.HasPrefix(msg, c.where) {
		return msg
	}
	return strings.Replace(msg, nonFunctionCall, c.msg, 1)
}

// maxCalleeScan bounds the look back for the instruction that loaded a
// call's function register.
const maxCalleeScan = 256

// calleeName names what the CALL at pc of fn calls through register a:
// "global 'f'", "method 'm'", "field 'x'", "local 'f'", "upvalue 'f'", or
// the name the compiler recorded for the call ("'f'") when the loading
// instruction is not one of those; "" when nothing is known.
func calleeName(fn *glua.LFunction, pc, a int) string {
	p := fn.Proto
	str := func(k int) (string, bool) {
		if k < 0 || k >= len(p.Constants) {
			return "", false
		}
		s, ok := p.Constants[k].(glua.LString)
		return string(s), ok
	}
	constant := func(rk int) (string, bool) { // an RK operand
		if rk&rkConstant == 0 {
			return "", false
		}
		return str(rk &^ rkConstant)
	}
	for i := pc - 1; i >= 0 && i >= pc-maxCalleeScan; i-- {
		inst := p.Code[i]
		op, ia := int(inst>>26), int(inst>>18)&0xff
		b, c := int(inst&0x1ff), int(inst>>9)&0x1ff
		if ia != a {
			continue
		}
		switch op {
		case glua.OP_GETGLOBAL:
			if k, ok := str(int(inst & 0x3ffff)); ok {
				return "global '" + k + "'"
			}
		case glua.OP_GETTABLE, glua.OP_GETTABLEKS:
			if k, ok := constant(c); ok {
				return "field '" + k + "'"
			}
		case glua.OP_SELF:
			if k, ok := constant(c); ok {
				return "method '" + k + "'"
			}
		case glua.OP_GETUPVAL:
			if b < len(p.DbgUpvalues) {
				return "upvalue '" + p.DbgUpvalues[b] + "'"
			}
		case glua.OP_MOVE, glua.OP_MOVEN:
			if name, ok := fn.LocalName(b+1, pc); ok {
				return "local '" + name + "'"
			}
		}
		return recordedName(p, pc)
	}
	if name, ok := fn.LocalName(a+1, pc); ok {
		return "local '" + name + "'"
	}
	return recordedName(p, pc)
}

// recordedName is the name gopher-lua's compiler noted for the call at pc.
func recordedName(p *glua.FunctionProto, pc int) string {
	for _, c := range p.DbgCalls {
		if c.Pc == pc && c.Name != "" && c.Name != "?" {
			return "'" + c.Name + "'"
		}
	}
	return ""
}
