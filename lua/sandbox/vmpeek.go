package sandbox

import (
	"reflect"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// gopher-lua asks the state's context whether to stop before every VM
// instruction (mainLoopWithContext), and that is the only hook it offers.
// Two instructions can do unbounded work in one step: CONCAT joins up to
// 250 registers into one string (so "s = s .. s" doubles memory per
// instruction), and LEN scans a table's array part from the end. To bound
// them the meter looks at the instruction about to run, which needs the
// current call frame and the register file: unexported fields, found here
// by name and type with reflect once, so a gopher-lua upgrade that changes
// them turns the peek off (vmLayoutOK false; TestVMPeek fails) instead of
// reading the wrong memory.

type vmLayout struct {
	frame, reg        uintptr // LState.currentFrame, LState.reg
	fn, pc, localBase uintptr // callFrame.Fn, Pc, LocalBase
	regArray, regTop  uintptr // registry.array, registry.top
	tblArray          uintptr // LTable.array
}

var (
	vmOffsets  vmLayout
	vmLayoutOK = findVMLayout(&vmOffsets)
)

func findVMLayout(l *vmLayout) bool {
	field := func(t reflect.Type, name string, want reflect.Type, kind reflect.Kind) (reflect.StructField, bool) {
		if t.Kind() != reflect.Struct {
			return reflect.StructField{}, false
		}
		f, ok := t.FieldByName(name)
		if !ok || len(f.Index) != 1 {
			return f, false
		}
		if want != nil && f.Type != want {
			return f, false
		}
		if kind != reflect.Invalid && f.Type.Kind() != kind {
			return f, false
		}
		return f, true
	}
	values := reflect.TypeOf([]glua.LValue(nil))
	ls := reflect.TypeOf(glua.LState{})
	cf, ok1 := field(ls, "currentFrame", nil, reflect.Pointer)
	rg, ok2 := field(ls, "reg", nil, reflect.Pointer)
	if !ok1 || !ok2 {
		return false
	}
	fn, ok3 := field(cf.Type.Elem(), "Fn", reflect.TypeOf((*glua.LFunction)(nil)), reflect.Invalid)
	pc, ok4 := field(cf.Type.Elem(), "Pc", reflect.TypeOf(0), reflect.Invalid)
	lb, ok5 := field(cf.Type.Elem(), "LocalBase", reflect.TypeOf(0), reflect.Invalid)
	ra, ok6 := field(rg.Type.Elem(), "array", values, reflect.Invalid)
	rt, ok8 := field(rg.Type.Elem(), "top", reflect.TypeOf(0), reflect.Invalid)
	ta, ok7 := field(reflect.TypeOf(glua.LTable{}), "array", values, reflect.Invalid)
	if !(ok3 && ok4 && ok5 && ok6 && ok7 && ok8) {
		return false
	}
	*l = vmLayout{frame: cf.Offset, reg: rg.Offset, fn: fn.Offset, pc: pc.Offset, localBase: lb.Offset, regArray: ra.Offset, regTop: rt.Offset, tblArray: ta.Offset}
	return true
}

// vmInstruction returns the instruction the VM is about to run and the
// base of its frame's registers; ok is false outside a Lua frame.
func vmInstruction(L *glua.LState) (inst uint32, frame unsafe.Pointer, ok bool) {
	frame = *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), vmOffsets.frame))
	if frame == nil {
		return 0, nil, false
	}
	fn := *(**glua.LFunction)(unsafe.Add(frame, vmOffsets.fn))
	if fn == nil || fn.Proto == nil {
		return 0, nil, false
	}
	pc := *(*int)(unsafe.Add(frame, vmOffsets.pc)) - 1 // already advanced
	code := fn.Proto.Code
	if uint(pc) >= uint(len(code)) {
		return 0, nil, false
	}
	return code[pc], frame, true
}

// vmConstants returns the constants of the frame's function.
func vmConstants(frame unsafe.Pointer) []glua.LValue {
	fn := *(**glua.LFunction)(unsafe.Add(frame, vmOffsets.fn))
	if fn == nil || fn.Proto == nil {
		return nil
	}
	return fn.Proto.Constants
}

// vmRegisters returns the state's register file and the frame's base.
func vmRegisters(L *glua.LState, frame unsafe.Pointer) ([]glua.LValue, int) {
	reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), vmOffsets.reg))
	if reg == nil {
		return nil, 0
	}
	return *(*[]glua.LValue)(unsafe.Add(reg, vmOffsets.regArray)), *(*int)(unsafe.Add(frame, vmOffsets.localBase))
}

// tableArrayLen is the length of a table's array part (what LEN scans).
// The string library and the memory walk use it whether or not the peek
// is on: with an unknown layout it falls back to the border Len finds
// (a scan from the end past trailing nils) rather than read offset 0.
func tableArrayLen(t *glua.LTable) int {
	if !vmLayoutOK {
		return t.Len()
	}
	return len(*(*[]glua.LValue)(unsafe.Add(unsafe.Pointer(t), vmOffsets.tblArray)))
}

// StackValues returns the live part of the state's register file (below
// its top), for the memory walk.
func StackValues(L *glua.LState) []glua.LValue {
	if !vmLayoutOK {
		return nil
	}
	reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), vmOffsets.reg))
	if reg == nil {
		return nil
	}
	arr := *(*[]glua.LValue)(unsafe.Add(reg, vmOffsets.regArray))
	top := *(*int)(unsafe.Add(reg, vmOffsets.regTop))
	if top < 0 || top > len(arr) {
		return arr
	}
	return arr[:top]
}
