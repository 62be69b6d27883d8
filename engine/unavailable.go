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

// SetLoading marks the game as loading its mission (on) or done with it,
// whatever came of it (off). A server starts its games this way: the
// socket answers the server browser at once, showing the game in its setup
// screen, while the mission is compiled and opened; connects meanwhile go
// unanswered (a stock client repeats its connect about once a second).
func (g *Game) SetLoading(on bool) { g.loading = on }

// Loading reports whether the game is still loading its mission
// (SetLoading).
func (g *Game) Loading() bool { return g.loading }
