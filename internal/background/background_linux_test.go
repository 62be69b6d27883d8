package background

import (
	"errors"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// currentNice returns the nice value of the calling goroutine's thread;
// the caller has locked it.
func currentNice(t *testing.T) int {
	t.Helper()
	nice, err := threadNice(unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return nice
}

// Background work runs Nice lower than the rest of the process, and what
// runs after it never does: its thread ends with it.
func TestLowerIsTheGoroutinesAlone(t *testing.T) {
	runtime.LockOSThread()
	base := currentNice(t)
	runtime.UnlockOSThread()

	got, failed := make(chan int), make(chan error)
	go func() {
		if err := Lower(); err != nil {
			failed <- err
			return // locked all the same: the runtime ends the thread
		}
		nice, err := threadNice(unix.Gettid())
		if err != nil {
			nice = -100
		}
		got <- nice
		// returns locked: the runtime ends the thread
	}()
	var nice int
	select {
	case err := <-failed:
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOSYS) {
			t.Skipf("this sandbox refuses to lower a thread's priority: %v", err)
		}
		t.Fatal(err)
	case nice = <-got:
	}
	if want := min(base+Nice, 19); nice != want {
		t.Fatalf("background goroutine runs at nice %d, want %d (process at %d)", nice, want, base)
	}

	// Goroutines started afterwards, each on a thread of its own while it
	// reports, are never handed the lowered thread.
	const n = 32
	after := make(chan int, n)
	for range n {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			nice, err := threadNice(unix.Gettid())
			if err != nil {
				nice = -100
			}
			after <- nice
		}()
	}
	for range n {
		if nice := <-after; nice != base {
			t.Fatalf("a later goroutine runs at nice %d, want the process's %d", nice, base)
		}
	}
}
