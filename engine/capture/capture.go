package capture

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Sink receives a match as records, on the game goroutine. It must not
// block: the file writer hands blocks to its own goroutine, the spectator
// view buffers them.
type Sink interface {
	// BeginMatch starts a match.
	BeginMatch(h *Header)
	// Record is one record of the running match; r is reused after the
	// call.
	Record(r *Record)
	// EndMatch ends the match; nothing follows until the next BeginMatch.
	EndMatch(f *Footer)
}

// Ticker is a Sink that also wants the game time of every tick, between
// matches too (the spectator view releases what is older than its delay).
type Ticker interface {
	Tick(now time.Time)
}

// Defaults of CaptureOptions.
const (
	DefaultKeyframe    = 10 * time.Second
	DefaultMotionEvery = 200 * time.Millisecond
	DefaultStatusEvery = time.Second
)

// CaptureOptions configures a Capture.
type CaptureOptions struct {
	// Game labels the game in a process of several (its port).
	Game string
	// Mode returns the running game mode (the mission folder).
	Mode func() string
	// Writer is the server version written in the header.
	Writer string
	// Keyframe is the time between keyframes (DefaultKeyframe): a viewer
	// seeks by decoding at most this much.
	Keyframe time.Duration
	// MotionEvery is how often ship motion is sampled (DefaultMotionEvery);
	// StatusEvery how often hull, shields and subsystems are.
	MotionEvery, StatusEvery time.Duration
	Logger                   *slog.Logger
}

// Capture is the engine plugin that turns a game into records for its
// sinks (the file writer, the spectator view, career statistics). A match
// runs from the mission start or a restart to END_GAME, Cut or shutdown,
// as the store's match history does, so the two line up by start time.
type Capture struct {
	opts  CaptureOptions
	log   *slog.Logger
	g     engine.API
	sinks []Sink
	offs  []func()

	open       bool
	waiting    bool            // for the mission to load before the first match begins
	ending     string          // the END_GAME reason of a match ending at the next tick
	outcome    *engine.Outcome // and who won it
	started    time.Time
	r          Record
	players    map[byte]*seenPlayer
	ships      map[int32]*seenShip
	lastKey    time.Time
	lastMotion time.Time
	lastStatus time.Time
	lastPoll   time.Time

	chatAllow   map[byte]*chatAllowance // per player id, this match
	chatDropped uint64                  // this match
	// ChatDropped counts the chat lines not recorded (any goroutine).
	ChatDropped atomic.Uint64
}

// pollEvery is how often the players' lines are compared with what was
// written (besides after every death, at keyframes and at the end): the
// mission changes them through bc.set_score, which raises no event.
const pollEvery = 500 * time.Millisecond

type seenPlayer struct {
	team, kills, deaths, score int32
	name                       string
}

type seenShip struct {
	o      *engine.Object
	motion [10]int64
	status [7]uint64
	subs   []uint64
	weapon WeaponKind // the kind it last fired, for the hits that follow
}

