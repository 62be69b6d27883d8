package admin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/names"
	bcnet "github.com/bcserver/bcserver/net"
)

// PlayerRef names a player in a request: its wire id (a number, or a
// string of digits) or its name.
type PlayerRef string

// UnmarshalJSON takes a string or a number.
func (p *PlayerRef) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = PlayerRef(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("player: want a name or an id")
	}
	*p = PlayerRef(n.String())
	return nil
}

// find resolves a reference among the connected players: an id first,
// then the exact name, then a name admission would take for the same
// (names.Same: case, width, invisible characters) when only one matches.
func find(g engine.API, ref PlayerRef) (*engine.Player, error) {
	s := strings.TrimSpace(string(ref))
	if s == "" {
		return nil, errorf(http.StatusBadRequest, "player is required")
	}
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 256 {
		if p := g.Player(byte(n)); p != nil {
			return p, nil
		}
	}
	var fold []*engine.Player
	for _, p := range g.Players() {
		if p.Name == s {
			return p, nil
		}
		if names.Same(p.Name, s) {
			fold = append(fold, p)
		}
	}
	if len(fold) == 1 {
		return fold[0], nil
	}
	if len(fold) > 1 {
		return nil, errorf(http.StatusConflict, "%d players are called %q (as names compare): use the id", len(fold), s)
	}
	return nil, errorf(http.StatusNotFound, "no player %q", s)
}

func (a *Admin) getStatus(w http.ResponseWriter, r *http.Request) {
	var st Status
	if err := a.do(r.Context(), func(g engine.API) { st = a.status(g, true) }); err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (a *Admin) getPlayers(w http.ResponseWriter, r *http.Request) {
	var ps []PlayerInfo
	if err := a.do(r.Context(), func(g engine.API) { ps = a.players(g) }); err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ps)
}

type kickReq struct {
	Player PlayerRef `json:"player"`
	Reason string    `json:"reason"`
}

func (a *Admin) kick(r *http.Request) (any, error) {
	var req kickReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	var out PlayerInfo
	var ferr error
	err := a.do(r.Context(), func(g engine.API) {
		p, err := find(g, req.Player)
		if err != nil {
			ferr = err
			return
		}
		out = playerInfo(p)
		a.tell(g, p, "kicked", req.Reason)
		g.Kick(p, bcnet.BootKicked)
	})
	if err != nil {
		return nil, err
	}
	if ferr != nil {
		return nil, ferr
	}
	return map[string]any{"kicked": out}, nil
}

// tell says why a player is removed, as a host chat line to everyone
// (stock clients show no text with a boot).
func (a *Admin) tell(g engine.API, p *engine.Player, what, reason string) {
	text := fmt.Sprintf("%s was %s by the host", p.Name, what)
	if reason = trimmed(reason, 120); reason != "" {
		text += ": " + reason
	}
	sendChat(g, nil, text)
}

func sendChat(g engine.API, to *engine.Player, text string) {
	msg := engine.HostChat(nil, text)
	if to != nil {
		_ = g.Send(to, msg)
		return
	}
	g.SendInGame(msg, nil)
}

type sayReq struct {
	Text   string    `json:"text"`
	Player PlayerRef `json:"player"`
}

func (a *Admin) say(r *http.Request) (any, error) {
	var req sayReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	text := strings.TrimSpace(req.Text)
	if text == "" {
		return nil, errorf(http.StatusBadRequest, "text is required")
	}
	if n := len(engine.Name8(text)); n > codec.MaxChatText {
		return nil, errorf(http.StatusBadRequest, "text of %d bytes: at most %d", n, codec.MaxChatText)
	}
	var ferr error
	sent := 0
	err := a.do(r.Context(), func(g engine.API) {
		var to *engine.Player
		if req.Player != "" {
			p, err := find(g, req.Player)
			if err != nil {
				ferr = err
				return
			}
			if !p.InGame() {
				ferr = errorf(http.StatusConflict, "player %q is not in the game yet", p.Name)
				return
			}
			to = p
			sent = 1
		} else {
			sent = g.NumPlayers(true)
		}
		sendChat(g, to, text)
	})
	if err != nil {
		return nil, err
	}
	if ferr != nil {
		return nil, ferr
	}
	return map[string]any{"sent_to": sent}, nil
}

