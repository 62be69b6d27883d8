package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/lua"
)

// reported reports whether the runtime reported an error of kind ("" for
// any) in callback ("" for any) whose text and traceback hold every part.
func (e *env) reported(kind lua.ErrorKind, callback string, parts ...string) bool {
	return e.count(kind, callback, parts...) > 0
}

// count counts the errors reported has would match.
func (e *env) count(kind lua.ErrorKind, callback string, parts ...string) int {
	n := 0
next:
	for _, me := range *e.errs {
		if kind != "" && me.Kind != kind || callback != "" && me.Callback != callback {
			continue
		}
		for _, p := range parts {
			if !strings.Contains(me.Err+"\n"+me.Traceback, p) {
				continue next
			}
		}
		n++
	}
	return n
}

// errors lists what the runtime reported, for a failing test's message.
func (e *env) errors() string {
	var b strings.Builder
	for _, me := range *e.errs {
		b.WriteString(me.Error())
		if me.Traceback != "" {
			b.WriteString("\n" + me.Traceback)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A MissionError reads as one line naming the mission, its version, the
// kind and the callback.
func TestMissionErrorText(t *testing.T) {
	e := lua.MissionError{Mode: "ctf", Version: 3, Kind: lua.ErrFailed, Callback: "tick", Err: "ctf/main.lua:7: boom"}
	if got, want := e.Error(), `mission "ctf" v3: failed (tick): ctf/main.lua:7: boom`; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}
