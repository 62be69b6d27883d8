//go:build !linux

package server

// lowPriority does nothing here: setpriority applies to the whole process
// outside Linux, not to one thread.
func lowPriority() {}
