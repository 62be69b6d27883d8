package lua

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	glua "github.com/yuin/gopher-lua"
	luar "layeh.com/gopher-luar"
)

// mission is one loaded version of a mission: its Lua state and what it
// registered. It is used only on the game goroutine.
type mission struct {
	h       *Host
	L       *glua.LState
	wd      *watchdog
	src     *source
	version int

	bc      *glua.LTable
	storage *glua.LTable

	handlers map[string][]handler
	nextID   int

	timers    map[int]func() // cancel funcs of engine timers
	nextTimer int

	loaded  map[string]glua.LValue
	loading map[string]bool

	errs   []time.Time
	failed bool
	closed bool
	depth  int // nesting of calls into Lua (an action may raise an event)
}

type handler struct {
	id string
	fn *glua.LFunction
}

// State limits: deep recursion ends as a Lua error, not a Go stack
// overflow, and the data stack cannot grow without bound.
const (
	callStackSize   = 200
	registrySize    = 1024
	registryMaxSize = 256 * 1024
)

func newMission(h *Host, src *source, version int, storage any) (*mission, error) {
	L := glua.NewState(glua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       callStackSize,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registrySize,
		MinimizeStackMemory: true,
	})
	m := &mission{
		h: h, L: L, src: src, version: version,
		wd:       newWatchdog(h.opts.Budget),
		handlers: make(map[string][]handler),
		timers:   make(map[int]func()),
		loaded:   make(map[string]glua.LValue),
		loading:  make(map[string]bool),
	}
	L.SetContext(m.wd)
	cfg := luar.GetConfig(L)
	cfg.MethodNames = func(_ reflect.Type, meth reflect.Method) []string { return []string{snake(meth.Name)} }
	cfg.FieldNames = func(reflect.Type, reflect.StructField) []string { return nil }
	if err := m.openLibs(); err != nil {
		m.close()
		return nil, err
	}
	m.storage = L.NewTable()
	if storage != nil {
		if t, ok := fromPlain(L, storage).(*glua.LTable); ok {
			m.storage = t
		}
	}
	m.bc = m.api()
	L.SetGlobal("bc", m.bc)
	m.loaded["bc"] = m.bc
	return m, nil
}

// snake turns a Go method name into the Lua one: U8 → u8, Str16 → str16,
// CF16 → cf16, Remaining → remaining.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// openLibs opens the allow-listed standard library: base without the
// functions that reach the disk or the raw VM, string, table, math. No io,
// os, debug, package, coroutine or channel.
func (m *mission) openLibs() error {
	L := m.L
	for _, lib := range []struct {
		name string
		fn   glua.LGFunction
	}{{glua.BaseLibName, glua.OpenBase}, {glua.TabLibName, glua.OpenTable}, {glua.StringLibName, glua.OpenString}, {glua.MathLibName, glua.OpenMath}} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(glua.LString(lib.name))
		if err := L.PCall(1, 0, nil); err != nil {
			return fmt.Errorf("opening %s: %w", lib.name, err)
		}
	}
	for _, name := range []string{"dofile", "loadfile", "module", "require", "collectgarbage", "_printregs", "newproxy", "print", "load", "loadstring"} {
		L.SetGlobal(name, glua.LNil)
	}
	L.SetGlobal("require", L.NewFunction(m.require))
	L.SetGlobal("print", L.NewFunction(m.print))
	load := L.NewFunction(m.loadString)
	L.SetGlobal("load", load)
	L.SetGlobal("loadstring", load)
	str := L.GetGlobal("string").(*glua.LTable)
	rep := str.RawGetString("rep").(*glua.LFunction)
	str.RawSetString("rep", L.NewFunction(func(L *glua.LState) int {
		s := L.CheckString(1)
		n := L.CheckInt(2)
		if n > 0 && len(s)*n > m.h.opts.MaxMessage*16 {
			L.RaiseError("string.rep: result of %d bytes exceeds the %d-byte cap", len(s)*n, m.h.opts.MaxMessage*16)
		}
		L.Push(rep)
		L.Push(glua.LString(s))
		L.Push(glua.LNumber(n))
		L.Call(2, 1)
		return 1
	}))
	format := str.RawGetString("format").(*glua.LFunction)
	str.RawSetString("format", L.NewFunction(func(L *glua.LState) int {
		if err := checkFormat(L.CheckString(1)); err != nil {
			L.RaiseError("string.format: %v", err)
		}
		top := L.GetTop()
		L.Push(format)
		for i := 1; i <= top; i++ {
			L.Push(L.Get(i))
		}
		L.Call(top, 1)
		return 1
	}))
	return nil
}

// checkFormat refuses widths and precisions that would make one
// string.format call allocate megabytes ("%999999999d").
func checkFormat(f string) error {
	run := 0
	for i := 0; i < len(f); i++ {
		if f[i] >= '0' && f[i] <= '9' {
			run++
			if run > 3 {
				return errors.New("width or precision above 999")
			}
		} else {
			run = 0
		}
	}
	return nil
}

