package admin

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
)

// LogLine is one line of the log tail.
type LogLine struct {
	Seq       uint64    `json:"seq"`
	Time      time.Time `json:"time"`
	Level     string    `json:"level"`
	Component string    `json:"component,omitempty"`
	Message   string    `json:"message"`
	Attrs     string    `json:"attrs,omitempty"`
	// Game is the game the line is about (its "game" attribute, with
	// several games in one process); "" for the process's own lines.
	Game string `json:"game,omitempty"`
}

// Tail keeps the last lines the server logged at info or above (the
// mission's log, joins, leaves, reloads, admin actions) for the console.
// It is safe for concurrent use.
type Tail struct {
	mu   sync.Mutex
	max  int
	buf  []LogLine
	seq  uint64
	subs map[chan LogLine]struct{}
}

// NewTail keeps up to max lines (200 when 0).
func NewTail(max int) *Tail {
	if max <= 0 {
		max = 200
	}
	return &Tail{max: max, subs: map[chan LogLine]struct{}{}}
}

// Last returns up to n lines, oldest first (all when n <= 0).
func (t *Tail) Last(n int) []LogLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n <= 0 || n > len(t.buf) {
		n = len(t.buf)
	}
	return append([]LogLine{}, t.buf[len(t.buf)-n:]...)
}

// subscribe returns a channel of new lines; a slow reader loses lines
// rather than holding up the logger.
func (t *Tail) subscribe() (chan LogLine, func()) {
	ch := make(chan LogLine, 64)
	t.mu.Lock()
	t.subs[ch] = struct{}{}
	t.mu.Unlock()
	return ch, func() {
		t.mu.Lock()
		delete(t.subs, ch)
		t.mu.Unlock()
	}
}

func (t *Tail) add(l LogLine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	l.Seq = t.seq
	if len(t.buf) == t.max {
		copy(t.buf, t.buf[1:])
		t.buf = t.buf[:len(t.buf)-1]
	}
	t.buf = append(t.buf, l)
	for ch := range t.subs {
		select {
		case ch <- l:
		default:
		}
	}
}

// Handler returns a slog.Handler that passes every record to next and
// keeps those at info or above in the tail.
func (t *Tail) Handler(next slog.Handler) slog.Handler { return &tailHandler{t: t, next: next} }

type tailHandler struct {
	t         *Tail
	next      slog.Handler
	component string
	game      string
	attrs     string
	group     string
}

func (h *tailHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo || h.next.Enabled(ctx, l)
}

func (h *tailHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelInfo {
		var sb strings.Builder
		sb.WriteString(h.attrs)
		comp, game := h.component, h.game
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "component" && h.group == "" {
				comp = a.Value.String()
				return true
			}
			if a.Key == "game" && h.group == "" {
				game = a.Value.String()
			}
			appendAttr(&sb, h.group, a)
			return true
		})
		h.t.add(LogLine{Time: r.Time, Level: r.Level.String(), Component: comp, Message: inert(r.Message), Attrs: inert(strings.TrimSpace(sb.String())), Game: game})
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func appendAttr(sb *strings.Builder, group string, a slog.Attr) {
	key := a.Key
	if group != "" {
		key = group + "." + key
	}
	if a.Value.Kind() == slog.KindGroup {
		for _, g := range a.Value.Group() {
			appendAttr(sb, key, g)
		}
		return
	}
	fmt.Fprintf(sb, " %s=%v", key, a.Value.Resolve().Any())
}

func (h *tailHandler) WithAttrs(as []slog.Attr) slog.Handler {
	n := *h
	n.next = h.next.WithAttrs(as)
	var sb strings.Builder
	sb.WriteString(h.attrs)
	for _, a := range as {
		if a.Key == "component" && h.group == "" {
			n.component = a.Value.String()
			continue
		}
		if a.Key == "game" && h.group == "" {
			n.game = a.Value.String()
		}
		appendAttr(&sb, h.group, a)
	}
	n.attrs = sb.String()
	return &n
}

func (h *tailHandler) WithGroup(name string) slog.Handler {
	n := *h
	n.next = h.next.WithGroup(name)
	if n.group != "" {
		name = n.group + "." + name
	}
	n.group = name
	return &n
}

// inert escapes what would change how a console line reads rather than
// what it says: control characters, line and paragraph separators, and
// bidi controls (a right-to-left override in a mission's log text would
// turn the rest of the line, the address included, around). They show as
// \uXXXX.
func inert(s string) string {
	clean := true
	for _, r := range s {
		if escapeInTail(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if escapeInTail(r) {
			fmt.Fprintf(&b, "\\u%04X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func escapeInTail(r rune) bool {
	return (unicode.IsControl(r) && r != '\t') || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}
