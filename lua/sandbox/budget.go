package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	glua "github.com/yuin/gopher-lua"
)

// meter is the context every call into Lua runs under, and the budget
// every Go function a script calls charges its work to.
//
// gopher-lua asks ctx.Done() before each VM instruction, so Done counts
// steps: one per instruction, plus what the instruction or the Go code it
// calls does in bulk (bytes copied, elements moved, pattern-matcher
// steps). Every checkEvery steps, and whenever a charge is large, check
// compares the call's elapsed time with its limit and samples memory.
// Elapsed time is the wall clock, or, with Options.StepTime set, the step
// count times StepTime: virtual time, so tests and the mission test runner
// are deterministic on any machine. On the clock, a call past its limit
// may have been kept waiting rather than have computed: Budget.ThreadCPU
// tells the two apart.
//
// A meter is used by its mission's state only, on the game goroutine: no
// locks, no timers, no goroutines.
type Meter struct {
	L         *glua.LState
	clock     func() time.Duration // monotonic, real mode
	stepTime  time.Duration        // > 0: virtual time
	maxString int
	peek      bool
	mem       *Memory

	armed bool
	steps int64 // steps of the current outermost call
	next  int64 // step count at which check runs next
	start time.Duration
	limit time.Duration
	kind  Kind
	why   func(kind Kind, limit time.Duration) string // names the budget in errors
	cpu   func() (time.Duration, bool)                // Budget.ThreadCPU
	// late: the call passed its limit on the clock and runs locked to its
	// thread, which had used lateCPU by then.
	late    bool
	lateCPU time.Duration
	err     error
	stop    chan struct{} // closed: returned by Done once err is set
	call    badCall       // the last call of a non-function (callname.go)
}

// Kind says which budget bounds a call, for the error when it runs out.
type Kind uint8

// The budgets a call runs under.
const (
	KindCall Kind = iota // one call's
	KindTick             // what the tick has left
	KindLoad             // a load's
)

// Budget configures a Meter.
type Budget struct {
	// StepTime, when > 0, is the virtual time of one step: elapsed time is
	// the steps counted, not the clock (deterministic tests).
	StepTime time.Duration
	// MaxString is the longest string a script may build.
	MaxString int
	// Clock is a monotonic clock (real time mode).
	Clock func() time.Duration
	// Memory, if set, is sampled and checked while calls run.
	Memory *Memory
	// Why words the error of a call that ran out of its budget.
	Why func(kind Kind, limit time.Duration) string
	// ThreadCPU, if set, reads the CPU time the calling OS thread has
	// used (real time mode). A call past its limit on the clock is then
	// stopped only once it has used another quarter of its limit in CPU
	// time, measured on a thread it stays on from then on, or once the
	// clock says 50 ms past its limit: a call the machine or the Go
	// scheduler kept waiting (a saturated host, a busy process with many
	// games) is not taken for a slow one, while one that computes is
	// stopped a little later than before. ok false: no reading; the call
	// is stopped at its limit.
	ThreadCPU func() (cpu time.Duration, ok bool)
}

// Past its limit on the clock, a call may use limit/lateGrace more CPU
// time, and wait until lateWait past its limit. The wait is bounded in
// absolute terms: a load call's 250 ms must not stretch to seconds of a
// stalled game, whatever kept it waiting (a Go function reading files
// counts as waiting too).
const (
	lateGrace = 4
	lateWait  = 50 * time.Millisecond
)

// checkEvery is how many steps run between two clock reads. A step is
// ~10-50 ns, so the clock is read every few µs; bulk charges check at once.
const checkEvery = 256

// BytesPerStep converts bulk work (bytes copied or scanned) into steps:
// a VM instruction costs about as much as allocating and copying 256 bytes.
const BytesPerStep = 256

// NewMeter returns the meter of L's calls. Set it as L's context once the
// state's set-up (which runs Lua-side code) is done.
func NewMeter(L *glua.LState, b Budget) *Meter {
	stop := make(chan struct{})
	close(stop)
	return &Meter{L: L, clock: b.Clock, stepTime: b.StepTime, maxString: b.MaxString, peek: vmLayoutOK, mem: b.Memory, why: b.Why, cpu: b.ThreadCPU, stop: stop, next: 1 << 62}
}

// IsTimeout reports whether err, from Disarm, stopped a call for time.
func IsTimeout(err error) bool {
	var be budgetError
	return errors.As(err, &be)
}

// IsMemory reports whether err, from Disarm, stopped a call for memory.
func IsMemory(err error) bool {
	var me memoryError
	return errors.As(err, &me)
}

