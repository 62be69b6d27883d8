package engine

// SetUnavailable closes the game to every new player for a reason of the
// host's (why, e.g. "mission \\"ctf\\": main.lua:3: ..."), or opens it again
// with "". Unlike SetAccepting, which the match flow drives (END_GAME,
// restart), this stays until it is lifted: a game whose mission could not
// start runs on without one and refuses connects with the stock answer
// (reason 2), and the server browser shows it in its setup screen.
func (g *Game) SetUnavailable(why string) {
	if why == g.unavailable {
		return
	}
	g.unavailable = why
	if why != "" {
		g.log.Warn("the game takes no players", "why", why)
	} else {
		g.log.Info("the game takes players again")
	}
}

// Unavailable returns why the game takes no players at all, or "".
func (g *Game) Unavailable() string { return g.unavailable }