func (a *Admin) missionReload(r *http.Request) (any, error) {
	if a.opts.Missions == nil {
		return nil, errorf(http.StatusNotImplemented, "no mission runtime")
	}
	if err := decodeOptional(r); err != nil {
		return nil, err
	}
	if err := a.opts.Missions.Reload(r.Context()); err != nil {
		// The running version stays; the error names file:line.
		return nil, errorf(http.StatusUnprocessableEntity, "reload failed, the running version stays: %v", err)
	}
	var info MissionInfo
	if err := a.do(r.Context(), func(engine.API) { info = a.opts.Missions.Info() }); err != nil {
		return nil, err
	}
	return map[string]any{"mode": a.mode(), "version": info.Version}, nil
}

func (a *Admin) mode() string {
	if a.opts.Missions == nil {
		return ""
	}
	var m string
	_ = a.do(contextBG(), func(engine.API) { m = a.opts.Missions.Mode() })
	return m
}

type setReq struct {
	Mode string `json:"mode"`
	Now  bool   `json:"now"`
}

func (a *Admin) missionSet(r *http.Request) (any, error) {
	if a.opts.Missions == nil {
		return nil, errorf(http.StatusNotImplemented, "no mission runtime")
	}
	var req setReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Mode == "" {
		return nil, errorf(http.StatusBadRequest, "mode is required")
	}
	known := false
	for _, m := range a.opts.Missions.Modes() {
		known = known || m == req.Mode
	}
	if !known {
		return nil, errorf(http.StatusBadRequest, "unknown mode %q (modes: %s)", req.Mode, strings.Join(a.opts.Missions.Modes(), ", "))
	}
	var pending bool
	var serr error
	if err := a.do(r.Context(), func(engine.API) { pending, serr = a.opts.Missions.SetMode(req.Mode, req.Now) }); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, errorf(http.StatusUnprocessableEntity, "%v", serr)
	}
	if pending {
		return accepted{map[string]any{"mode": req.Mode, "pending": true}}, nil
	}
	return map[string]any{"mode": req.Mode, "pending": false}, nil
}

func (a *Admin) gameRestart(r *http.Request) (any, error) {
	if err := decodeOptional(r); err != nil {
		return nil, err
	}
	err := a.do(r.Context(), func(g engine.API) {
		if a.opts.Cut != nil {
			a.opts.Cut("restarted")
		}
		g.RestartGame()
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"restarted": true}, nil
}

type endReq struct {
	Reason *int32 `json:"reason"`
}

func (a *Admin) gameEnd(r *http.Request) (any, error) {
	var req endReq
	if err := decodeOptionalInto(r, &req); err != nil {
		return nil, err
	}
	reason := int32(codec.EndItsJustOver)
	if req.Reason != nil {
		if *req.Reason < 0 || *req.Reason > codec.EndEnterpriseDead {
			return nil, errorf(http.StatusBadRequest, "reason %d: want a stock END_GAME reason 0..%d", *req.Reason, codec.EndEnterpriseDead)
		}
		reason = *req.Reason
	}
	var already bool
	err := a.do(r.Context(), func(g engine.API) {
		if g.GameOver() {
			already = true
			return
		}
		if a.opts.Cut != nil {
			a.opts.Cut("ended_by_admin")
		}
		g.EndGame(reason)
	})
	if err != nil {
		return nil, err
	}
	if already {
		return nil, errorf(http.StatusConflict, "the game is already over")
	}
	return map[string]any{"ended": true, "reason": reason}, nil
}

// decodeOptional accepts an empty body or an empty JSON object.
func decodeOptional(r *http.Request) error {
	var v struct{}
	return decodeOptionalInto(r, &v)
}

func decodeOptionalInto(r *http.Request, v any) error { return decodeBody(r, v, true) }

func (a *Admin) getModes(w http.ResponseWriter, r *http.Request) {
	if a.opts.Missions == nil {
		writeError(w, http.StatusNotImplemented, "no mission runtime")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"modes": a.opts.Missions.Modes(), "current": a.mode()})
}

func (a *Admin) getLog(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("n"))
	if a.opts.Tail == nil {
		writeJSON(w, http.StatusOK, []LogLine{})
		return
	}
	writeJSON(w, http.StatusOK, a.mine(a.opts.Tail.Last(0), n))
}

// mine keeps the lines about this game (and the process's own) among
// lines, the last n of them (all when n <= 0).
func (a *Admin) mine(lines []LogLine, n int) []LogLine {
	out := lines[:0]
	for _, l := range lines {
		if a.ours(l) {
			out = append(out, l)
		}
	}
	if n > 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func (a *Admin) ours(l LogLine) bool {
	return a.opts.Game == "" || l.Game == "" || l.Game == a.opts.Game
}

func since(t, now time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return now.Sub(t).Round(time.Millisecond).Seconds()
}
