package admin

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Status is GET /api/v1/status and the event stream's "status" event.
type Status struct {
	Server  ServerInfo   `json:"server"`
	Mission MissionState `json:"mission"`
	Players []PlayerInfo `json:"players"`
	Ships   []ShipInfo   `json:"ships,omitempty"`
}

// ServerInfo describes the server.
type ServerInfo struct {
	Name       string  `json:"name"`
	Address    string  `json:"address"`
	Version    string  `json:"version"`
	Uptime     float64 `json:"uptime"` // seconds
	MaxPlayers int     `json:"max_players"`
	Password   bool    `json:"password"`
	Accepting  bool    `json:"accepting"`
}

// MissionState is the running mode and match.
type MissionState struct {
	Mode      string  `json:"mode"`
	Script    string  `json:"script"`
	Map       string  `json:"map"` // the star system
	MapName   string  `json:"map_name"`
	TimeLimit int     `json:"time_limit"` // minutes, -1 none
	FragLimit int     `json:"frag_limit"`
	GameOver  bool    `json:"game_over"`
	GameTime  float64 `json:"game_time"`
	MissionInfo
}

// PlayerInfo is one player's line.
type PlayerInfo struct {
	ID        int      `json:"id"`
	Slot      int      `json:"slot"`
	Name      string   `json:"name"`
	State     string   `json:"state"`
	Team      int      `json:"team"` // -1: none
	Kills     int      `json:"kills"`
	Deaths    int      `json:"deaths"`
	Score     int      `json:"score"`
	Ping      *float64 `json:"ping"` // milliseconds (smoothed round trip); null before the first sample
	Address   string   `json:"address"`
	Connected float64  `json:"connected"` // seconds since the connect
	ShipID    int32    `json:"ship_id,omitempty"`
	Muted     bool     `json:"muted,omitempty"` // its chat is not relayed (POST /api/v1/mute, in-game !mute)
	// Account is the account the player logged in to ([accounts]), Role
	// its role; Unscored marks a registered name not logged in yet.
	Account  string `json:"account,omitempty"`
	Role     string `json:"role,omitempty"`
	Unscored bool   `json:"unscored,omitempty"`
	// Violations counts the player's fair-play violations (README, "Fair
	// play"); each is also a line of the log.
	Violations uint64 `json:"violations,omitempty"`
}

// ShipInfo is one ship on the tactical map.
type ShipInfo struct {
	ID       int32       `json:"id"`
	OwnerID  int         `json:"owner_id"` // 0: the host's (AI, stations)
	Owner    string      `json:"owner,omitempty"`
	Name     string      `json:"name,omitempty"` // the ship's own name (a host ship's, "Freighter")
	Team     int         `json:"team"`
	Species  int         `json:"species"`
	Class    string      `json:"class,omitempty"`
	Position *[3]float32 `json:"position"`
	Hull     *float32    `json:"hull"` // 0..1; null without a host model
	Alive    bool        `json:"alive"`
}

func playerInfo(p *engine.Player) PlayerInfo {
	pi := PlayerInfo{ID: int(p.ID), Slot: p.Slot, Name: p.Name, State: p.State.String(), Team: p.Team,
		Kills: p.Kills, Deaths: p.Deaths, Score: p.Score, Address: p.Addr.String(), ShipID: p.ShipID,
		Account: p.Account, Role: p.Role, Unscored: !p.Scored(), Violations: p.Violations()}
	if d, ok := p.RTT(); ok {
		ms := math.Round(float64(d)/float64(time.Millisecond)*10) / 10
		pi.Ping = &ms
	}
	return pi
}

func (a *Admin) players(g *engine.Game) []PlayerInfo {
	out := []PlayerInfo{}
	now := g.Now()
	for _, p := range g.Players() {
		pi := playerInfo(p)
		pi.Connected = since(p.ConnectedAt, now)
		pi.Muted = a.muted[p] || p.Muted()
		out = append(out, pi)
	}
	return out
}

func ships(g *engine.Game) []ShipInfo {
	out := []ShipInfo{}
	for _, o := range g.Objects() {
		if !o.IsShip() {
			continue
		}
		si := ShipInfo{ID: o.ID, OwnerID: o.OwnerID(), Team: o.Team(), Species: o.Species, Alive: o.Alive(), Name: o.Name}
		if p := g.PlayerOf(o); p != nil {
			si.Owner = p.Name
		}
		if o.Model != nil {
			si.Class = o.Model.Class().Name
		}
		if pos, ok := o.Position(); ok {
			si.Position = &pos
		}
		if h, ok := o.HullFraction(); ok {
			si.Hull = &h
		}
		out = append(out, si)
	}
	return out
}

// status builds the status on the game goroutine.
func (a *Admin) status(g *engine.Game, withShips bool) Status {
	cfg := g.Config()
	m := g.Mission()
	st := Status{
		Server: ServerInfo{Name: cfg.ServerName, Address: a.opts.Server.Addr().String(), Version: a.opts.Version,
			Uptime: a.opts.Now().Sub(a.started).Round(time.Second).Seconds(), MaxPlayers: cfg.MaxPlayers,
			Password: cfg.Password != "", Accepting: g.Accepting()},
		Mission: MissionState{Script: m.Script, Map: m.System, MapName: m.MapName, TimeLimit: m.TimeLimit, FragLimit: m.FragLimit,
			GameOver: g.GameOver(), GameTime: math.Round(float64(g.GameTime())*10) / 10},
		Players: a.players(g),
	}
	if a.opts.Missions != nil {
		st.Mission.Mode = a.opts.Missions.Mode()
		st.Mission.MissionInfo = a.opts.Missions.Info()
	}
	if withShips {
		st.Ships = ships(g)
	}
	return st
}
