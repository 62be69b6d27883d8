package engine

import "github.com/bcserver/bcserver/codec"

// SetTeam records a player's team (the mission's TEAM message); the core
// uses it for team-chat routing.
func (g *Game) SetTeam(p *Player, team int) { p.Team = team }

// SetScore records a player's kills, deaths and score for reporting.
func (g *Game) SetScore(p *Player, kills, deaths, score int) {
	p.scoreRaw = [3]int{kills, deaths, score}
	if p.unscored {
		p.Kills, p.Deaths, p.Score = 0, 0, 0
		return
	}
	p.Kills, p.Deaths, p.Score = kills-p.scoreBase[0], deaths-p.scoreBase[1], score-p.scoreBase[2]
}

// GameOver reports whether the game has ended (until a restart).
func (g *Game) GameOver() bool { return g.gameOver }

// RestartGame restarts after an end (missions.md 2.7, 3.8): RESTART_GAME
// to every player, any host ship left is deleted (DestroyObject 0x14), the
// game opens to new players again, and the mission resets its tables (and
// makes its host ships anew) on GameRestarted.
func (g *Game) RestartGame() {
	g.buf = codec.RestartGame{}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
	g.gameOver = false
	g.accepting = true
	g.world.ForgetShips()
	g.world.RemoveHostShips(g.now)
	for _, p := range g.bySlot {
		if p != nil {
			// The mission counts from zero again.
			p.scoreBase, p.scoreRaw = [3]int{}, [3]int{}
		}
	}
	g.log.Info("game restarted")
	g.bus.emit(&GameRestarted{})
}
