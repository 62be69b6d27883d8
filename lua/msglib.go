package lua

import (
	"fmt"
	"math"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
)

// The builders behind bc.msg.* and the parsers behind bc.parse.*: one per
// stock script message (missions.md 2), encoded by the Go codec so a
// mission cannot get a layout wrong.

// fields reads named fields of a builder's argument table and raises a Lua
// error naming the builder and the field on a bad value.
type fields struct {
	L    *glua.LState
	what string
	t    *glua.LTable
}

func argTable(L *glua.LState, what string) fields {
	return fields{L: L, what: what, t: L.CheckTable(1)}
}

func (f fields) num(name string, def float64, lo, hi float64, required bool) float64 {
	v := f.t.RawGetString(name)
	if v == glua.LNil {
		if required {
			f.L.RaiseError("bc.msg.%s: field %q is required", f.what, name)
		}
		return def
	}
	n, ok := v.(glua.LNumber)
	x := float64(n)
	if !ok || x != math.Trunc(x) || x < lo || x > hi {
		f.L.RaiseError("bc.msg.%s: field %q: %s is not an integer in %v..%v", f.what, name, v.String(), lo, hi)
	}
	return x
}

func (f fields) i32(name string, required bool) int32 {
	return int32(f.num(name, 0, math.MinInt32, math.MaxInt32, required))
}

func (f fields) u8(name string, def float64, required bool) uint8 {
	return uint8(f.num(name, def, 0, 255, required))
}

// limit reads a time or frag limit: nil, -1 or 255 mean none (wire 255).
func (f fields) limit(name string) uint8 {
	v := f.t.RawGetString(name)
	if v == glua.LNil {
		return codec.NoLimit
	}
	if n, ok := v.(glua.LNumber); ok && n == -1 {
		return codec.NoLimit
	}
	return f.u8(name, codec.NoLimit, false)
}

func (f fields) str(name string) []byte {
	v := f.t.RawGetString(name)
	s, ok := v.(glua.LString)
	if !ok {
		f.L.RaiseError("bc.msg.%s: field %q must be a string", f.what, name)
	}
	return []byte(s)
}

func (m *mission) pushMsg(b []byte) int {
	if len(b) > m.h.opts.MaxMessage {
		m.L.RaiseError("message of %d bytes is longer than the %d-byte cap", len(b), m.h.opts.MaxMessage)
	}
	m.L.Push(glua.LString(b))
	return 1
}

func (m *mission) msgLib() *glua.LTable {
	L := m.L
	t := L.NewTable()
	reg := func(name string, fn glua.LGFunction) { t.RawSetString(name, L.NewFunction(fn)) }
	reg("chat", func(L *glua.LState) int {
		f := argTable(L, "chat")
		return m.pushMsg(codec.Chat{Team: glua.LVAsBool(f.t.RawGetString("team")), Sender: f.i32("sender", true), Text: f.str("text")}.AppendTo(nil))
	})
	reg("mission_init", func(L *glua.LState) int {
		f := argTable(L, "mission_init")
		mi := codec.MissionInit{
			// One rule: by default the limit announced is the one the
			// server enforces (server.max_players).
			PlayerLimit: f.u8("player_limit", float64(m.h.eng.MaxPlayers()), false),
			System:      f.u8("system", 0, true),
			TimeLimit:   f.limit("time_limit"),
			FragLimit:   f.limit("frag_limit"),
		}
		if mi.TimeLimit != codec.NoLimit {
			mi.EndTime = f.i32("end_time", true)
		}
		return m.pushMsg(mi.AppendTo(nil))
	})
	reg("score_change", func(L *glua.LState) int {
		f := argTable(L, "score_change")
		sc := codec.ScoreChange{Killer: f.i32("killer", false), Victim: f.i32("victim", true), VictimDeaths: f.i32("victim_deaths", true)}
		if sc.Killer != 0 {
			sc.KillerKills = f.i32("killer_kills", true)
			sc.KillerScore = f.i32("killer_score", true)
		}
		if ex, ok := f.t.RawGetString("extras").(*glua.LTable); ok {
			n := ex.Len()
			if n > 255 {
				L.RaiseError("bc.msg.score_change: %d extras, at most 255", n)
			}
			for i := 1; i <= n; i++ {
				e, ok := ex.RawGetInt(i).(*glua.LTable)
				if !ok {
					L.RaiseError("bc.msg.score_change: extras[%d] must be a table {player=, score=}", i)
				}
				ef := fields{L: L, what: fmt.Sprintf("score_change extras[%d]", i), t: e}
				p := ef.i32("player", true)
				if p == 0 {
					// A stock receiver skips the score after id 0 and desyncs.
					L.RaiseError("bc.msg.score_change: extras[%d] has player 0", i)
				}
				sc.Extras = codec.AppendScoreEntry(sc.Extras, p, ef.i32("score", true))
			}
		}
		return m.pushMsg(sc.AppendTo(nil))
	})
	reg("score", func(L *glua.LState) int {
		f := argTable(L, "score")
		return m.pushMsg(codec.Score{Player: f.i32("player", true), Kills: f.i32("kills", false), Deaths: f.i32("deaths", false), Score: f.i32("score", false)}.AppendTo(nil))
	})
	reg("end_game", func(L *glua.LState) int {
		var reason int32
		if L.Get(1).Type() == glua.LTTable {
			reason = argTable(L, "end_game").i32("reason", true)
		} else {
			reason = int32(checkIntArg(L, 1, "reason", math.MinInt32, math.MaxInt32))
		}
		return m.pushMsg(codec.EndGame{Reason: reason}.AppendTo(nil))
	})
	reg("restart_game", func(L *glua.LState) int { return m.pushMsg(codec.RestartGame{}.AppendTo(nil)) })
	reg("score_init", func(L *glua.LState) int {
		f := argTable(L, "score_init")
		return m.pushMsg(codec.ScoreInit{
			Player: f.i32("player", true), Kills: f.i32("kills", false), Deaths: f.i32("deaths", false), Score: f.i32("score", false),
			Team: f.u8("team", codec.InvalidTeam, false),
		}.AppendTo(nil))
	})
	reg("team_score", func(L *glua.LState) int {
		f := argTable(L, "team_score")
		return m.pushMsg(codec.TeamScore{Team: f.u8("team", 0, true), Kills: f.i32("kills", false), Score: f.i32("score", false)}.AppendTo(nil))
	})
	reg("team", func(L *glua.LState) int {
		f := argTable(L, "team")
		return m.pushMsg(codec.Team{Player: f.i32("player", true), Team: f.u8("team", 0, true)}.AppendTo(nil))
	})
	return t
}

