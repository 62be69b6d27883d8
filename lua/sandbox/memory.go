package sandbox

import (
	"fmt"
	"runtime/metrics"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
)

// Memory enforces a mission's memory limit. gopher-lua allocates from
// the Go heap with no per-state accounting, so the runtime estimates:
//
//   - while Lua runs, the meter samples the process's allocation counter
//     (runtime/metrics, ~150 ns) every sampleEvery checks, or sooner when
//     bulk work (concatenation, string functions) has produced many bytes;
//   - once the bytes allocated since the last measurement could have taken
//     the mission over its limit, it measures: a walk of everything the
//     state can reach (globals, registry, bc.storage, handlers, timers,
//     stack), counting strings, tables, functions and userdata. The walk
//     stops as soon as it passes the limit.
//
// The counter is process-wide, so other goroutines' allocations only make
// measurements more frequent, never less. Single instructions cannot grow
// memory by more than the string cap (CONCAT is checked before it runs,
// Go functions cap their results), so a mission is stopped close to its
// limit rather than after the process has grown.
type Memory struct {
	limit   int64
	live    int64 // bytes found by the last walk
	pending int64 // bytes allocated since then (upper bound)
	bulk    int64 // bytes produced by charged work since the last sample
	checks  int
	last    uint64
	sample  []metrics.Sample
	roots   func(visit func(glua.LValue))
	walks   int // for tests and benchmarks
}

const (
	sampleEvery  = 16      // meter checks (x checkEvery steps) between samples
	sampleBytes  = 1 << 18 // bulk bytes that force a sample
	walkFloor    = 1 << 20 // never walk more often than once per MiB allocated
	allocCounter = "/gc/heap/allocs:bytes"
)

func NewMemory(limit int64, roots func(visit func(glua.LValue))) *Memory {
	a := &Memory{limit: limit, roots: roots, sample: []metrics.Sample{{Name: allocCounter}}}
	a.last = a.read()
	return a
}

func (a *Memory) read() uint64 {
	metrics.Read(a.sample)
	if a.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return a.sample[0].Value.Uint64()
}

// allocated records bytes produced by bulk work.
func (a *Memory) allocated(n int) { a.bulk += int64(n) }

// check is called from the meter's periodic check.
func (a *Memory) check(L *glua.LState) error {
	a.checks++
	if a.checks < sampleEvery && a.bulk < sampleBytes {
		return nil
	}
	a.checks, a.bulk = 0, 0
	cur := a.read()
	if cur > a.last {
		a.pending += int64(cur - a.last)
	}
	a.last = cur
	if a.pending < max(a.limit-a.live, walkFloor) {
		return nil
	}
	return a.Measure()
}

// measure walks the state and refuses if it is over the limit.
func (a *Memory) Measure() error {
	a.pending = 0
	a.live = a.size(a.limit + 1)
	a.walks++
	if a.live > a.limit {
		return memoryError{a.live, a.limit}
	}
	return nil
}

// memoryError is a call stopped because the mission is over its limit.
type memoryError struct{ used, limit int64 }

func (e memoryError) Error() string {
	return fmt.Sprintf("memory limit of %s exceeded (the mission holds more than %s)", MiB(e.limit), MiB(e.used-1))
}

func MiB(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// Rough sizes of gopher-lua values on the Go heap (64-bit).
const (
	sizeValue    = 16 // an interface slot in a table or register
	sizeString   = 16
	sizeTable    = 120
	sizeEntry    = 48 // key, value and map overhead
	sizeFunction = 80
	sizeUserData = 4096
)

// size walks everything reachable from the roots and returns the bytes it
// estimates, stopping once it passes stop.
func (a *Memory) size(stop int64) int64 {
	w := &memWalk{
		stop:    stop,
		tables:  make(map[*glua.LTable]struct{}),
		funcs:   make(map[*glua.LFunction]struct{}),
		protos:  make(map[*glua.FunctionProto]struct{}),
		strings: make(map[*byte]struct{}),
	}
	a.roots(w.value)
	w.drain()
	return w.total
}

type memWalk struct {
	total   int64
	stop    int64
	queue   []glua.LValue // explicit work list: no recursion on deep data
	tables  map[*glua.LTable]struct{}
	funcs   map[*glua.LFunction]struct{}
	protos  map[*glua.FunctionProto]struct{}
	strings map[*byte]struct{}
}

func (w *memWalk) value(v glua.LValue) {
	if w.total > w.stop {
		return
	}
	switch v := v.(type) {
	case glua.LString:
		w.total += sizeString
		if len(v) >= 64 {
			// Long strings are often shared (one value stored many times):
			// count each backing array once.
			p := unsafe.StringData(string(v))
			if _, ok := w.strings[p]; ok {
				return
			}
			w.strings[p] = struct{}{}
		}
		w.total += int64(len(v))
	case glua.LNumber:
		w.total += 8
	case *glua.LTable, *glua.LFunction, *glua.LUserData:
		w.queue = append(w.queue, v)
	}
}

func (w *memWalk) drain() {
	for len(w.queue) > 0 && w.total <= w.stop {
		v := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		switch v := v.(type) {
		case *glua.LTable:
			if _, ok := w.tables[v]; ok {
				continue
			}
			w.tables[v] = struct{}{}
			w.total += sizeTable + int64(tableArrayLen(v))*sizeValue
			v.ForEach(func(k, val glua.LValue) {
				w.total += sizeEntry
				w.value(k)
				w.value(val)
			})
			if v.Metatable != nil {
				w.value(v.Metatable)
			}
		case *glua.LFunction:
			if _, ok := w.funcs[v]; ok {
				continue
			}
			w.funcs[v] = struct{}{}
			w.total += sizeFunction + int64(len(v.Upvalues))*sizeValue
			if v.Env != nil {
				w.value(v.Env)
			}
			for _, uv := range v.Upvalues {
				if uv != nil {
					w.value(uv.Value())
				}
			}
			w.proto(v.Proto)
		case *glua.LUserData:
			w.total += sizeUserData
			if v.Metatable != nil {
				w.value(v.Metatable)
			}
		}
	}
}

func (w *memWalk) proto(p *glua.FunctionProto) {
	if p == nil {
		return
	}
	if _, ok := w.protos[p]; ok {
		return
	}
	w.protos[p] = struct{}{}
	w.total += int64(len(p.Code))*4 + int64(len(p.Constants))*sizeValue
	for _, c := range p.Constants {
		w.value(c)
	}
	for _, fp := range p.FunctionPrototypes {
		w.proto(fp)
	}
}
