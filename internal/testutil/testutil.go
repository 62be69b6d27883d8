// Package testutil holds what the module's tests share: a log sink that
// any goroutine may write to and a test may wait on (LogBuffer), and a fake
// socket that records what is sent to it (Wire). It imports nothing of the
// module, so a test of any layer may use it (deps_test.go keeps it at the
// bottom); the reference vectors have their own package, internal/vectors.
package testutil

import (
	"bytes"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// LogBuffer is a log sink (the io.Writer of a slog handler, or of a
// command's log output) that any goroutine may write to while the test
// reads it. A test waits for a line with Seen or WaitFor, which wake on
// the write that brings it, never on a timer.
type LogBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	waits []logWait
}

// logWait is a waiter for a text to appear in the log.
type logWait struct {
	text string
	seen chan struct{}
}

// Write implements io.Writer.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.b.Write(p)
	if len(l.waits) > 0 {
		keep := l.waits[:0]
		for _, w := range l.waits {
			if bytes.Contains(l.b.Bytes(), []byte(w.text)) {
				close(w.seen)
			} else {
				keep = append(keep, w)
			}
		}
		l.waits = keep
	}
	return n, err
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Count returns how many lines contain every one of parts.
func (l *LogBuffer) Count(parts ...string) int {
	n := 0
	for line := range strings.SplitSeq(l.String(), "\n") {
		ok := line != ""
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			n++
		}
	}
	return n
}

// Seen returns a channel that is closed once the log holds text (at once
// when it already does).
func (l *LogBuffer) Seen(text string) <-chan struct{} {
	ch := make(chan struct{})
	l.mu.Lock()
	defer l.mu.Unlock()
	if bytes.Contains(l.b.Bytes(), []byte(text)) {
		close(ch)
		return ch
	}
	l.waits = append(l.waits, logWait{text, ch})
	return ch
}

// WaitFor blocks until the log holds text, or fails the test after within
// (a guard against a hang, not a synchronisation).
func (l *LogBuffer) WaitFor(t testing.TB, text string, within time.Duration) {
	t.Helper()
	select {
	case <-l.Seen(text):
	case <-time.After(within):
		t.Fatalf("log line %q not written within %v; log:\n%s", text, within, l.String())
	}
}

// Wire is a fake socket (the transport's and the engine's PacketWriter)
// that records every datagram written to it, copied. Open, when set,
// turns each into what it carries — the transport's cipher, alby.Decrypt,
// which the fake cannot import — except a GameSpy answer, plain text that
// starts with a backslash. It is not safe for concurrent use: the test
// goroutine owns what writes to it.
type Wire struct {
	Open func(b []byte)
	Sent []Datagram
}

// Datagram is one datagram a Wire recorded.
type Datagram struct {
	To   netip.AddrPort
	Data []byte
}

// WriteToUDPAddrPort records one datagram.
func (w *Wire) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	d := bytes.Clone(b)
	if w.Open != nil && len(d) > 0 && d[0] != '\\' {
		w.Open(d)
	}
	w.Sent = append(w.Sent, Datagram{to, d})
	return len(b), nil
}

// Take returns and forgets what was sent so far.
func (w *Wire) Take() []Datagram {
	out := w.Sent
	w.Sent = nil
	return out
}

// TakeData is Take without the addresses.
func (w *Wire) TakeData() [][]byte {
	var out [][]byte
	for _, s := range w.Take() {
		out = append(out, s.Data)
	}
	return out
}
