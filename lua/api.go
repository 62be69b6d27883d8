package lua

import (
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	bcnet "github.com/bcserver/bcserver/net"
)

// api builds the bc module of one state (docs/lua-api.md documents every
// entry; lua/types/bc.lua annotates them for editors).
func (m *mission) api() *glua.LTable {
	L := m.L
	bc := L.NewTable()
	fn := func(name string, f glua.LGFunction) { bc.RawSetString(name, L.NewFunction(f)) }
	eng := m.h.eng

	bc.RawSetString("mode", glua.LString(m.h.opts.Mode))
	bc.RawSetString("version", glua.LNumber(m.version))
	bc.RawSetString("host_id", glua.LNumber(HostID))
	bc.RawSetString("storage", m.storage)
	bc.RawSetString("memory", m.memory)
	bc.RawSetString("config", fromPlain(L, m.h.opts.Config))
	if _, ok := bc.RawGetString("config").(*glua.LTable); !ok {
		bc.RawSetString("config", L.NewTable())
	}
	constants(L, bc)
	dataTables(L, bc)
	bc.RawSetString("msg", m.msgLib())
	bc.RawSetString("parse", m.parseLib())
	bc.RawSetString("log", m.logLib())

	// Events.
	fn("on", m.on)
	fn("off", m.off)
	fn("emit", m.emitCustom)
	fn("command", m.command)
	bc.RawSetString("json", m.meter.JSON())

	// Players.
	fn("players", func(L *glua.LState) int {
		ps := eng.Players()
		t := L.CreateTable(len(ps), 0)
		for _, p := range ps {
			t.Append(m.playerTable(p))
		}
		L.Push(t)
		return 1
	})
	fn("player", func(L *glua.LState) int {
		L.Push(m.playerTable(m.checkPlayer(L, 1)))
		return 1
	})
	fn("player_by_uid", func(L *glua.LState) int {
		uid := checkIntArg(L, 1, "uid", 1, 1<<53)
		p := m.h.opts.Identities.Player(uid)
		if p != nil && eng.Player(p.ID) != p {
			p = nil // a player of another game
		}
		L.Push(m.playerTable(p))
		return 1
	})
	fn("stats", m.stats)
	m.switchAPI(bc)
	fn("set_team", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		team := -1
		if L.Get(2) != glua.LNil {
			team = int(checkIntArg(L, 2, "team", 0, 255))
		}
		if p != nil {
			m.effect(func() { eng.SetTeam(p, team) })
		}
		return 0
	})
	fn("set_score", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		k := checkIntArg(L, 2, "kills", math.MinInt32, math.MaxInt32)
		d := checkIntArg(L, 3, "deaths", math.MinInt32, math.MaxInt32)
		s := checkIntArg(L, 4, "score", math.MinInt32, math.MaxInt32)
		if p != nil {
			m.effect(func() { eng.SetScore(p, int(k), int(d), int(s)) })
		}
		return 0
	})
	fn("kick", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		reason := bcnet.BootKicked
		switch r := L.OptString(2, "kicked"); r {
		case "kicked":
		case "timeout":
			reason = bcnet.BootTimedOut
		case "refused":
			reason = bcnet.BootRefused
		case "full":
			reason = bcnet.BootFull
		default:
			L.ArgError(2, fmt.Sprintf("reason %q: want kicked, timeout, refused or full", r))
		}
		if p != nil {
			src := where(L)
			m.effect(func() {
				m.h.log.Info("mission kicks player", "player", p.ID, "name", p.Name, "source", src)
				eng.Kick(p, reason)
			})
		}
		return 0
	})

	// Objects.
	fn("object", func(L *glua.LState) int {
		id := checkIntArg(L, 1, "object id", math.MinInt32, math.MaxInt32)
		L.Push(m.handle(eng.World().Object(int32(id))))
		return 1
	})
	fn("objects", func(L *glua.LState) int {
		os := eng.World().Objects()
		m.meter.Charge(L, int64(len(os)*4))
		t := L.CreateTable(len(os), 0)
		for _, o := range os {
			t.Append(m.handle(o))
		}
		L.Push(t)
		return 1
	})
	fn("ship_of", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		if p == nil {
			L.Push(glua.LNil)
			return 1
		}
		L.Push(m.handle(eng.World().ShipOf(&p.Owner)))
		return 1
	})

	m.shipAPI(fn)
	m.shipRulesAPI(fn)
	m.modifiersAPI(fn)
	m.damageAPI(fn)

	// Messages.
	fn("writer", func(L *glua.LState) int {
		L.Push(newWriter(L, m.h.opts.MaxMessage))
		return 1
	})
	fn("reader", func(L *glua.LState) int {
		L.Push(newReader(L, []byte(L.CheckString(1))))
		return 1
	})
	m.sendAPI(fn)

	// The game.
	fn("end_game", m.endGame)
	fn("restart_game", func(L *glua.LState) int {
		m.effect(eng.RestartGame)
		return 0
	})
	fn("game_over", func(L *glua.LState) int {
		L.Push(glua.LBool(eng.GameOver()))
		return 1
	})
	fn("set_accepting", func(L *glua.LState) int {
		open := L.ToBool(1)
		m.effect(func() { eng.SetAccepting(open) })
		return 0
	})
	fn("accepting", func(L *glua.LState) int {
		L.Push(glua.LBool(eng.Accepting()))
		return 1
	})
	fn("set_team_mode", func(L *glua.LState) int {
		on := L.ToBool(1)
		m.effect(func() { eng.SetTeamMode(on) })
		return 0
	})
	fn("mission", func(L *glua.LState) int {
		L.Push(MissionTable(L, eng.Mission()))
		return 1
	})
	fn("set_mission", m.setMission)
	fn("status", m.setStatus)
	fn("game_time", func(L *glua.LState) int {
		L.Push(glua.LNumber(eng.GameTime()))
		return 1
	})
	fn("clock", func(L *glua.LState) int {
		L.Push(glua.LNumber(float64(m.h.now(m).UnixNano()) / 1e9))
		return 1
	})
	fn("system_index", func(L *glua.LState) int {
		L.Push(glua.LNumber(SystemIndex(L.CheckString(1))))
		return 1
	})

	// Timers.
	fn("after", func(L *glua.LState) int { return m.timer(L, false) })
	fn("every", func(L *glua.LState) int { return m.timer(L, true) })
	fn("timer", m.namedTimer)
	fn("cancel", m.cancelTimer)
	return bc
}

