package missiontest

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/lua"
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
	if name := scriptLayout(b[0]); name != "" {
		// The script messages read as bc.parse reads them.
		if r, err := lua.ParseMessage(L, name, b); err == nil {
			typ = name
			if b[0] == codec.OpTeamChat {
				typ = "team_chat"
			}
			r.ForEach(func(k, v glua.LValue) { t.RawSetString(k.String(), v) })
		}
	}
	switch b[0] {
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
	case codec.OpStartFiring:
		if m, err := codec.DecodeStartFiring(b); err == nil {
			typ = "start_firing"
			set("weapon", n(m.Dst))
			set("target", n(m.Target))
		}
	case codec.OpStopFiring:
		if m, err := codec.DecodeEvent(b); err == nil {
			typ = "stop_firing"
			set("weapon", n(m.Dst))
		}
	case codec.OpPulseFire:
		if m, err := codec.DecodePulseFire(b); err == nil {
			typ = "pulse_fire"
			set("weapon", n(m.CannonID))
			set("target", n(m.Target))
			set("firing_player", glua.LNumber(m.FiringPlayer))
		}
	case codec.OpTorpedoFire:
		if m, err := codec.DecodeTorpedoFire(b); err == nil {
			typ = "torpedo_fire"
			set("weapon", n(m.TubeID))
			set("target", n(m.Target))
			set("firing_player", glua.LNumber(m.FiringPlayer))
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

// scriptLayout names the bc.parse layout of a script message opcode, or
// "" for an engine message.
func scriptLayout(op byte) string {
	switch op {
	case codec.OpChat, codec.OpTeamChat:
		return "chat"
	case codec.OpMissionInit:
		return "mission_init"
	case codec.OpScoreChange:
		return "score_change"
	case codec.OpScore:
		return "score"
	case codec.OpEndGame:
		return "end_game"
	case codec.OpRestartGame:
		return "restart_game"
	case codec.OpScoreInit:
		return "score_init"
	case codec.OpTeamScore:
		return "team_score"
	case codec.OpTeam:
		return "team"
	}
	return ""
}
