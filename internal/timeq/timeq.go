// Package timeq is the timer queue of the game loop and of the missions:
// a min-heap of timers ordered by due time, then by the order they were
// added, with removal at once (a cancelled timer does not wait in the
// heap for its due time) and the rescheduling rule of repeating timers.
// It is not safe for concurrent use; each owner keeps it on its goroutine.
package timeq

import (
	"container/heap"
	"time"
)

// Timer is one queued timer; Value is the owner's.
type Timer[T any] struct {
	At    time.Time
	Every time.Duration // > 0: a repeating timer
	Value T
	seq   uint64
	index int // position in the heap, -1 once out of it
}

// Queue holds timers. The zero value is empty and ready.
type Queue[T any] struct {
	h   timerHeap[T]
	seq uint64
}

// Add queues a timer due at at, repeating every every if that is > 0.
func (q *Queue[T]) Add(at time.Time, every time.Duration, v T) *Timer[T] {
	q.seq++
	t := &Timer[T]{At: at, Every: every, Value: v, seq: q.seq}
	heap.Push(&q.h, t)
	return t
}

// Remove takes t out of the queue; it reports false if t was not in it
// (already removed, or a one-shot timer that fired).
func (q *Queue[T]) Remove(t *Timer[T]) bool {
	if t.index < 0 || t.index >= len(q.h) || q.h[t.index] != t {
		return false
	}
	heap.Remove(&q.h, t.index)
	return true
}

// Due returns the earliest timer due at now, or nil: a one-shot timer
// leaves the queue, a repeating one is rescheduled one period on, or from
// now if it fell further behind (it fires once, not once per missed
// period).
func (q *Queue[T]) Due(now time.Time) *Timer[T] {
	if len(q.h) == 0 || q.h[0].At.After(now) {
		return nil
	}
	t := q.h[0]
	if t.Every > 0 {
		t.At = t.At.Add(t.Every)
		if !t.At.After(now) {
			t.At = now.Add(t.Every)
		}
		heap.Fix(&q.h, 0)
	} else {
		heap.Pop(&q.h)
	}
	return t
}

// Next returns when the earliest timer is due, or the zero time when the
// queue is empty.
func (q *Queue[T]) Next() time.Time {
	if len(q.h) == 0 {
		return time.Time{}
	}
	return q.h[0].At
}

// Len returns the number of queued timers.
func (q *Queue[T]) Len() int { return len(q.h) }

// Timers returns the queued timers, in no particular order; the slice is
// the queue's own, to read, not to keep.
func (q *Queue[T]) Timers() []*Timer[T] { return q.h }

// Reset empties the queue.
func (q *Queue[T]) Reset() {
	for _, t := range q.h {
		t.index = -1
	}
	q.h = nil
}

type timerHeap[T any] []*Timer[T]

func (h timerHeap[T]) Len() int { return len(h) }
func (h timerHeap[T]) Less(i, j int) bool {
	if h[i].At.Equal(h[j].At) {
		return h[i].seq < h[j].seq
	}
	return h[i].At.Before(h[j].At)
}
func (h timerHeap[T]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap[T]) Push(x any) {
	t := x.(*Timer[T])
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap[T]) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}
