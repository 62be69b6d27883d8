package missiontest

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
)

// decode turns a received message into the table a test reads: the same
// field names as bc.parse for script messages, and the main engine
// messages a mission test cares about (deaths). Every table has type and
// raw (the bytes).
func decode(L *glua.LState, b []byte) *glua.LTable {
	t := L.CreateTable(0, 8)
	set := func(k string, v glua.LValue) { t.RawSetString(k, v) }
	n := func(v int32) glua.LValue { return glua.LNumber(v) }
	set("raw", glua.LString(b))
	set("opcode", glua.LNumber(b[0]))
	typ := fmt.Sprintf("0x%02X", b[0])
	switch b[0] {
	case codec.OpChat, codec.OpTeamChat:
		if m, err := codec.DecodeChat(b); err == nil {
			typ = "chat"
			if m.Team {
				typ = "team_chat"
			}
			set("sender", n(m.Sender))
			set("text", glua.LString(m.Text))
		}
	case codec.OpMissionInit:
		if m, err := codec.DecodeMissionInit(b); err == nil {
			typ = "mission_init"
			set("player_limit", glua.LNumber(m.PlayerLimit))
			set("system", glua.LNumber(m.System))
			set("time_limit", limit(m.TimeLimit))
			set("frag_limit", limit(m.FragLimit))
			if m.TimeLimit != codec.NoLimit {
				set("end_time", n(m.EndTime))
			}
		}
	case codec.OpScoreChange:
		if m, err := codec.DecodeScoreChange(b); err == nil {
			typ = "score_change"
			set("killer", n(m.Killer))
			set("killer_kills", n(m.KillerKills))
			set("killer_score", n(m.KillerScore))
			set("victim", n(m.Victim))
			set("victim_deaths", n(m.VictimDeaths))
			ex := L.CreateTable(m.NumExtras(), 0)
			for i := 0; i < m.NumExtras(); i++ {
				p, s := m.Extra(i)
				e := L.CreateTable(0, 2)
				e.RawSetString("player", n(p))
				e.RawSetString("score", n(s))
				ex.Append(e)
			}
			set("extras", ex)
		}
	case codec.OpScore:
		if m, err := codec.DecodeScore(b); err == nil {
			typ = "score"
			set("player", n(m.Player))
			set("kills", n(m.Kills))
			set("deaths", n(m.Deaths))
			set("score", n(m.Score))
		}
	case codec.OpEndGame:
		if m, err := codec.DecodeEndGame(b); err == nil {
			typ = "end_game"
			set("reason", n(m.Reason))
		}
	case codec.OpRestartGame:
		typ = "restart_game"
	case codec.OpScoreInit:
		if m, err := codec.DecodeScoreInit(b); err == nil {
			typ = "score_init"
			set("player", n(m.Player))
			set("kills", n(m.Kills))
			set("deaths", n(m.Deaths))
			set("score", n(m.Score))
			set("team", glua.LNumber(m.Team))
		}
	case codec.OpTeamScore:
		if m, err := codec.DecodeTeamScore(b); err == nil {
			typ = "team_score"
			set("team", glua.LNumber(m.Team))
			set("kills", n(m.Kills))
			set("score", n(m.Score))
		}
	case codec.OpTeam:
		if m, err := codec.DecodeTeam(b); err == nil {
			typ = "team"
			set("player", n(m.Player))
			set("team", glua.LNumber(m.Team))
		}
	case codec.OpPythonEvent:
		if m, err := codec.DecodeObjectExploding(b); err == nil {
			typ = "object_exploding"
			set("src", n(m.Src))
			set("dst", n(m.Dst))
			set("firing_player", n(m.FiringPlayer))
			set("lifetime", glua.LNumber(m.Lifetime))
		} else {
			typ = "python_event"
		}
	case codec.OpBeamFire:
		if m, err := codec.DecodeBeamFire(b); err == nil {
			typ = "beam_fire"
			set("weapon", n(m.BeamID))
			set("target", n(m.Target))
		}
	case codec.OpTorpedoFire:
		if m, err := codec.DecodeTorpedoFire(b); err == nil {
			typ = "torpedo_fire"
			set("weapon", n(m.TubeID))
			set("target", n(m.Target))
		}
	case codec.OpDestroyObject:
		if m, err := codec.DecodeDestroyObject(b); err == nil {
			typ = "destroy_object"
			set("id", n(m.ObjectID))
		}
	case codec.OpExplosion:
		typ = "explosion"
	case codec.OpObjCreate, codec.OpObjCreateTeam:
		if m, err := codec.DecodeObjCreate(b); err == nil {
			typ = "object_created"
			set("id", n(m.ObjectID))
			set("owner", glua.LNumber(m.OwnerPlayer))
			set("owner_slot", glua.LNumber(m.OwnerSlot))
			set("species", glua.LNumber(m.Ship.Species))
			set("name", glua.LString(m.Ship.Name))
		}
	case codec.OpStateUpdate:
		typ = "state_update"
	}
	set("type", glua.LString(typ))
	return t
}

func limit(v uint8) glua.LValue {
	if v == codec.NoLimit {
		return glua.LNumber(-1)
	}
	return glua.LNumber(v)
}
