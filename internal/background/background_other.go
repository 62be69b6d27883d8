//go:build !linux

package background

// Nice is how much lower than the rest of the process background work
// runs where it can (Linux).
const Nice = 10

// Lower does nothing here: setpriority applies to the whole process
// outside Linux, not to one thread.
func Lower() error { return nil }
