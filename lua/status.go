package lua

import (
	"fmt"
	"math"
	"sort"

	glua "github.com/yuin/gopher-lua"
)

// Status is what a mission tells the host's status (the admin API and
// console) beyond what the engine knows: the time left in the match and,
// in team modes, the team scores. The mission says it with bc.status;
// the stock library does for every stock mode.
type Status struct {
	// TimeLeft is in seconds; nil without a time limit.
	TimeLeft *int
	// Teams are in team order; empty for a mode without teams.
	Teams []TeamStatus
}

// TeamStatus is one team's line of a Status.
type TeamStatus struct {
	Team, Kills, Score int
}

// maxStatusTeams bounds bc.status's team list.
const maxStatusTeams = 16

// Status returns the status the mission last gave (bc.status); the zero
// Status before it gave one. Call it on the game goroutine.
func (h *Runtime) Status() Status {
	s := h.status
	if s.TimeLeft != nil {
		n := *s.TimeLeft
		s.TimeLeft = &n
	}
	s.Teams = append([]TeamStatus(nil), s.Teams...)
	return s
}

// setStatus is bc.status{time_left = n, teams = {[t] = {kills, score}}}:
// it replaces the whole status (an omitted field is cleared).
func (m *mission) setStatus(L *glua.LState) int {
	t := L.CheckTable(1)
	var st Status
	switch v := t.RawGetString("time_left").(type) {
	case *glua.LNilType:
	case glua.LNumber:
		f := float64(v)
		if f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
			L.ArgError(1, fmt.Sprintf("time_left: %v is not a whole number of seconds", f))
		}
		n := int(f)
		st.TimeLeft = &n
	default:
		L.ArgError(1, fmt.Sprintf("time_left: want seconds or nil, got a %s value", v.Type()))
	}
	switch teams := t.RawGetString("teams").(type) {
	case *glua.LNilType:
	case *glua.LTable:
		teams.ForEach(func(k, v glua.LValue) {
			n, ok := k.(glua.LNumber)
			row, isTable := v.(*glua.LTable)
			if !ok || float64(n) != float64(int(n)) || n < 0 || n > 255 || !isTable {
				L.ArgError(1, "teams: want {[team] = {kills = n, score = n}} with teams 0..255")
			}
			if len(st.Teams) == maxStatusTeams {
				L.ArgError(1, fmt.Sprintf("teams: at most %d", maxStatusTeams))
			}
			st.Teams = append(st.Teams, TeamStatus{Team: int(n), Kills: statusNumber(L, row, "kills"), Score: statusNumber(L, row, "score")})
		})
		sort.Slice(st.Teams, func(i, j int) bool { return st.Teams[i].Team < st.Teams[j].Team })
	default:
		L.ArgError(1, fmt.Sprintf("teams: want a table or nil, got a %s value", teams.Type()))
	}
	m.effect(func() { m.h.status = st })
	return 0
}

// statusNumber reads an integer field of a team row (0 when absent).
func statusNumber(L *glua.LState, row *glua.LTable, key string) int {
	switch v := row.RawGetString(key).(type) {
	case *glua.LNilType:
		return 0
	case glua.LNumber:
		f := float64(v)
		if f != float64(int32(f)) {
			L.ArgError(1, fmt.Sprintf("teams: %s: %v is not an integer", key, f))
		}
		return int(f)
	default:
		L.ArgError(1, fmt.Sprintf("teams: %s: want a number, got a %s value", key, v.Type()))
	}
	return 0
}
