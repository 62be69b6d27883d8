package lua

import (
	"fmt"
	"sort"
	"strings"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

// Chat commands: bc.command(name, handler [, help]) registers "!name".
// The runtime splits the line (so nobody matches patterns against player
// input), calls the handler with {player, from, name, args, text}, and
// sends a string the handler returns to the player alone. A line that is
// a registered command (or !help) is not relayed and does not reach chat
// handlers; any other line starting with "!" is ordinary chat.

const (
	commandPrefix  = '!'
	maxCommandName = 24
	maxCommandArgs = 32
	maxCommands    = 128
)

type command struct {
	fn   *glua.LFunction
	help string
}

type commands struct {
	byName map[string]command
	// fails are each command's recent failures and off the commands
	// switched off after too many (paused.go).
	fails map[string][]time.Time
	off   map[string]bool
}

func validCommandName(s string) bool {
	if len(s) == 0 || len(s) > maxCommandName {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !nameByte(c, true, "_-") {
			return false
		}
	}
	return true
}

// command is bc.command(name, handler [, help]); registering a name again
// replaces it (idempotent on reload).
func (m *mission) command(L *glua.LState) int {
	name := L.CheckString(1)
	fn := L.CheckFunction(2)
	help := L.OptString(3, "")
	if !validCommandName(name) || name == "help" {
		L.ArgError(1, fmt.Sprintf("command name %q: want 1..%d of a-z 0-9 _ - (and not \"help\")", name, maxCommandName))
	}
	if len(help) > codec.MaxChatText {
		L.ArgError(3, fmt.Sprintf("help text longer than %d bytes", codec.MaxChatText))
	}
	if m.commands.byName == nil {
		m.commands.byName = make(map[string]command)
	}
	if _, ok := m.commands.byName[name]; !ok && len(m.commands.byName) >= maxCommands {
		L.RaiseError("bc.command: at most %d commands", maxCommands)
	}
	m.commands.byName[name] = command{fn: fn, help: help}
	return 0
}

// splitArgs splits a command line on blanks; double quotes group words.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			in = true
		case !quoted && (c == ' ' || c == '\t'):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
		if len(out) >= maxCommandArgs {
			return out
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// chatCommand handles a chat line that is a command; it reports whether it
// was one (the line is then not relayed).
func (m *mission) chatCommand(ev *engine.Chat) bool {
	text := string(ev.Text)
	if len(text) < 2 || text[0] != commandPrefix || ev.From == nil {
		return false
	}
	line := text[1:]
	name, rest, _ := strings.Cut(line, " ")
	name = strings.ToLower(name)
	if name == "help" {
		m.help(ev.From, strings.TrimSpace(rest))
		return true
	}
	c, ok := m.commands.byName[name]
	if !ok {
		return false
	}
	if m.commands.off[name] {
		m.reply(ev.From, fmt.Sprintf("!%s is switched off after errors until the host fixes it.", name))
		return true
	}
	L := m.L
	t := m.tbl("player", m.playerTable(ev.From))
	t.RawSetString("from", glua.LNumber(ev.From.ID))
	t.RawSetString("name", glua.LString(name))
	t.RawSetString("text", glua.LString(strings.TrimSpace(rest)))
	args := splitArgs(rest)
	at := L.CreateTable(len(args), 0)
	for _, a := range args {
		at.Append(glua.LString(a))
	}
	t.RawSetString("args", at)
	t.RawSetString("team", glua.LBool(ev.Team))
	if m.closed {
		return true
	}
	ret, err := m.pcall(c.fn, t)
	if err != nil {
		m.commandFailed(ev.From, name, err)
		return true
	}
	if s, isStr := ret.(glua.LString); isStr && len(s) > 0 {
		m.reply(ev.From, string(s))
	}
	return true
}

// help answers !help (the list) and !help name (one command).
func (m *mission) help(p *engine.Player, name string) {
	if name != "" {
		c, ok := m.commands.byName[strings.TrimPrefix(strings.ToLower(name), "!")]
		switch {
		case !ok:
			m.reply(p, fmt.Sprintf("no command !%s; !help lists them", name))
		case c.help == "":
			m.reply(p, "!"+name)
		default:
			m.reply(p, "!"+name+" - "+c.help)
		}
		return
	}
	names := make([]string, 0, len(m.commands.byName))
	for n := range m.commands.byName {
		names = append(names, "!"+n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		m.reply(p, "no commands here")
		return
	}
	line := "commands: " + strings.Join(names, " ") + " (!help name for one)"
	if off := m.offCommands(); len(off) > 0 {
		line += "; switched off after errors: " + strings.Join(off, " ")
	}
	m.reply(p, line)
}

// reply sends host chat to one player, cut into lines a stock client
// takes; quota refusals are logged, not raised (no Lua code is running).
func (m *mission) reply(p *engine.Player, text string) {
	for len(text) > 0 {
		line := text
		if len(line) > codec.MaxChatText {
			line = line[:codec.MaxChatText]
		}
		text = text[len(line):]
		b := engine.HostChatBytes(nil, []byte(line))
		if err := m.allowErr(b, p); err != nil {
			m.h.errLogs.log(m.h.log, slogWarn, "command reply not sent", "err", err.Error())
			return
		}
		_ = m.h.eng.Send(p, b)
	}
}
