package main

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
)

// What a person play-testing a mission with bcbot needs beyond flying
// and firing: chat lines said again and again (a vote, a command), a ship
// that moves (so AI and area rules have something to follow), and the
// game's own messages in the log — scores, team scores, the end of the
// game — as a stock client would show them.

// chatLines is the repeatable -chat flag.
type chatLines []string

func (c *chatLines) String() string { return strings.Join(*c, " | ") }

func (c *chatLines) Set(s string) error {
	*c = append(*c, s)
	return nil
}

// chatter says the lines: all of them once at join when every is 0, else
// one every interval, in turn, round and round.
type chatter struct {
	lines []string
	every time.Duration
	next  int
}

// say returns the next line to send; ok is false when nothing is left.
func (c *chatter) say() (string, bool) {
	if len(c.lines) == 0 || c.every <= 0 && c.next >= len(c.lines) {
		return "", false
	}
	line := c.lines[c.next%len(c.lines)]
	c.next++
	return line, true
}

// patrol flies the ship from -pos to -move-to and back at -speed.
type patrol struct {
	from, to [3]float32
	speed    float32 // world units per second
}

// at returns where the ship is after t of flying and the way it faces.
func (p patrol) at(t time.Duration) (pos, forward [3]float32) {
	d := [3]float32{p.to[0] - p.from[0], p.to[1] - p.from[1], p.to[2] - p.from[2]}
	length := float32(math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])))
	if length == 0 || p.speed <= 0 {
		return p.from, [3]float32{0, 1, 0}
	}
	dist := math.Mod(float64(p.speed)*t.Seconds(), 2*float64(length))
	f := float32(dist) / length // 0..2: out, then back
	dir := float32(1)
	if f > 1 {
		f, dir = 2-f, -1
	}
	for i := range pos {
		pos[i] = p.from[i] + d[i]*f
		forward[i] = dir * d[i] / length
	}
	return pos, forward
}

// move sends the ship's position on the patrol at t (unreliable, as
// stock clients send StateUpdates).
func (p *player) move(pt patrol, t time.Duration) {
	if p.ship == 0 {
		return
	}
	if pt.speed <= 0 {
		pt.speed = 5 // a slow ship's speed, for a class without data
		if c, ok := p.reg.Class(p.species); ok && c.MaxSpeed > 0 {
			pt.speed = c.MaxSpeed
		}
	}
	pos, fwd := pt.at(t)
	p.pos[p.ship] = pos
	_ = p.b.Send(bot.Move(p.ship, pos, fwd), false)
}

// endReasons are the END_GAME reasons' texts (missions.md 2.6).
var endReasons = map[int32]string{
	codec.EndItsJustOver: "it's just over", codec.EndTimeUp: "time up", codec.EndNumFragsReached: "frag limit reached",
	codec.EndScoreLimitReached: "score limit reached", codec.EndStarbaseDead: "starbase destroyed",
	codec.EndBorgDead: "Borg destroyed", codec.EndEnterpriseDead: "Enterprise destroyed",
}

// logGame logs the game messages a stock client shows (scores, teams,
// the end and restart of the game, a ship's death); it reports whether
// the message was one of them.
func logGame(log *slog.Logger, p []byte) bool {
	switch p[0] {
	case codec.OpMissionInit:
		if m, err := codec.DecodeMissionInit(p); err == nil {
			log.Info("MISSION_INIT", "system", m.System, "player_limit", m.PlayerLimit, "time_limit", limit(m.TimeLimit), "end_time", m.EndTime, "frag_limit", limit(m.FragLimit))
			return true
		}
	case codec.OpScoreChange:
		if m, err := codec.DecodeScoreChange(p); err == nil {
			var extras []string
			for i := range m.NumExtras() {
				id, score := m.Extra(i)
				extras = append(extras, fmt.Sprintf("%d:%d", id, score))
			}
			log.Info("SCORE_CHANGE", "killer", m.Killer, "killer_kills", m.KillerKills, "killer_score", m.KillerScore,
				"victim", m.Victim, "victim_deaths", m.VictimDeaths, "others", strings.Join(extras, ","))
			return true
		}
	case codec.OpScore:
		if m, err := codec.DecodeScore(p); err == nil {
			log.Info("SCORE", "player", m.Player, "kills", m.Kills, "deaths", m.Deaths, "score", m.Score)
			return true
		}
	case codec.OpScoreInit:
		if m, err := codec.DecodeScoreInit(p); err == nil {
			log.Info("SCORE_INIT", "player", m.Player, "kills", m.Kills, "deaths", m.Deaths, "score", m.Score, "team", m.Team)
			return true
		}
	case codec.OpTeamScore:
		if m, err := codec.DecodeTeamScore(p); err == nil {
			log.Info("TEAM_SCORE", "team", m.Team, "kills", m.Kills, "score", m.Score)
			return true
		}
	case codec.OpTeam:
		if m, err := codec.DecodeTeam(p); err == nil {
			log.Info("TEAM", "player", m.Player, "team", m.Team)
			return true
		}
	case codec.OpEndGame:
		if m, err := codec.DecodeEndGame(p); err == nil {
			why, ok := endReasons[m.Reason]
			if !ok {
				why = "no reason text"
			}
			log.Info("END_GAME", "reason", m.Reason, "why", why)
			return true
		}
	case codec.OpRestartGame:
		log.Info("RESTART_GAME")
		return true
	case codec.OpPythonEvent:
		if m, err := codec.DecodeObjectExploding(p); err == nil {
			log.Info("ship destroyed", "ship", fmt.Sprintf("%#x", uint32(m.Dst)), "killer", m.FiringPlayer, "lifetime", m.Lifetime)
			return true
		}
	}
	return false
}

// limit shows a time or frag limit: "none" for 255.
func limit(v uint8) any {
	if v == codec.NoLimit {
		return "none"
	}
	return v
}
