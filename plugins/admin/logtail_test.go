package admin

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// The tail keeps lines at info and above with their component and
// attributes, holds at most its size, feeds subscribers, and passes every
// record on to the real handler.
func TestTail(t *testing.T) {
	var out bytes.Buffer
	tail := NewTail(3)
	log := slog.New(tail.Handler(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ch, off := tail.subscribe()
	defer off()
	lua := log.With("component", "lua", "mission", "ctf")
	lua.Debug("not kept")
	lua.Info("flag taken", "by", "Picard")
	log.WithGroup("g").Warn("grouped", "k", 1)
	for i := range 3 {
		log.Info("line", "i", i)
	}
	lines := tail.Last(0)
	if len(lines) != 3 || lines[0].Message != "line" || lines[2].Attrs != "i=2" || lines[2].Seq != 5 {
		t.Fatalf("tail: %+v", lines)
	}
	first := <-ch
	if first.Component != "lua" || first.Message != "flag taken" || first.Attrs != "mission=ctf by=Picard" || first.Level != "INFO" {
		t.Fatalf("first line: %+v", first)
	}
	if g := <-ch; g.Attrs != "g.k=1" || g.Level != "WARN" {
		t.Fatalf("grouped: %+v", g)
	}
	if !strings.Contains(out.String(), "not kept") || !strings.Contains(out.String(), "component=lua") {
		t.Fatalf("the real handler missed records:\n%s", out.String())
	}
	if got := tail.Last(1); len(got) != 1 || got[0].Attrs != "i=2" {
		t.Fatalf("last 1: %+v", got)
	}
}

// A line that would turn the console around (a bidi override) or break
// it (a newline) shows those characters escaped.
func TestTailInert(t *testing.T) {
	tail := NewTail(4)
	log := slog.New(tail.Handler(slog.NewTextHandler(io.Discard, nil)))
	log.Info("chat \u202Egnp.exe", "name", "a\nb\u2066")
	l := tail.Last(1)[0]
	if strings.ContainsAny(l.Message+l.Attrs, "\n\u202E\u2066") || !strings.Contains(l.Message, `\u202E`) {
		t.Fatalf("line %+v", l)
	}
}
