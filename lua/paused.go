package lua

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// A suspended mission (accounting.go: it failed or overran too often) is
// visible and fair to the players who go on playing without it:
//
//   - Suspended says why, for the host's status, console and /readyz;
//   - a chat line naming one of its commands (or !help) is answered "the
//     mode is paused" by the runtime, to that player alone, instead of
//     being relayed to everyone as chat;
//   - a command whose handler fails tells its player so, and counts
//     against that command only: after commandErrors failures within the
//     error window it is switched off (its players are told), while the
//     mode runs on. One player repeating a broken command cannot suspend
//     the mode for everybody.

// commandErrors is how many failures within Limits.ErrorWindow switch a
// chat command off.
const commandErrors = 3

// pausedReplyEvery bounds the "paused" answers to one player.
const pausedReplyEvery = time.Second

// Suspended returns why the mission is suspended ("" while it runs, or
// before it ever ran). Call it on the game goroutine.
func (h *Runtime) Suspended() string {
	if h.cur != nil {
		return ""
	}
	return h.suspended
}

// pausedText is what a player asking for a command of a suspended mode
// reads.
const pausedText = "The game mode is paused after errors; its commands are back when the host fixes it."

// pausedChat answers a command line while the mission is suspended: the
// suspended version's commands and !help are not relayed to everyone
// (they were never chat), and their sender is told why nothing happens.
func (h *Runtime) pausedChat(e *engine.Chat) {
	text := string(e.Text)
	if len(text) < 2 || text[0] != commandPrefix || e.From == nil {
		return
	}
	name, _, _ := strings.Cut(text[1:], " ")
	name = strings.ToLower(name)
	if name != "help" && !h.pausedCommands[name] {
		return // ordinary chat that starts with "!"
	}
	e.Cancel = true
	now := h.eng.Now()
	if last, ok := h.pausedReplies[e.From.ID]; ok && now.Sub(last) < pausedReplyEvery {
		return
	}
	if h.pausedReplies == nil {
		h.pausedReplies = make(map[byte]time.Time)
	}
	h.pausedReplies[e.From.ID] = now
	if q, limit := h.eng.SendQueue(e.From); limit > 0 && q > limit/2 {
		return
	}
	_ = h.eng.Send(e.From, engine.HostChatBytes(nil, []byte(pausedText)))
}

// pause keeps what a suspended version leaves for the players: why, and
// the names of its commands.
func (h *Runtime) pause(m *mission) {
	h.suspended = m.failed
	h.pausedCommands = make(map[string]bool, len(m.commands.byName))
	for name := range m.commands.byName {
		h.pausedCommands[name] = true
	}
	clear(h.pausedReplies)
}

// resume forgets the pause once a version runs again.
func (h *Runtime) resume() {
	h.suspended, h.pausedCommands = "", nil
	clear(h.pausedReplies)
}

// commandFailed reports a failed command: logged as any failed callback,
// answered to its player, and counted against the command, which is
// switched off after commandErrors failures within the error window.
// Running out of memory still counts against the mission (the state is
// shared).
func (m *mission) commandFailed(p *engine.Player, name string, err error) {
	le, _ := err.(*luaError)
	if le != nil && le.memory {
		m.report("command !"+name, err)
		return
	}
	e := MissionError{Version: m.version, Kind: ErrFailed, Callback: "command !" + name, Err: err.Error()}
	attrs := []any{"version", m.version, "callback", e.Callback, "err", e.Err}
	if le != nil && le.traceback != "" {
		e.Traceback = le.traceback
		attrs = append(attrs, "traceback", le.traceback)
	}
	msg := "mission command failed"
	if le != nil && le.overrun {
		e.Kind, msg = ErrAborted, "mission command aborted"
	}
	m.h.reportError(e, slogError, true, msg, attrs...)
	now := m.h.eng.Now()
	fails := m.commands.fails[name][:0]
	for _, t := range m.commands.fails[name] {
		if now.Sub(t) < m.h.opts.ErrorWindow {
			fails = append(fails, t)
		}
	}
	fails = append(fails, now)
	if m.commands.fails == nil {
		m.commands.fails = make(map[string][]time.Time)
	}
	m.commands.fails[name] = fails
	if len(fails) < commandErrors {
		m.reply(p, fmt.Sprintf("!%s failed; the host has been told.", name))
		return
	}
	if m.commands.off == nil {
		m.commands.off = make(map[string]bool)
	}
	m.commands.off[name] = true
	why := fmt.Sprintf("command !%s switched off after %d errors within %v; fix it and save to reload", name, len(fails), m.h.opts.ErrorWindow)
	m.h.reportError(MissionError{Version: m.version, Kind: ErrCommandOff, Callback: "command !" + name, Err: why}, slogError, false,
		fmt.Sprintf("mission %q %s", m.h.opts.Mode, why), "version", m.version)
	m.reply(p, fmt.Sprintf("!%s failed and is switched off until the host fixes it.", name))
}

// offCommands lists the commands switched off after errors, sorted.
func (m *mission) offCommands() []string {
	out := make([]string, 0, len(m.commands.off))
	for name := range m.commands.off {
		out = append(out, "!"+name)
	}
	sort.Strings(out)
	return out
}
