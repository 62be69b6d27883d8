package engine

import (
	"container/heap"
	"time"
)

type timer struct {
	at     time.Time
	every  time.Duration
	fn     func()
	id     uint64
	killed bool
}

// timers is a min-heap of engine timers run by the game goroutine.
type timers struct {
	h    timerHeap
	next uint64
}

func (t *timers) add(at time.Time, every time.Duration, fn func()) func() {
	t.next++
	tm := &timer{at: at, every: every, fn: fn, id: t.next}
	heap.Push(&t.h, tm)
	return func() { tm.killed = true }
}

// run fires every timer due at now; a repeating timer that fell far behind
// fires once and is rescheduled from now, not once per missed period.
func (t *timers) run(now time.Time) {
	for i := 0; i < 10000 && len(t.h) > 0; i++ {
		tm := t.h[0]
		if tm.at.After(now) {
			return
		}
		if tm.killed {
			heap.Pop(&t.h)
			continue
		}
		if tm.every > 0 {
			tm.at = tm.at.Add(tm.every)
			if !tm.at.After(now) {
				tm.at = now.Add(tm.every)
			}
			heap.Fix(&t.h, 0)
		} else {
			heap.Pop(&t.h)
			tm.killed = true
		}
		tm.fn()
	}
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].at.Equal(h[j].at) {
		return h[i].id < h[j].id
	}
	return h[i].at.Before(h[j].at)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return x
}