// loadString is `load`/`loadstring` for source text only: gopher-lua has
// no bytecode loader, and function readers are refused so the chunk's size
// is known up front.
func (m *mission) loadString(L *glua.LState) int {
	s, ok := L.Get(1).(glua.LString)
	if !ok {
		L.Push(glua.LNil)
		L.Push(glua.LString("load: only source strings are allowed"))
		return 2
	}
	name := L.OptString(2, "=(load)")
	fn, err := L.Load(strings.NewReader(string(s)), name)
	if err != nil {
		L.Push(glua.LNil)
		L.Push(glua.LString(err.Error()))
		return 2
	}
	L.Push(fn)
	return 1
}

// require resolves modules inside the mission's folder, then lib/; bc is
// built in. Modules run once per state.
func (m *mission) require(L *glua.LState) int {
	name := L.CheckString(1)
	if v, ok := m.loaded[name]; ok {
		L.Push(v)
		return 1
	}
	if m.loading[name] {
		L.RaiseError("require %q: circular require", name)
	}
	path, proto, ok := m.src.resolve(name)
	if !ok {
		L.RaiseError("require %q: no module %s.lua in %s/ or %s/", name, strings.ReplaceAll(name, ".", "/"), m.src.mode, LibDir)
	}
	m.loading[name] = true
	defer delete(m.loading, name)
	L.Push(L.NewFunctionFromProto(proto))
	L.Push(glua.LString(name))
	L.Push(glua.LString(path))
	L.Call(2, 1)
	v := L.Get(-1)
	L.Pop(1)
	if v == glua.LNil {
		v = glua.LTrue
	}
	m.loaded[name] = v
	L.Push(v)
	return 1
}

func (m *mission) print(L *glua.LState) int {
	parts := make([]string, 0, L.GetTop())
	for i := 1; i <= L.GetTop(); i++ {
		parts = append(parts, L.ToStringMeta(L.Get(i)).String())
	}
	m.h.log.Info(strings.Join(parts, "\t"), "source", where(L))
	return 0
}

// where is the file:line of the Lua code calling into Go.
func where(L *glua.LState) string {
	return strings.TrimSuffix(L.Where(1), ":")
}

// runMain runs main.lua under the budget; an error fails the load.
func (m *mission) runMain() error {
	main := m.src.protos[m.src.mode+"/"+MainFile]
	fn := m.L.NewFunctionFromProto(main)
	_, err := m.pcall(fn, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", MainFile, err)
	}
	return nil
}

// luaError is a failed call into Lua: the message carries file:line.
type luaError struct {
	msg       string
	traceback string
	timeout   bool
}

func (e *luaError) Error() string { return e.msg }

// pcall calls fn(arg) under the time budget; only the outermost call arms
// the watchdog, so a handler running inside another's action shares its
// budget.
func (m *mission) pcall(fn *glua.LFunction, arg glua.LValue) (glua.LValue, error) {
	L := m.L
	L.Push(fn)
	n := 0
	if arg != nil {
		L.Push(arg)
		n = 1
	}
	if m.depth == 0 {
		m.wd.arm()
	}
	m.depth++
	err := L.PCall(n, 1, nil)
	m.depth--
	fired := false
	if m.depth == 0 {
		fired = m.wd.disarm()
	}
	if err != nil {
		le := &luaError{msg: err.Error(), timeout: fired}
		var ae *glua.ApiError
		if errors.As(err, &ae) {
			le.msg = ae.Object.String()
			le.traceback = ae.StackTrace
		}
		if fired && !strings.Contains(le.msg, "budget") {
			le.msg += fmt.Sprintf(" (time budget of %v exceeded)", m.h.opts.Budget)
		}
		return nil, le
	}
	ret := L.Get(-1)
	L.Pop(1)
	return ret, nil
}

// call runs a handler; an error is logged and counted, never returned.
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
// traceback, and counts it toward unloading.
func (m *mission) report(callback string, err error) {
	le, _ := err.(*luaError)
	attrs := []any{"version", m.version, "callback", callback, "err", err.Error()}
	if le != nil && le.traceback != "" {
		attrs = append(attrs, "traceback", le.traceback)
	}
	if le != nil && le.timeout {
		m.h.log.Error("mission callback aborted", attrs...)
	} else {
		m.h.log.Error("mission callback failed", attrs...)
	}
	now := time.Now()
	keep := m.errs[:0]
	for _, t := range m.errs {
		if now.Sub(t) < m.h.opts.ErrorWindow {
			keep = append(keep, t)
		}
	}
	m.errs = append(keep, now)
	if len(m.errs) >= m.h.opts.MaxErrors {
		m.failed = true
	}
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
	arg := payload(m.L)
	for _, hd := range hs {
		if _, err := m.pcall(hd.fn, arg); err != nil {
			return fmt.Errorf("%s handler: %w", name, err)
		}
	}
	return nil
}

// close cancels the mission's timers and closes its state.
func (m *mission) close() {
	if m.closed {
		return
	}
	m.closed = true
	for _, cancel := range m.timers {
		cancel()
	}
	m.timers = nil
	m.wd.stop()
	m.L.Close()
}