// arm starts the budget of one outermost call into Lua.
func (m *Meter) Arm(limit time.Duration, kind Kind) {
	m.armed = true
	m.steps = 0
	m.next = checkEvery
	m.limit = limit
	m.kind = kind
	m.err = nil
	m.call = badCall{}
	if m.stepTime <= 0 {
		m.start = m.clock()
	}
}

// disarm ends the call: it returns the time the call took and the error
// that stopped it, if the meter did. A call that ran late is charged its
// limit and the CPU time it used after that, not the time it waited.
func (m *Meter) Disarm() (time.Duration, error) {
	el := m.Elapsed()
	if m.late {
		if c, ok := m.cpu(); ok {
			el = min(el, m.limit+max(c-m.lateCPU, 0))
		}
		m.late = false
		runtime.UnlockOSThread()
	}
	err := m.err
	m.armed = false
	m.err = nil
	m.next = 1 << 62
	return el, err
}

// elapsed is the time the current call has taken so far.
func (m *Meter) Elapsed() time.Duration {
	if !m.armed {
		return 0
	}
	if m.stepTime > 0 {
		return time.Duration(m.steps) * m.stepTime
	}
	return m.clock() - m.start
}

// Done implements context.Context; see the type comment.
func (m *Meter) Done() <-chan struct{} {
	m.steps++
	if m.peek {
		m.peekInstruction()
	}
	if m.steps >= m.next {
		return m.check()
	}
	return nil // a nil channel never fires: the VM goes on
}

// check runs the time and memory checks; once the meter has tripped it
// keeps returning the closed channel, so a script's pcall cannot swallow
// the error and carry on.
func (m *Meter) check() <-chan struct{} {
	if m.err != nil {
		return m.stop
	}
	if !m.armed {
		m.next = m.steps + checkEvery
		return nil
	}
	m.next = m.steps + checkEvery
	if el := m.Elapsed(); el > m.limit && m.spent(el) {
		m.err = budgetError{m.why(m.kind, m.limit)}
		return m.stop
	}
	if m.mem != nil {
		if err := m.mem.check(m.L); err != nil {
			m.err = err
			return m.stop
		}
	}
	return nil
}

// spent reports whether a call el into it on the clock, past its limit,
// has used its budget up (see Budget.ThreadCPU). The first time it is
// late, the call is locked to its thread, so that the thread's CPU time
// from then on is the call's alone.
func (m *Meter) spent(el time.Duration) bool {
	if m.cpu == nil || el > m.limit+lateWait {
		return true
	}
	if !m.late {
		runtime.LockOSThread()
		c, ok := m.cpu()
		if !ok {
			runtime.UnlockOSThread()
			return true
		}
		m.late, m.lateCPU = true, c
		return false
	}
	c, ok := m.cpu()
	return !ok || c-m.lateCPU > m.limit/lateGrace
}

// charge adds bulk work done by Go code on the script's behalf and raises
// the budget error in L if it ran out. Go functions call it before doing
// the work, so refused work is never done.
func (m *Meter) Charge(L *glua.LState, steps int64) {
	if steps > 0 {
		m.steps += steps
	}
	if m.steps >= m.next || m.err != nil {
		if m.check() != nil {
			L.RaiseError("%s", m.err.Error())
		}
	}
}

// chargeBytes charges the copy of n bytes into a new value and refuses
// results over the string cap.
func (m *Meter) ChargeBytes(L *glua.LState, what string, n int) {
	if n > m.maxString {
		L.RaiseError("%s: result of %d bytes exceeds the %d-byte string cap", what, n, m.maxString)
	}
	if m.mem != nil {
		m.mem.allocated(n)
	}
	m.Charge(L, int64(n/BytesPerStep))
}

