//go:build unix

package httpserve

import "syscall"

// descriptorLimit returns the process's soft limit of open descriptors
// (Go raises it to the hard limit at start-up), 0 when unknown.
func descriptorLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
