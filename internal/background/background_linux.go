package background

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// Nice is how much lower than the rest of the process background work
// runs, nice(1)'s default. On a 2-core host, work that the kernel placed
// on the same core as the thread it was meant to spare held that thread
// up by up to a scheduler slice (3 ms: a game loop's first answers behind
// the mission compile in ~40 % of starts); 10 lower, the waking thread
// preempts it at once, while the work keeps about a tenth of a core that
// something else saturates (19 lower gained little more and left it a
// sixtieth).
const Nice = 10

// Lower runs the rest of the calling goroutine Nice levels lower than it
// ran (at most nice 19): it locks the goroutine to its thread and lowers
// that thread's priority. The caller must never unlock: the runtime then
// ends the thread with the goroutine, so no lowered thread goes back to
// run anything else (a process without CAP_SYS_NICE cannot raise it
// again). A failure (a sandbox that refuses the system calls) leaves the
// priority as it was and is returned; the work can go on regardless.
func Lower() error {
	runtime.LockOSThread()
	tid := unix.Gettid()
	nice, err := threadNice(tid)
	if err != nil {
		return fmt.Errorf("getpriority: %w", err)
	}
	if err := unix.Setpriority(unix.PRIO_PROCESS, tid, min(nice+Nice, 19)); err != nil {
		return fmt.Errorf("setpriority: %w", err)
	}
	return nil
}

// threadNice returns the nice value of thread tid of this process.
func threadNice(tid int) (int, error) {
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	return 20 - prio, err // the system call answers 40..1 for nice -20..19
}
