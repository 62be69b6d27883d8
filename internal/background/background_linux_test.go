package background

import (
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

	got := make(chan int)
	go func() {
		Lower()
		nice, err := threadNice(unix.Gettid())
		if err != nil {
			nice = -100
		}
		got <- nice
		// returns locked: the runtime ends the thread
	}()
	if nice, want := <-got, min(base+Nice, 19); nice != want {
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
