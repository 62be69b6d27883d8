package lua

import (
	"fmt"
	"math"
	"sort"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
)

// outcomeFields are the fields of bc.end_game's outcome table.
var outcomeFields = map[string]bool{"reason": true, "winner_team": true, "winner": true, "why": true, "teams": true}

// endGame is bc.end_game(reason [, outcome]) or bc.end_game{reason = r,
// winner_team = t, winner = id, why = "...", teams = {...}}: END_GAME to
// everyone with the stock reason (what a stock client can show), and the
// outcome — the winning team or player and why — for the match history,
// the recording and the careers. The team scores default to the last
// bc.status's.
func (m *mission) endGame(L *glua.LState) int {
	var reason int64
	var t *glua.LTable
	switch v := L.Get(1).(type) {
	case glua.LNumber:
		reason = checkIntArg(L, 1, "reason", math.MinInt32, math.MaxInt32)
		switch o := L.Get(2).(type) {
		case *glua.LNilType:
		case *glua.LTable:
			t = o
			if t.RawGetString("reason") != glua.LNil {
				L.ArgError(2, "reason: give it once, as the first argument")
			}
		default:
			L.ArgError(2, fmt.Sprintf("want an outcome table {winner_team, winner, why, teams}, got a %s value", o.Type()))
		}
	case *glua.LTable:
		t = v
		switch r := t.RawGetString("reason").(type) {
		case *glua.LNilType:
		case glua.LNumber:
			f := float64(r)
			if f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
				L.ArgError(1, fmt.Sprintf("reason: %v is not an integer", f))
			}
			reason = int64(f)
		default:
			L.ArgError(1, fmt.Sprintf("reason: want a bc.END value, got a %s value", r.Type()))
		}
	default:
		L.ArgError(1, fmt.Sprintf("want a reason (bc.END) or a table {reason, winner_team, winner, why, teams}, got a %s value", v.Type()))
	}
	var o *engine.Outcome
	if t != nil {
		n := 1
		if _, isNum := L.Get(1).(glua.LNumber); isNum {
			n = 2
		}
		o = m.checkOutcome(L, n, t)
	}
	m.effect(func() {
		if len(m.h.status.Teams) > 0 && (o == nil || o.Teams == nil) {
			// The team scores as the mission last reported them.
			if o == nil {
				o = &engine.Outcome{}
			}
			for _, ts := range m.h.status.Teams {
				o.Teams = append(o.Teams, engine.TeamScore{Team: ts.Team, Kills: ts.Kills, Score: ts.Score})
			}
		}
		m.h.eng.EndGameWith(int32(reason), o)
	})
	return 0
}

// checkOutcome reads the outcome fields of table t (argument n).
func (m *mission) checkOutcome(L *glua.LState, n int, t *glua.LTable) *engine.Outcome {
	t.ForEach(func(k, _ glua.LValue) {
		if ks, ok := k.(glua.LString); !ok || !outcomeFields[string(ks)] {
			L.ArgError(n, fmt.Sprintf("unknown field %s (want reason, winner_team, winner, why, teams)", k.String()))
		}
	})
	o := &engine.Outcome{}
	switch v := t.RawGetString("winner_team").(type) {
	case *glua.LNilType:
	case glua.LNumber:
		f := float64(v)
		if f != math.Trunc(f) || f < 0 || f > 255 {
			L.ArgError(n, fmt.Sprintf("winner_team: %v is not a team (0..255)", f))
		}
		team := int(f)
		o.Team = &team
	default:
		L.ArgError(n, fmt.Sprintf("winner_team: want a team number, got a %s value", v.Type()))
	}
	switch v := t.RawGetString("winner").(type) {
	case *glua.LNilType:
	case glua.LNumber:
		f := float64(v)
		if f != math.Trunc(f) || f < 0 || f > 255 {
			L.ArgError(n, fmt.Sprintf("winner: %v is not a player id", f))
		}
		o.Player = byte(f)
	default:
		L.ArgError(n, fmt.Sprintf("winner: want a player id, got a %s value", v.Type()))
	}
	switch v := t.RawGetString("why").(type) {
	case *glua.LNilType:
	case glua.LString:
		if len(v) > engine.MaxOutcomeWhy {
			L.ArgError(n, fmt.Sprintf("why: longer than %d bytes", engine.MaxOutcomeWhy))
		}
		o.Why = string(v)
	default:
		L.ArgError(n, fmt.Sprintf("why: want a string, got a %s value", v.Type()))
	}
	switch teams := t.RawGetString("teams").(type) {
	case *glua.LNilType:
	case *glua.LTable:
		o.Teams = []engine.TeamScore{}
		teams.ForEach(func(k, v glua.LValue) {
			kn, ok := k.(glua.LNumber)
			row, isTable := v.(*glua.LTable)
			if !ok || float64(kn) != math.Trunc(float64(kn)) || kn < 0 || kn > 255 || !isTable {
				L.ArgError(n, "teams: want {[team] = {kills = n, score = n}} with teams 0..255")
			}
			if len(o.Teams) == engine.MaxOutcomeTeams {
				L.ArgError(n, fmt.Sprintf("teams: at most %d", engine.MaxOutcomeTeams))
			}
			o.Teams = append(o.Teams, engine.TeamScore{Team: int(kn), Kills: statusNumber(L, row, "kills"), Score: statusNumber(L, row, "score")})
		})
		sort.Slice(o.Teams, func(i, j int) bool { return o.Teams[i].Team < o.Teams[j].Team })
	default:
		L.ArgError(n, fmt.Sprintf("teams: want a table or nil, got a %s value", teams.Type()))
	}
	return o
}

// outcomeTable is the outcome part of game_ended's payload.
func (m *mission) outcomeTable(t *glua.LTable, o *engine.Outcome) {
	if o == nil {
		return
	}
	L := m.L
	if o.Team != nil {
		t.RawSetString("winner_team", glua.LNumber(*o.Team))
	}
	if o.Player != 0 {
		t.RawSetString("winner", glua.LNumber(o.Player))
		t.RawSetString("winner_name", glua.LString(o.PlayerName))
	}
	if o.Why != "" {
		t.RawSetString("why", glua.LString(o.Why))
	}
	if len(o.Teams) > 0 {
		teams := L.CreateTable(0, len(o.Teams))
		for _, ts := range o.Teams {
			row := L.CreateTable(0, 2)
			row.RawSetString("kills", glua.LNumber(ts.Kills))
			row.RawSetString("score", glua.LNumber(ts.Score))
			teams.RawSetInt(ts.Team, row)
		}
		t.RawSetString("teams", teams)
	}
}
