package lua

import (
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/bcserver/bcserver/lua/sandbox"

	glua "github.com/yuin/gopher-lua"
	luar "layeh.com/gopher-luar"
)

// mission is one loaded version of a mission: its Lua state and what it
// registered. It is used only on the game goroutine.
type mission struct {
	h       *Runtime
	L       *glua.LState
	meter   *sandbox.Meter
	mem     *sandbox.Memory
	src     *source
	version int

	bc      *glua.LTable
	storage *glua.LTable // bc.storage: carried over reloads, and restarts with a storage_dir
	memory  *glua.LTable // bc.memory: carried over reloads only

	handlers map[string][]handler
	nextID   int
	timers   luaTimers
	commands commands
	rule     damageRule // bc.set_damage_rule (damage.go)

	errfunc *glua.LFunction // records the traceback of a failed call
	trace   string

	loaded  map[string]glua.LValue // modules by file path
	loading map[string]bool

	// While a version loads, what it does to the game is staged here and
	// applied only once it has loaded (see effects.go).
	building bool
	staged   []func()
	loadTime time.Duration // what the load's calls took so far

	// Ship handles: their shared metatable and methods, and the host
	// ships created while the version loads (not yet in the world).
	shipMT       *glua.LTable
	shipMethods  map[string]*glua.LFunction
	pendingShips int

	errs, overruns []time.Time
	failed         string // why the mission must be suspended
	closed         bool
	depth          int // nesting of calls into Lua (an action may raise an event)
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

func newMission(h *Runtime, src *source, version int, data *carried) (*mission, error) {
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
		handlers: make(map[string][]handler),
		loaded:   make(map[string]glua.LValue),
		loading:  make(map[string]bool),
		building: true,
	}
	m.timers.init()
	m.mem = sandbox.NewMemory(h.opts.MemoryLimit, m.roots)
	b := sandbox.Budget{StepTime: h.opts.StepTime, MaxString: h.opts.MaxString, Clock: h.clock, Memory: m.mem, Why: h.budgetMessage}
	if b.StepTime <= 0 {
		b.ThreadCPU = sandbox.ThreadCPU // on the clock: a call kept waiting is not a slow one
	}
	m.meter = sandbox.NewMeter(L, b)
	cfg := luar.GetConfig(L)
	cfg.MethodNames = func(_ reflect.Type, meth reflect.Method) []string { return []string{snake(meth.Name)} }
	cfg.FieldNames = func(reflect.Type, reflect.StructField) []string { return nil }
	if err := m.openLibs(); err != nil {
		m.close()
		return nil, err
	}
	table := func(v any) *glua.LTable {
		if v != nil {
			if t, ok := fromPlain(L, v).(*glua.LTable); ok {
				return t
			}
		}
		return L.NewTable()
	}
	m.storage, m.memory = table(data.storage), table(data.memory)
	m.errfunc = L.NewFunction(m.traceback)
	m.shipMT = m.shipMeta()
	m.bc = m.api()
	L.SetGlobal("bc", m.bc)
	// Only now: the library set-up above runs Lua-side code that must not
	// be metered before a call is armed.
	L.SetContext(m.meter)
	return m, nil
}

// roots hands the memory walk everything the state can reach.
func (m *mission) roots(visit func(glua.LValue)) {
	L := m.L
	visit(L.G.Global)
	visit(L.G.Registry)
	visit(m.bc)
	visit(m.storage)
	visit(m.memory)
	// Strings the runtime keeps in Go (handler ids, timer names) are
	// the mission's too: each may be as long as the string cap.
	for _, hs := range m.handlers {
		for _, hd := range hs {
			visit(hd.fn)
			visit(glua.LString(hd.id))
		}
	}
	for _, t := range m.timers.q.Timers() {
		if t.Value.fn != nil {
			visit(t.Value.fn)
		}
		visit(glua.LString(t.Value.name))
	}
	for _, c := range m.commands.byName {
		visit(c.fn)
	}
	for _, v := range m.loaded {
		visit(v)
	}
	for _, v := range sandbox.StackValues(L) {
		visit(v)
	}
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

// openLibs opens the sandbox's allow-listed standard library, then the
// mission's own require and print.
func (m *mission) openLibs() error {
	L := m.L
	if err := sandbox.Open(L, m.meter); err != nil {
		return err
	}
	L.SetGlobal("require", L.NewFunction(m.require))
	L.SetGlobal("print", L.NewFunction(m.print))
	return nil
}

// require resolves modules inside the mission's folder, then lib/; bc is
// built in. Modules are compiled when first required and run once per
// state.
func (m *mission) require(L *glua.LState) int {
	name := L.CheckString(1)
	if name == "bc" {
		L.Push(m.bc)
		return 1
	}
	from := ""
	if dbg, ok := L.GetStack(1); ok {
		if _, err := L.GetInfo("S", dbg, glua.LNil); err == nil {
			from = dbg.Source
		}
	}
	path, ok := m.src.resolve(name, from)
	if !ok {
		L.RaiseError("require %q: no module %s.lua in the mission's folder or %s/", name, strings.ReplaceAll(name, ".", "/"), LibDir)
	}
	// Modules are cached by file: an addon's "util" is not the mode's.
	if v, ok := m.loaded[path]; ok {
		L.Push(v)
		return 1
	}
	if m.loading[path] {
		L.RaiseError("require %q: circular require", name)
	}
	proto, err := m.src.compile(path, func() {
		m.meter.Charge(L, int64(len(m.src.files[path])/sandbox.CompileBytesPerStep))
	})
	if err != nil {
		L.RaiseError("require %q: %v", name, err)
	}
	m.loading[path] = true
	defer delete(m.loading, path)
	L.Push(L.NewFunctionFromProto(proto))
	L.Push(glua.LString(name))
	L.Push(glua.LString(path))
	L.Call(2, 1)
	v := L.Get(-1)
	L.Pop(1)
	if v == glua.LNil {
		v = glua.LTrue
	}
	m.loaded[path] = v
	L.Push(v)
	return 1
}

func (m *mission) print(L *glua.LState) int {
	parts := make([]string, 0, L.GetTop())
	for i := 1; i <= L.GetTop(); i++ {
		parts = append(parts, L.ToStringMeta(L.Get(i)).String())
	}
	m.h.logs.log(m.h.log, slogInfo, strings.Join(parts, "\t"), "source", where(L))
	return 0
}

// where is the file:line of the Lua code calling into Go.
func where(L *glua.LState) string {
	return strings.TrimSuffix(L.Where(1), ":")
}

// runMain runs main.lua under the budget; an error fails the load.
func (m *mission) runMain() error {
	fn := m.L.NewFunctionFromProto(m.src.main)
	_, err := m.pcall(fn, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", MainFile, err)
	}
	return nil
}

// runAddon runs an addon's main.lua in the mode's state.
func (m *mission) runAddon(name string) error {
	p := AddonsDir + "/" + name + "/" + MainFile
	proto, err := m.src.compile(p, nil)
	if err != nil {
		return fmt.Errorf("addon %q: %w", name, err)
	}
	if _, err := m.pcall(m.L.NewFunctionFromProto(proto), nil); err != nil {
		return fmt.Errorf("addon %q: %w", name, err)
	}
	return nil
}

// close drops the mission's timers and closes its state.
func (m *mission) close() {
	if m.closed {
		return
	}
	m.closed = true
	m.timers.init()
	m.staged = nil
	m.L.Close()
}