// parseLib decodes the stock layouts into tables; each parser returns the
// table, or nil and an error message.
func (m *mission) parseLib() *glua.LTable {
	L := m.L
	t := L.NewTable()
	for _, name := range parseNames {
		t.RawSetString(name, L.NewFunction(func(L *glua.LState) int {
			r, err := ParseMessage(L, name, []byte(L.CheckString(1)))
			if err != nil {
				L.Push(glua.LNil)
				L.Push(glua.LString(err.Error()))
				return 2
			}
			L.Push(r)
			return 1
		}))
	}
	return t
}

// parseNames are the layouts bc.parse (and ParseMessage) decodes.
var parseNames = []string{"chat", "mission_init", "score_change", "score", "end_game", "restart_game", "score_init", "team_score", "team"}

// ParseMessage decodes message b by the layout name (one of parseNames)
// into the table bc.parse.<name> returns. The mission test runner reads
// received messages with it, so tests see the fields missions do.
func ParseMessage(L *glua.LState, name string, b []byte) (*glua.LTable, error) {
	type kv struct {
		k string
		v glua.LValue
	}
	n := func(v int32) glua.LValue { return glua.LNumber(v) }
	var pairs []kv
	var err error
	switch name {
	case "chat":
		c, e := codec.DecodeChat(b)
		err, pairs = e, []kv{{"sender", n(c.Sender)}, {"text", glua.LString(c.Text)}, {"team", glua.LBool(c.Team)}}
	case "mission_init":
		mi, e := codec.DecodeMissionInit(b)
		lim := func(v uint8) glua.LValue {
			if v == codec.NoLimit {
				return glua.LNumber(-1)
			}
			return glua.LNumber(v)
		}
		err, pairs = e, []kv{{"player_limit", glua.LNumber(mi.PlayerLimit)}, {"system", glua.LNumber(mi.System)}, {"time_limit", lim(mi.TimeLimit)}, {"frag_limit", lim(mi.FragLimit)}}
		if mi.TimeLimit != codec.NoLimit {
			pairs = append(pairs, kv{"end_time", n(mi.EndTime)})
		}
	case "score_change":
		sc, e := codec.DecodeScoreChange(b)
		ex := L.CreateTable(sc.NumExtras(), 0)
		for i := 0; i < sc.NumExtras(); i++ {
			p, s := sc.Extra(i)
			e := L.CreateTable(0, 2)
			e.RawSetString("player", n(p))
			e.RawSetString("score", n(s))
			ex.Append(e)
		}
		err, pairs = e, []kv{{"killer", n(sc.Killer)}, {"killer_kills", n(sc.KillerKills)}, {"killer_score", n(sc.KillerScore)},
			{"victim", n(sc.Victim)}, {"victim_deaths", n(sc.VictimDeaths)}, {"extras", ex}}
	case "score":
		s, e := codec.DecodeScore(b)
		err, pairs = e, []kv{{"player", n(s.Player)}, {"kills", n(s.Kills)}, {"deaths", n(s.Deaths)}, {"score", n(s.Score)}}
	case "end_game":
		g, e := codec.DecodeEndGame(b)
		err, pairs = e, []kv{{"reason", n(g.Reason)}}
	case "restart_game":
		_, err = codec.DecodeRestartGame(b)
	case "score_init":
		s, e := codec.DecodeScoreInit(b)
		err, pairs = e, []kv{{"player", n(s.Player)}, {"kills", n(s.Kills)}, {"deaths", n(s.Deaths)}, {"score", n(s.Score)}, {"team", glua.LNumber(s.Team)}}
	case "team_score":
		s, e := codec.DecodeTeamScore(b)
		err, pairs = e, []kv{{"team", glua.LNumber(s.Team)}, {"kills", n(s.Kills)}, {"score", n(s.Score)}}
	case "team":
		s, e := codec.DecodeTeam(b)
		err, pairs = e, []kv{{"player", n(s.Player)}, {"team", glua.LNumber(s.Team)}}
	default:
		return nil, fmt.Errorf("no stock layout %q", name)
	}
	if err != nil {
		return nil, err
	}
	r := L.CreateTable(0, len(pairs))
	for _, p := range pairs {
		r.RawSetString(p.k, p.v)
	}
	return r, nil
}
