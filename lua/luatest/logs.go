package luatest

import (
	"bytes"
	"sync"
)

// Logs collects a host's log lines for assertions: an io.Writer for a
// slog handler, safe for the host's background writers.
type Logs struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
