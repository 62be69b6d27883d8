package timeq

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Unix(1000, 0)

// Timers come due in time order, ties in the order they were added; a
// removed timer never comes; a repeating one is rescheduled one period on,
// or from now when it fell behind.
func TestQueue(t *testing.T) {
	var q Queue[string]
	q.Add(t0.Add(2*time.Second), 0, "b")
	q.Add(t0.Add(time.Second), 0, "a1")
	q.Add(t0.Add(time.Second), 0, "a2")
	gone := q.Add(t0.Add(time.Second), 0, "removed")
	rep := q.Add(t0.Add(time.Second), time.Second, "every")
	if !q.Remove(gone) || q.Remove(gone) {
		t.Fatal("Remove: first true, then false")
	}
	if q.Due(t0) != nil {
		t.Fatal("due before its time")
	}
	var got []string
	for tm := q.Due(t0.Add(time.Second)); tm != nil; tm = q.Due(t0.Add(time.Second)) {
		got = append(got, tm.Value)
	}
	if want := "a1 a2 every"; strings.Join(got, " ") != want {
		t.Fatalf("due at 1 s: %s, want %s", strings.Join(got, " "), want)
	}
	if rep.At != t0.Add(2*time.Second) || q.Len() != 2 {
		t.Fatalf("repeating timer at %v, %d queued", rep.At.Sub(t0), q.Len())
	}
	// Ten seconds late: each fires once, the repeating one is due a
	// period from now.
	got = nil
	for tm := q.Due(t0.Add(12 * time.Second)); tm != nil; tm = q.Due(t0.Add(12 * time.Second)) {
		got = append(got, tm.Value)
	}
	if want := "b every"; strings.Join(got, " ") != want || rep.At != t0.Add(13*time.Second) || q.Len() != 1 {
		t.Fatalf("late: %s, every at %v, %d queued", strings.Join(got, " "), rep.At.Sub(t0), q.Len())
	}
	if !q.Remove(rep) || q.Len() != 0 || q.Due(t0.Add(time.Hour)) != nil {
		t.Fatal("removing the repeating timer")
	}
	// A fired one-shot timer is out of the queue; Reset empties it.
	shot := q.Add(t0, 0, "shot")
	if q.Due(t0) != shot || q.Remove(shot) {
		t.Fatal("a fired one-shot timer is still removable")
	}
	kept := q.Add(t0, 0, "x")
	q.Reset()
	if q.Len() != 0 || q.Remove(kept) {
		t.Fatal("Reset")
	}
}
