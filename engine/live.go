package engine

import "fmt"

// LiveSettings are the parts of the configuration a host may change while
// the game runs (SIGHUP): they only affect what happens next (the next
// connect, the next server-browser answer).
type LiveSettings struct {
	ServerName string
	MaxPlayers int
	Password   string
}

// SetLive applies s. Lowering MaxPlayers keeps the players already
// connected; it refuses the next connects until the count is below it.
func (g *Game) SetLive(s LiveSettings) error {
	if s.MaxPlayers < 1 || s.MaxPlayers > MaxSlots {
		return fmt.Errorf("max_players %d: must be 1..%d", s.MaxPlayers, MaxSlots)
	}
	g.cfg.ServerName, g.cfg.MaxPlayers, g.cfg.Password = s.ServerName, s.MaxPlayers, s.Password
	return nil
}
