package admin

import (
	"net/http"

	"github.com/bcserver/bcserver/engine"
)

// Admin is also an engine.Plugin on its game: it puts every chat line in
// the log (so the console shows it, with the player's id and team chat
// marked) and holds back the lines of muted players.

// Name implements engine.Plugin.
func (a *Admin) Name() string { return "admin" }

// Start implements engine.Plugin (game goroutine).
func (a *Admin) Start(g *engine.Game) error {
	a.muted = map[*engine.Player]bool{}
	a.offs = append(a.offs,
		g.On(engine.EvChat, func(ev engine.Event) { a.chat(g, ev.(*engine.Chat)) }),
		g.On(engine.EvPlayerLeft, func(ev engine.Event) { delete(a.muted, ev.(*engine.PlayerLeft).Player) }))
	return nil
}

// Stop implements engine.Plugin.
func (a *Admin) Stop(*engine.Game) {
	for _, off := range a.offs {
		off()
	}
	a.offs = nil
}

// chat logs a chat line and, for a muted player, stops the relay to the
// others. The muted player still gets its own line back, as the stock host
// sends every line to its sender too (missions.md 2.1): its client is not
// told, so it has no reason to come back under another name.
func (a *Admin) chat(g *engine.Game, c *engine.Chat) {
	muted := a.muted[c.From]
	what := "chat"
	if c.Team {
		what = "team chat"
	}
	a.chatLog.Info(what, "player", int(c.From.ID), "name", c.From.Name, "team", c.Team, "muted", muted, "text", c.Line)
	if !muted {
		return
	}
	c.Cancel, c.Muted = true, true
	_ = g.Send(c.From, c.Payload)
}

type muteReq struct {
	Player PlayerRef `json:"player"`
	Mute   *bool     `json:"mute"` // default true
}

// mute holds back (or lets through again) a player's chat for the rest of
// its session.
func (a *Admin) mute(r *http.Request) (any, error) {
	var req muteReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	on := req.Mute == nil || *req.Mute
	var out PlayerInfo
	var ferr error
	err := a.do(r.Context(), func(g *engine.Game) {
		p, err := find(g, req.Player)
		if err != nil {
			ferr = err
			return
		}
		if a.muted == nil {
			ferr = errorf(http.StatusServiceUnavailable, "chat is not watched on this game")
			return
		}
		if on {
			a.muted[p] = true
		} else {
			delete(a.muted, p)
		}
		g.SetMuted(p, on) // the in-game !mute's flag too, so one unmute lifts both
		out = playerInfo(p)
		out.Muted = on
	})
	if err != nil {
		return nil, err
	}
	if ferr != nil {
		return nil, ferr
	}
	return map[string]any{"player": out, "muted": on}, nil
}
