package lua

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

// What a mission sends is checked before it is queued: the message must
// be a script message (the engine owns every opcode below
// MAX_MESSAGE_TYPES), a chat line must fit the stock client's buffer, and
// no player may receive more than SendMessages messages or SendBytes bytes
// from the mission in one tick, nor anything while his transport queue is
// half full. A refusal raises a Lua error naming the function, the player
// and the limit, so the author sees it with file:line.

// quota counts what the mission sent each player this tick.
type quota struct {
	tick  int64
	sent  [256]struct{ msgs, bytes int }
	dirty []byte
}

func (q *quota) reset(tick int64) {
	if q.tick == tick {
		return
	}
	q.tick = tick
	for _, id := range q.dirty {
		q.sent[id] = struct{ msgs, bytes int }{}
	}
	q.dirty = q.dirty[:0]
}

// checkMessage validates a message argument.
func (m *mission) checkMessage(L *glua.LState, n int, what string) []byte {
	s := L.CheckString(n)
	if len(s) == 0 {
		L.ArgError(n, "empty message")
	}
	if len(s) > m.h.opts.MaxMessage {
		L.ArgError(n, fmt.Sprintf("message of %d bytes is longer than the %d-byte cap", len(s), m.h.opts.MaxMessage))
	}
	op := s[0]
	if !codec.IsScriptOpcode(op) {
		L.RaiseError("%s: opcode 0x%02X belongs to the engine; missions send script messages (0x%02X and up)", what, op, codec.MaxMessageTypes)
	}
	if op == codec.OpChat || op == codec.OpTeamChat {
		c, err := codec.DecodeChat([]byte(s))
		if err != nil {
			L.RaiseError("%s: malformed chat message: %v", what, err)
		}
		if len(c.Text) > codec.MaxChatText {
			L.RaiseError("%s: chat text of %d bytes is longer than the %d a stock client accepts", what, len(c.Text), codec.MaxChatText)
		}
		if c.Sender != HostID && (c.Sender < 0 || c.Sender > 255 || m.h.eng.Player(byte(c.Sender)) == nil) {
			L.RaiseError("%s: chat sender %d is neither the host (%d) nor a connected player", what, c.Sender, HostID)
		}
	}
	return []byte(s)
}

// allow checks and counts one message to each of ps, raising the refusal
// as a Lua error.
func (m *mission) allow(L *glua.LState, what string, b []byte, ps ...*engine.Player) {
	if err := m.allowErr(b, ps...); err != nil {
		L.RaiseError("%s: %v", what, err)
	}
}

// allowErr checks and counts one message to each of ps.
func (m *mission) allowErr(b []byte, ps ...*engine.Player) error {
	h := m.h
	q := &h.quota
	q.reset(h.tickKey())
	for _, p := range ps {
		s := &q.sent[p.ID]
		if s.msgs+1 > h.opts.SendMessages || s.bytes+len(b) > h.opts.SendBytes {
			return fmt.Errorf("player %d already got %d messages (%d bytes) from the mission this tick; the quota is %d messages, %d bytes",
				p.ID, s.msgs, s.bytes, h.opts.SendMessages, h.opts.SendBytes)
		}
		if queued, limit := h.eng.SendQueue(p); limit > 0 && queued+1 > limit/2 {
			return fmt.Errorf("player %d's send queue holds %d messages; nothing more until it drains below %d", p.ID, queued, limit/2)
		}
	}
	for _, p := range ps {
		s := &q.sent[p.ID]
		if s.msgs == 0 && s.bytes == 0 {
			q.dirty = append(q.dirty, p.ID)
		}
		s.msgs++
		s.bytes += len(b)
	}
	return nil
}

// inGame lists the in-game players but except, in slot order (the
// engine's SendInGame order).
func (m *mission) inGame(except *engine.Player, team int) []*engine.Player {
	var out []*engine.Player
	for _, p := range m.h.eng.Players() {
		if p != except && p.InGame() && (team < 0 || p.Team == team) {
			out = append(out, p)
		}
	}
	return out
}

// maxStaged bounds the effects a loading version stages. With no player
// in game the send quota counts nothing, and staged sends hold their bytes
// in Go, out of the memory walk's sight: a load looping on bc.broadcast
// held hundreds of megabytes.
const maxStaged = 4096

// effect applies fn now, or, while the version loads, stages it to be
// applied once the load succeeded (transactional reload). Called from the
// bc functions only, so a refusal is raised in the calling script.
func (m *mission) effect(fn func()) {
	if m.building {
		if len(m.staged) >= maxStaged {
			m.L.RaiseError("a loading version may stage at most %d game effects (sends, orders, settings); do the rest once the game runs", maxStaged)
		}
		m.staged = append(m.staged, fn)
		return
	}
	fn()
}

// apply runs the staged effects of a version that loaded.
func (m *mission) apply() {
	m.building = false
	staged := m.staged
	m.staged = nil
	for _, fn := range staged {
		if m.closed {
			return
		}
		fn()
	}
}

func (m *mission) sendAPI(fn func(string, glua.LGFunction)) {
	eng := m.h.eng
	fn("send", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		b := m.checkMessage(L, 2, "bc.send")
		if p == nil || !p.InGame() && p.State != engine.StateLoading {
			L.Push(glua.LFalse)
			return 1
		}
		m.allow(L, "bc.send", b, p)
		m.effect(func() { _ = eng.Send(p, b) })
		L.Push(glua.LTrue)
		return 1
	})
	fn("broadcast", func(L *glua.LState) int {
		b := m.checkMessage(L, 1, "bc.broadcast")
		ps := m.inGame(nil, -1)
		m.allow(L, "bc.broadcast", b, ps...)
		m.effect(func() { eng.SendInGame(b, nil) })
		return 0
	})
	fn("send_except", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		b := m.checkMessage(L, 2, "bc.send_except")
		m.allow(L, "bc.send_except", b, m.inGame(p, -1)...)
		m.effect(func() { eng.SendInGame(b, p) })
		return 0
	})
	fn("send_team", func(L *glua.LState) int {
		team := int(checkIntArg(L, 1, "team", 0, 255))
		b := m.checkMessage(L, 2, "bc.send_team")
		ps := m.inGame(nil, team)
		m.allow(L, "bc.send_team", b, ps...)
		m.effect(func() {
			for _, p := range ps {
				_ = eng.Send(p, b)
			}
		})
		L.Push(glua.LNumber(len(ps)))
		return 1
	})
}