// peekInstruction bounds CONCAT and LEN before the VM runs them (see
// vmpeek.go).
func (m *Meter) peekInstruction() {
	inst, frame, ok := vmInstruction(m.L)
	if !ok {
		return
	}
	switch int(inst >> 26) {
	case glua.OP_CONCAT:
		regs, base := vmRegisters(m.L, frame)
		b, c := base+int(inst&0x1ff), base+int(inst>>9)&0x1ff
		n := 0
		for i := b; i <= c && i < len(regs); i++ {
			switch v := regs[i].(type) {
			case glua.LString:
				n += len(v)
			case glua.LNumber:
				n += 24
			}
		}
		if n > m.maxString && m.err == nil {
			m.err = capError{fmt.Sprintf("string of %d bytes exceeds the %d-byte string cap", n, m.maxString)}
			m.next = 0
			return
		}
		if m.mem != nil {
			m.mem.allocated(n)
		}
		m.steps += int64(n / BytesPerStep)
	case glua.OP_SETTABLE:
		regs, base := vmRegisters(m.L, frame)
		a, b := base+int(inst>>18)&0xff, int(inst&0x1ff)
		if a >= len(regs) {
			return
		}
		t, ok := regs[a].(*glua.LTable)
		if !ok {
			return
		}
		var key glua.LValue
		if b&rkConstant != 0 {
			if k := vmConstants(frame); b&^rkConstant < len(k) {
				key = k[b&^rkConstant]
			}
		} else if base+b < len(regs) {
			key = regs[base+b]
		}
		if err := m.arrayPadding(t, key, false); err != nil && m.err == nil {
			m.err = err
			m.next = 0
		}
	case glua.OP_CALL, glua.OP_TAILCALL:
		regs, base := vmRegisters(m.L, frame)
		a := int(inst>>18) & 0xff
		if base+a < len(regs) {
			m.checkCall(frame, regs[base+a], a)
		}
	case glua.OP_LEN:
		regs, base := vmRegisters(m.L, frame)
		if i := base + int(inst&0x1ff); i < len(regs) {
			// LEN scans the array part from its end past trailing nils;
			// charge a long array by its length (cheap when it ends in a
			// value, but the peek cannot tell without scanning too).
			if t, ok := regs[i].(*glua.LTable); ok {
				if n := tableArrayLen(t); n > 1024 && t.RawGetInt(n) == glua.LNil {
					m.steps += int64(n / 8)
				}
			}
		}
	}
}

// rkConstant marks an instruction operand that indexes the constants
// rather than the registers (gopher-lua's opBitRk).
const rkConstant = 1 << 8

// maxArrayGap bounds the nils one assignment may make gopher-lua append:
// it keeps every integer key below glua.MaxArrayIndex (2^26) in the array
// part, padding up to it, so t[60000000] = 1 on an empty table allocates a
// gigabyte and runs for seconds inside one instruction. 2^20 nils are
// 16 MiB and tens of milliseconds.
const maxArrayGap = 1 << 20

// arrayPadding charges the nils t[key] = v would append to t's array
// part, and refuses more than maxArrayGap (a capError: the assignment is
// not made, and a pcall may catch it). raw is rawset's view, which
// __newindex does not divert.
func (m *Meter) arrayPadding(t *glua.LTable, key glua.LValue, raw bool) error {
	n, ok := key.(glua.LNumber)
	if !ok {
		return nil
	}
	f := float64(n)
	if f != math.Trunc(f) || f < 1 || f >= float64(glua.MaxArrayIndex) {
		return nil
	}
	gap := int(f) - 1 - tableArrayLen(t)
	if gap <= 0 {
		return nil
	}
	if mt, ok := t.Metatable.(*glua.LTable); ok && !raw && mt.RawGetString("__newindex") != glua.LNil {
		return nil // an absent key goes to __newindex, not into t
	}
	if gap > maxArrayGap {
		return capError{fmt.Sprintf("t[%d]: the table's array part would grow by %d empty slots (gopher-lua keeps integer keys below %d in it; at most %d at once): use a string key, or fill the table in order", int(f), gap, glua.MaxArrayIndex, maxArrayGap)}
	}
	if m.mem != nil {
		m.mem.allocated(gap * sizeValue)
	}
	m.steps += int64(gap / 8)
	return nil
}

// budgetError is a call stopped for time.
type budgetError struct{ msg string }

func (e budgetError) Error() string { return e.msg }

// Deadline implements context.Context; the budget is enforced by Done.
func (m *Meter) Deadline() (time.Time, bool) { return time.Time{}, false }

// Err implements context.Context; gopher-lua raises it as the Lua error.
// A refused instruction (capError) is an ordinary error a script's pcall
// may catch, so it is raised once; running out of budget or memory stays.
func (m *Meter) Err() error {
	err := m.err
	if err == nil {
		return context.Canceled
	}
	if _, ok := err.(capError); ok {
		m.err = nil
		m.next = m.steps + checkEvery
	}
	return err
}

// capError is an instruction refused for the size of its result.
type capError struct{ msg string }

func (e capError) Error() string { return e.msg }

// Value implements context.Context.
func (m *Meter) Value(any) any { return nil }

var _ context.Context = (*Meter)(nil)
