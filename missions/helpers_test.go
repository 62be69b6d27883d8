package missions_test

import (
	"bytes"
	"encoding/hex"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/vectors"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/lua/luatest"
	"github.com/bcserver/bcserver/missions"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type game struct {
	*luatest.Engine
	host *lua.Runtime
	logs *luatest.Logs
}

// start runs mode on a fake game whose clock has run for gameTime.
func start(t testing.TB, mode string, cfg map[string]any, gameTime time.Duration) *game {
	t.Helper()
	e := luatest.New(t0.Add(-gameTime))
	e.Clock = t0
	logs := &luatest.Logs{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.Log = log
	// Virtual time (a step costs 100 ns whatever the machine's load) keeps
	// the budgets deterministic; they are the defaults a host runs with.
	h := lua.New(e, lua.Options{Mode: mode, FS: missions.FS(), Config: cfg, Logger: log, Limits: lua.Limits{StepTime: 100 * time.Nanosecond}})
	if err := h.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return &game{Engine: e, host: h, logs: logs}
}

// vec returns a payload from vectors/missions.json.
func vec(t testing.TB, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "missions.json", name)
}

func h(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expect checks the messages sent since the last call, in order.
func (g *game) expect(t testing.TB, what string, want ...luatest.Sent) {
	t.Helper()
	got := g.Take()
	if len(got) != len(want) {
		t.Fatalf("%s: %d messages, want %d:\n%s", what, len(got), len(want), dump(got))
	}
	for i := range want {
		if got[i].To != want[i].To || !bytes.Equal(got[i].Payload, want[i].Payload) {
			t.Fatalf("%s: message %d\n got to %d: %x\nwant to %d: %x\nall:\n%s", what, i, got[i].To, got[i].Payload, want[i].To, want[i].Payload, dump(got))
		}
	}
}

func dump(s []luatest.Sent) string {
	var b strings.Builder
	for _, m := range s {
		b.WriteString("  to ")
		b.WriteString(string(rune('0' + m.To)))
		b.WriteString(": ")
		b.WriteString(hex.EncodeToString(m.Payload))
		b.WriteString("\n")
	}
	return b.String()
}

func to(id byte, p []byte) luatest.Sent { return luatest.Sent{To: id, Payload: p} }

// all is one message sent to each of ids (a NoMe broadcast, slot order).
func all(p []byte, ids ...byte) []luatest.Sent {
	out := make([]luatest.Sent, len(ids))
	for i, id := range ids {
		out[i] = to(id, p)
	}
	return out
}

func cat(parts ...[]luatest.Sent) []luatest.Sent {
	var out []luatest.Sent
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
