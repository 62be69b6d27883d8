//go:build !linux

package sandbox

import "time"

// ThreadCPU reads the CPU time the calling OS thread has used, for
// Budget.ThreadCPU; not on this system (ok false: calls are stopped at
// their limit on the clock).
func ThreadCPU() (time.Duration, bool) { return 0, false }
