package engine

import "github.com/bcserver/bcserver/codec"

// Outcome is how a match ended beyond the stock END_GAME reason (which
// has seven fixed texts and no winner): who won and why, with the team
// scores at the end. The mission gives it with bc.end_game; the match
// history, the recording and the career statistics keep it.
type Outcome struct {
	// Team is the winning team; nil for none (a free-for-all, a draw).
	Team *int `json:"winner_team,omitempty"`
	// Player is the winning player's id (0: none) and PlayerName his name
	// as the match ended.
	Player     byte   `json:"winner,omitempty"`
	PlayerName string `json:"winner_name,omitempty"`
	// Why says in words how it was won ("the freighter was destroyed").
	Why string `json:"why,omitempty"`
	// Teams are the team scores as the match ended, in team order; empty
	// for a mode without teams.
	Teams []TeamScore `json:"teams,omitempty"`
}

// TeamScore is one team's score line.
type TeamScore struct {
	Team  int `json:"team"`
	Kills int `json:"kills"`
	Score int `json:"score"`
}

// MaxOutcomeWhy bounds Outcome.Why (bytes); MaxOutcomeTeams the team
// lines.
const (
	MaxOutcomeWhy   = 128
	MaxOutcomeTeams = 16
)

// Empty reports whether the outcome says nothing beyond the reason.
func (o *Outcome) Empty() bool {
	return o == nil || o.Team == nil && o.Player == 0 && o.Why == "" && len(o.Teams) == 0
}

// EndGameWith is EndGame with the match's outcome, which GameEnded
// carries to the plugins (history, recording, careers). The clients read
// the stock END_GAME only: a stock client has no message for a winner.
func (g *Game) EndGameWith(reason int32, o *Outcome) {
	if g.gameOver {
		return
	}
	if o != nil && o.Player != 0 && o.PlayerName == "" {
		if p := g.byID[o.Player]; p != nil {
			o.PlayerName = p.Name
		}
	}
	g.endGame(reason, o)
}

// EndGame ends the game (missions.md 2.6, 3.6): END_GAME to every player,
// no new players until a restart, and the ships are forgotten — every
// client deletes the players' ships itself when it reads END_GAME. Host
// ships are deleted too, as the stock host deletes its mission objects;
// what the stock host tells clients then is open (missions.md 8), so each
// live one gets a DestroyObject 0x14 and every client agrees with the host.
func (g *Game) EndGame(reason int32) { g.endGame(reason, nil) }

func (g *Game) endGame(reason int32, o *Outcome) {
	if g.gameOver {
		return
	}
	g.gameOver = true
	g.buf = codec.EndGame{Reason: reason}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
	g.accepting = false
	g.world.ForgetShips()
	g.world.RemoveHostShips(g.now)
	if o.Empty() {
		g.log.Info("game ended", "reason", reason)
	} else {
		g.log.Info("game ended", "reason", reason, "winner_team", teamAttr(o.Team), "winner", o.PlayerName, "why", o.Why)
	}
	g.bus.emit(&GameEnded{Reason: reason, Outcome: o})
}

// teamAttr shows a winning team in a log line ("none" for nil).
func teamAttr(t *int) any {
	if t == nil {
		return "none"
	}
	return *t
}
