package server

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// backgroundNice is how much lower than the rest of the process start-up's
// background work runs (the mission compiles once the games run), nice(1)'s
// default. On a 2-core host a compile that the kernel placed on the same
// core as a game's loop held up the loop's first answers by up to a
// scheduler slice (3 ms, in ~40 % of starts); 10 lower, a waking game
// preempts it at once, while the compile keeps about a tenth of a core
// that something else saturates (19 lower gained little more and left it
// a sixtieth).
const backgroundNice = 10

// lowPriority runs the rest of the calling goroutine backgroundNice lower
// than it ran (at most nice 19): it locks the goroutine to its thread and
// lowers that thread's priority. The caller must never unlock: the
// runtime then ends the thread with the goroutine, so no lowered thread
// goes back to run the games (a process without CAP_SYS_NICE cannot raise
// it again). A failure leaves the priority as it was.
func lowPriority() {
	runtime.LockOSThread()
	tid := unix.Gettid()
	if nice, err := threadNice(tid); err == nil {
		_ = unix.Setpriority(unix.PRIO_PROCESS, tid, min(nice+backgroundNice, 19))
	}
}

// threadNice returns the nice value of thread tid of this process.
func threadNice(tid int) (int, error) {
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	return 20 - prio, err // the system call answers 40..1 for nice -20..19
}