// checkPlayer reads a player id argument; unknown ids give nil (players
// come and go) unless the argument is not a valid id at all.
func (m *mission) checkPlayer(L *glua.LState, n int) *engine.Player {
	id := checkIntArg(L, n, "player id", 0, 255)
	return m.h.eng.Player(byte(id))
}

// MissionTable is bc.mission()'s table for mi; the mission test runner's
// g:mission() returns the same.
func MissionTable(L *glua.LState, mi engine.Mission) *glua.LTable {
	t := L.CreateTable(0, 5)
	t.RawSetString("script", glua.LString(mi.Script))
	t.RawSetString("map_name", glua.LString(mi.MapName))
	t.RawSetString("system", glua.LString(mi.System))
	t.RawSetString("time_limit", glua.LNumber(mi.TimeLimit))
	t.RawSetString("frag_limit", glua.LNumber(mi.FragLimit))
	return t
}

// maxHandlers bounds the handlers of one event: a mission that calls
// bc.on in a handler would otherwise add one per event without end, and
// registering under an id scans them all.
const maxHandlers = 256

// on registers a handler: bc.on(event, fn) or bc.on(event, id, fn). With
// an id, a second registration replaces the first in place (Garry's Mod's
// hook.Add), so re-running code is idempotent. It returns the id.
func (m *mission) on(L *glua.LState) int {
	name := L.CheckString(1)
	var id string
	var fn *glua.LFunction
	if L.GetTop() >= 3 {
		id = L.CheckString(2)
		fn = L.CheckFunction(3)
	} else {
		fn = L.CheckFunction(2)
	}
	if !knownEvent(name) && !customEvent(name) {
		L.ArgError(1, fmt.Sprintf("unknown event %q (events: %s; or a custom event \"addon:name\")", name, strings.Join(Events(), ", ")))
	}
	hs := m.handlers[name]
	if id != "" {
		for i := range hs {
			if hs[i].id == id {
				hs[i].fn = fn
				L.Push(glua.LString(id))
				return 1
			}
		}
	} else {
		m.nextID++
		id = "#" + strconv.Itoa(m.nextID)
	}
	if len(hs) >= maxHandlers {
		L.RaiseError("bc.on: event %q already has %d handlers, the most it may have (remove some with bc.off, or register under an id to replace)", name, maxHandlers)
	}
	m.handlers[name] = append(hs, handler{id: id, fn: fn})
	m.h.listen(name)
	L.Push(glua.LString(id))
	return 1
}

