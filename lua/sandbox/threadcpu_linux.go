package sandbox

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU reads the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID), for Budget.ThreadCPU. It is a system call
// (~0.5 µs): the meter reads it only for a call already past its limit.
func ThreadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