// NewCapture returns a Capture feeding sinks.
func NewCapture(opts CaptureOptions, sinks ...Sink) *Capture {
	if opts.Keyframe <= 0 {
		opts.Keyframe = DefaultKeyframe
	}
	if opts.MotionEvery <= 0 {
		opts.MotionEvery = DefaultMotionEvery
	}
	if opts.StatusEvery <= 0 {
		opts.StatusEvery = DefaultStatusEvery
	}
	if opts.Mode == nil {
		opts.Mode = func() string { return "" }
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Capture{opts: opts, log: log.With("component", "plugin/record"), sinks: sinks,
		players: make(map[byte]*seenPlayer), ships: make(map[int32]*seenShip), chatAllow: make(map[byte]*chatAllowance)}
}

// AddSink adds a sink; call it before the game runs.
func (c *Capture) AddSink(s Sink) { c.sinks = append(c.sinks, s) }

// Name implements engine.Plugin.
func (c *Capture) Name() string { return "record" }

// Start implements engine.Plugin.
func (c *Capture) Start(g engine.API) error {
	c.g = g
	// Every handler first begins the first match once the mission has
	// loaded (see below): a player may join, or the game end, before the
	// next tick.
	on := func(name string, fn engine.Handler) func() {
		return g.On(name, func(ev engine.Event) {
			c.loaded()
			fn(ev)
		})
	}
	c.offs = append(c.offs,
		on(engine.EvPlayerInGame, func(ev engine.Event) { c.player(ev.(*engine.PlayerInGame).Player, true) }),
		on(engine.EvPlayerLeft, c.playerLeft),
		on(engine.EvShipCreated, func(ev engine.Event) { c.shipCreated(ev.(*engine.ShipCreated).Ship) }),
		on(engine.EvObjectDestroyed, c.objectGone),
		on(engine.EvWeaponFired, c.weaponFired),
		on(engine.EvWeaponHit, c.weaponHit),
		on(engine.EvShipDamaged, c.shipDamaged),
		on(engine.EvShipDestroyed, c.shipDestroyed),
		on(engine.EvChatDelivered, c.chat),
		on(engine.EvBroadcast, c.broadcast),
		on(engine.EvTick, func(engine.Event) { c.tick() }),
		on(engine.EvGameEnded, func(ev engine.Event) {
			if c.open && c.ending == "" {
				e := ev.(*engine.GameEnded)
				c.pollPlayers()
				c.gameEnd(e)
				// The match ends at the next tick, not now: END_GAME is
				// usually raised from inside the handler of the death that
				// ended it, and the handlers after the mission's (ours)
				// still have that death to record.
				c.ending, c.outcome = e.ReasonName(), e.Outcome
			}
		}),
		on(engine.EvGameRestarted, func(engine.Event) {
			if c.open {
				if c.ending == "" {
					c.emit0(KindGameRestart)
					c.ending = "restarted"
				}
				c.Cut(c.ending)
			}
			c.waiting = false
			c.begin()
		}),
	)
	if g.Loading() {
		// The mission has not announced itself yet (the server opens it
		// once the game runs): the first match begins when it has, so its
		// header names the mission's script and map, not the engine's
		// defaults. Nobody can join meanwhile.
		c.waiting = true
	} else {
		c.begin()
	}
	return nil
}

// loaded begins the first match once the mission has loaded.
func (c *Capture) loaded() {
	if c.waiting && !c.g.Loading() {
		c.waiting = false
		c.begin()
	}
}

// Stop implements engine.Plugin: the running match ends with the
// shutdown.
func (c *Capture) Stop(engine.API) {
	c.Cut("shutdown")
	for _, off := range c.offs {
		off()
	}
	c.offs = nil
}

// Cut ends the running match now (an admin's restart or mode switch
// calls it before acting); the next begins at the restart.
func (c *Capture) Cut(reason string) {
	c.loaded()
	if c.open {
		if c.ending != "" {
			reason = c.ending
		}
		c.pollPlayers()
		c.end(reason)
	}
}

func (c *Capture) now() uint32 {
	d := c.g.Now().Sub(c.started)
	if d < 0 {
		return 0
	}
	return uint32(d / time.Millisecond)
}

func (c *Capture) begin() {
	g := c.g
	m := g.Mission()
	c.started = g.Now()
	h := &Header{Format: FormatName, Version: FormatVersion, Text: TextUTF8, Server: g.Config().ServerName, Game: c.opts.Game, Mode: c.opts.Mode(),
		Script: m.Script, Map: m.System, MapName: m.MapName, TimeLimit: m.TimeLimit, FragLimit: m.FragLimit,
		Started: c.started.UTC(), KeyframeMS: int(c.opts.Keyframe / time.Millisecond), Writer: c.opts.Writer}
	c.open = true
	clear(c.players)
	clear(c.ships)
	clear(c.chatAllow)
	c.chatDropped = 0
	for _, s := range c.sinks {
		s.BeginMatch(h)
	}
	for _, o := range g.Objects() {
		if o.IsShip() {
			c.ships[o.ID] = &seenShip{o: o}
		}
	}
	c.keyframe()
}

func (c *Capture) end(reason string) {
	f := &Footer{Ended: c.g.Now().UTC(), DurationMS: c.now(), Reason: reason, ChatDropped: c.chatDropped}
	if !c.outcome.Empty() {
		f.Outcome = c.outcome
	}
	c.open, c.ending, c.outcome = false, "", nil
	for _, s := range c.sinks {
		s.EndMatch(f)
	}
}

// gameEnd writes END_GAME's record: the stock reason and the mission's
// outcome.
func (c *Capture) gameEnd(e *engine.GameEnded) {
	r := c.rec(KindGameEnd)
	r.Reason, r.Team = e.Reason, -1
	if o := e.Outcome; o != nil {
		if o.Team != nil {
			r.Team = int32(*o.Team)
		}
		r.Player, r.Name, r.Text = o.Player, o.PlayerName, o.Why
		for _, ts := range o.Teams {
			r.TeamScores = append(r.TeamScores, TeamScore{Team: int32(ts.Team), Kills: int32(ts.Kills), Score: int32(ts.Score)})
		}
	}
	c.emit()
}

// rec resets the scratch record for kind at the current time.
func (c *Capture) rec(k Kind) *Record {
	c.r.Reset()
	c.r.T, c.r.Kind = c.now(), k
	return &c.r
}

func (c *Capture) emit() {
	for _, s := range c.sinks {
		s.Record(&c.r)
	}
}

func (c *Capture) emit0(k Kind) {
	c.rec(k)
	c.emit()
}

// keyframe restates everything a viewer needs to start here.
func (c *Capture) keyframe() {
	c.lastKey, c.lastMotion, c.lastStatus = c.g.Now(), c.g.Now(), c.g.Now()
	r := c.rec(KindKeyframe)
	if c.g.GameOver() {
		r.Flags = 1
	}
	c.emit()
	for _, p := range c.g.Players() {
		if p.InGame() {
			c.player(p, true)
		}
	}
	for id, s := range c.ships {
		if s.o.Alive() || c.g.Object(id) == s.o {
			c.object(s)
			c.motion(s, true)
			c.status(s, true)
		}
	}
}

func (c *Capture) tick() {
	for _, s := range c.sinks {
		if tk, ok := s.(Ticker); ok {
			tk.Tick(c.g.Now())
		}
	}
	if !c.open {
		return
	}
	if c.ending != "" {
		c.Cut(c.ending)
		return
	}
	now := c.g.Now()
	if now.Sub(c.lastPoll) >= pollEvery {
		c.lastPoll = now
		c.pollPlayers()
	}
	if now.Sub(c.lastKey) >= c.opts.Keyframe {
		c.keyframe()
	} else {
		if now.Sub(c.lastMotion) >= c.opts.MotionEvery {
			c.lastMotion = now
			for _, s := range c.ships {
				c.motion(s, false)
			}
		}
		if now.Sub(c.lastStatus) >= c.opts.StatusEvery {
			c.lastStatus = now
			for _, s := range c.ships {
				c.status(s, false)
			}
		}
	}
}

// player writes p's line when it is new or changed (always with force).
func (c *Capture) player(p *engine.Player, force bool) {
	if !c.open || p.Name == "" {
		return
	}
	sp := c.players[p.ID]
	if sp == nil {
		sp = &seenPlayer{}
		c.players[p.ID] = sp
		force = true
	}
	n := seenPlayer{team: int32(p.Team), kills: int32(p.Kills), deaths: int32(p.Deaths), score: int32(p.Score), name: p.Name}
	if !force && n == *sp {
		return
	}
	*sp = n
	r := c.rec(KindPlayer)
	r.Player, r.Slot, r.InGame, r.Name = p.ID, byte(p.Slot), true, p.Name
	r.Team, r.Kills, r.Deaths, r.Score = n.team, n.kills, n.deaths, n.score
	c.emit()
}

// pollPlayers writes the lines the mission changed (bc.set_score, teams).
func (c *Capture) pollPlayers() {
	for _, p := range c.g.Players() {
		if p.InGame() {
			c.player(p, false)
		}
	}
}

func (c *Capture) playerLeft(ev engine.Event) {
	e := ev.(*engine.PlayerLeft)
	if !c.open || !e.WasInGame {
		return
	}
	c.player(e.Player, false)
	delete(c.players, e.Player.ID)
	r := c.rec(KindPlayerLeft)
	r.Player, r.Text = e.Player.ID, string(e.Reason)
	c.emit()
}