// off removes a handler by the id bc.on returned.
func (m *mission) off(L *glua.LState) int {
	name := L.CheckString(1)
	id := L.CheckString(2)
	hs := m.handlers[name]
	for i := range hs {
		if hs[i].id == id {
			m.handlers[name] = append(hs[:i:i], hs[i+1:]...)
			if m == m.h.cur && len(m.handlers[name]) == 0 {
				m.h.unlisten()
			}
			L.Push(glua.LTrue)
			return 1
		}
	}
	L.Push(glua.LFalse)
	return 1
}

func knownEvent(name string) bool {
	for _, e := range Events() {
		if e == name {
			return true
		}
	}
	return false
}

// maxLogFields bounds the fields of one bc.log line.
const maxLogFields = 32

// logLib is bc.log.debug/info/warn/error(msg [, fields]): one slog line
// with the mission, its source file:line and the fields.
func (m *mission) logLib() *glua.LTable {
	L := m.L
	t := L.NewTable()
	for _, lv := range []struct {
		name  string
		level slog.Level
	}{{"debug", slog.LevelDebug}, {"info", slog.LevelInfo}, {"warn", slog.LevelWarn}, {"error", slog.LevelError}} {
		level := lv.level
		t.RawSetString(lv.name, L.NewFunction(func(L *glua.LState) int {
			msg := L.ToStringMeta(L.Get(1)).String()
			attrs := []any{"source", where(L)}
			if f, ok := L.Get(2).(*glua.LTable); ok {
				// The first maxLogFields pairs only: ForEach would walk a
				// big table to the end on every call. Converted after the
				// walk, since __tostring may change the table.
				var kvs []glua.LValue
				for k, v := f.Next(glua.LNil); k != glua.LNil && len(kvs) < 2*maxLogFields; k, v = f.Next(k) {
					kvs = append(kvs, k, v)
				}
				for i := 0; i < len(kvs); i += 2 {
					attrs = append(attrs, kvs[i].String(), L.ToStringMeta(kvs[i+1]).String())
				}
			}
			m.h.logs.log(m.h.log, level, msg, attrs...)
			return 0
		}))
	}
	return t
}

// constants sets bc.OP, bc.END and the wire constants.
func constants(L *glua.LState, bc *glua.LTable) {
	op := L.CreateTable(0, 10)
	for k, v := range map[string]int{
		"CHAT": codec.OpChat, "TEAM_CHAT": codec.OpTeamChat, "MISSION_INIT": codec.OpMissionInit,
		"SCORE_CHANGE": codec.OpScoreChange, "SCORE": codec.OpScore, "END_GAME": codec.OpEndGame,
		"RESTART_GAME": codec.OpRestartGame, "SCORE_INIT": codec.OpScoreInit, "TEAM_SCORE": codec.OpTeamScore,
		"TEAM": codec.OpTeam, "MAX_MESSAGE_TYPES": codec.MaxMessageTypes,
	} {
		op.RawSetString(k, glua.LNumber(v))
	}
	bc.RawSetString("OP", op)
	end := L.CreateTable(0, 7)
	for k, v := range map[string]int{
		"ITS_JUST_OVER": codec.EndItsJustOver, "TIME_UP": codec.EndTimeUp, "NUM_FRAGS_REACHED": codec.EndNumFragsReached,
		"SCORE_LIMIT_REACHED": codec.EndScoreLimitReached, "STARBASE_DEAD": codec.EndStarbaseDead,
		"BORG_DEAD": codec.EndBorgDead, "ENTERPRISE_DEAD": codec.EndEnterpriseDead,
	} {
		end.RawSetString(k, glua.LNumber(v))
	}
	bc.RawSetString("END", end)
	bc.RawSetString("INVALID_TEAM", glua.LNumber(codec.InvalidTeam))
	bc.RawSetString("NO_LIMIT", glua.LNumber(codec.NoLimit))
}
