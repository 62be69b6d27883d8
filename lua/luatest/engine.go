// Package luatest is a recording stand-in for the game a mission runs on:
// it implements lua.Engine with the engine's semantics (send rules,
// END_GAME/RESTART bytes, events) but no network, so mission tests can
// drive synthetic events and assert the exact bytes each player received.
package luatest

import (
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// Sent is one message the fake sent.
type Sent struct {
	To      byte // player id
	Payload []byte
}

// Engine is the fake game. Use it from one goroutine.
type Engine struct {
	Log    *slog.Logger
	Clock  time.Time
	Epoch  time.Time
	Out    []Sent
	Kicked []byte
	// Queued sets a player's transport queue length (SendQueue).
	Queued map[byte]int
	// NoPost makes Post refuse work (a full queue); set it with SetNoPost
	// once other goroutines may post.
	NoPost bool
	// Limit is the player limit the fake enforces (0: the stock 8).
	Limit   int
	postMu  sync.Mutex
	posted  []func()
	mission engine.Mission

	players  map[byte]*engine.Player
	subs     map[string][]sub
	nextSub  int
	timers   []*timer
	nextTmr  int
	teamMode bool
	accept   bool
	over     bool
	world    *world.World // host ships; built on first use

	shipRules *engine.ShipRules
}

type sub struct {
	id    int
	fn    engine.Handler
	early bool
}

type timer struct {
	id     int
	at     time.Time
	every  time.Duration
	fn     func()
	killed bool
}

// New returns a fake game whose clock starts at start.
func New(start time.Time) *Engine {
	return &Engine{
		Log: slog.New(slog.DiscardHandler), Clock: start, Epoch: start, accept: true,
		mission: engine.DefaultConfig().Mission,
		players: make(map[byte]*engine.Player),
		subs:    make(map[string][]sub),
	}
}

// On implements lua.Engine.
func (e *Engine) On(name string, fn engine.Handler) func() { return e.on(name, fn, false) }

// OnEarly implements lua.Engine: ahead of the On handlers, as in the
// engine.
func (e *Engine) OnEarly(name string, fn engine.Handler) func() { return e.on(name, fn, true) }

func (e *Engine) on(name string, fn engine.Handler, early bool) func() {
	e.nextSub++
	id := e.nextSub
	s := e.subs[name]
	at := len(s)
	for early && at > 0 && !s[at-1].early {
		at--
	}
	e.subs[name] = slices.Concat(s[:at:at], []sub{{id, fn, early}}, s[at:])
	return func() {
		s := e.subs[name]
		for i := range s {
			if s[i].id == id {
				e.subs[name] = append(s[:i:i], s[i+1:]...)
				return
			}
		}
	}
}

// Listening reports whether anyone subscribed to the event called name
// (the runtime subscribes on demand).
func (e *Engine) Listening(name string) bool { return len(e.subs[name]) > 0 }

// Emit raises an event to the subscribers.
func (e *Engine) Emit(ev engine.Event) {
	for _, s := range e.subs[ev.Name()] {
		s.fn(ev)
	}
}

// Connect adds a player in the loading state (validated, Settings sent).
func (e *Engine) Connect(id byte, name string) *engine.Player {
	slot := 0
	for {
		used := false
		for _, p := range e.players {
			if p.Slot == slot {
				used = true
			}
		}
		if !used {
			break
		}
		slot++
	}
	p := &engine.Player{Owner: world.Owner{ID: id, Slot: slot, Team: -1}, Name: name, State: engine.StateLoading}
	e.players[id] = p
	return p
}

// Join runs the engine's answer to NewPlayerInGame: player_joined while the
// player is still loading, then in-game, then player_in_game.
func (e *Engine) Join(id byte, name string) *engine.Player {
	p := e.Connect(id, name)
	e.Emit(&engine.PlayerJoined{Player: p})
	p.State = engine.StateInGame
	p.JoinedAt = e.Clock
	e.Emit(&engine.PlayerInGame{Player: p})
	return p
}

// Leave removes a player and raises player_left.
func (e *Engine) Leave(id byte) {
	p := e.players[id]
	if p == nil {
		return
	}
	delete(e.players, id)
	e.World().RemoveOwner(&p.Owner)
	p.State = 0
	e.Emit(&engine.PlayerLeft{Player: p, Reason: engine.LeaveQuit, WasInGame: true})
}

// Spawn gives a player a ship of species (object id from its slot's
// block, as the stock client allocates it) and raises ship_created. The
// ship lives in the world (World), without a model.
func (e *Engine) Spawn(p *engine.Player, species int) *engine.Object {
	id := int32(0x3FFFFFFF + p.Slot*0x40000 + int(e.nextSub))
	e.nextSub++
	o := &engine.Object{ID: id, ClassID: codec.ClassShip, OwnerSlot: p.Slot, Owner: &p.Owner, NetPlayerID: int(p.ID), Species: species, Name: p.Name}
	e.World().Adopt(o)
	return o
}

// Kill raises ship_destroyed for o.
func (e *Engine) Kill(o *engine.Object, killer int, cause engine.DeathCause) {
	e.Emit(&engine.ShipDestroyed{Victim: o, KillerID: killer, Cause: cause})
}

// Remove deletes an object and raises object_destroyed.
func (e *Engine) Remove(o *engine.Object) {
	if e.World().Object(o.ID) == o {
		e.World().Forget(o.ID)
	}
}

// Hit raises weapon_hit.
func (e *Engine) Hit(shooter int, target *engine.Object, damage float64, hull bool) {
	e.Emit(&engine.WeaponHit{ShooterID: shooter, Target: target, Damage: damage, HullHit: hull})
}

// Take returns and forgets what was sent.
func (e *Engine) Take() []Sent {
	out := e.Out
	e.Out = nil
	return out
}

// Players implements lua.Engine (slot order, as the engine).
func (e *Engine) Players() []*engine.Player {
	ps := make([]*engine.Player, 0, len(e.players))
	for _, p := range e.players {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Slot < ps[j].Slot })
	return ps
}

// Player implements lua.Engine.
func (e *Engine) Player(id byte) *engine.Player { return e.players[id] }

// Send implements lua.Engine.
func (e *Engine) Send(p *engine.Player, payload []byte) error {
	e.Out = append(e.Out, Sent{To: p.ID, Payload: append([]byte(nil), payload...)})
	return nil
}

// SendQueue implements lua.Engine: Queued[id] messages of QueueLimit.
func (e *Engine) SendQueue(p *engine.Player) (int, int) {
	return e.Queued[p.ID], QueueLimit
}

// QueueLimit is the fake transport's queue limit (the engine default).
const QueueLimit = 8192

// SendInGame implements lua.Engine: every in-game player but except, in
// slot order.
func (e *Engine) SendInGame(payload []byte, except *engine.Player) {
	for _, p := range e.Players() {
		if p != except && p.InGame() {
			_ = e.Send(p, payload)
		}
	}
}

// SetTeam implements lua.Engine.
func (e *Engine) SetTeam(p *engine.Player, team int) { p.Team = team }

// SetScore implements lua.Engine.
func (e *Engine) SetScore(p *engine.Player, kills, deaths, score int) {
	p.Kills, p.Deaths, p.Score = kills, deaths, score
}

// Kick implements lua.Engine.
func (e *Engine) Kick(p *engine.Player, _ bcnet.BootReason) {
	e.Kicked = append(e.Kicked, p.ID)
	e.Leave(p.ID)
}

// Object returns the object with id in the world: a spawned ship or a
// host ship.
func (e *Engine) Object(id int32) *engine.Object { return e.World().Object(id) }

// Objects returns the world's objects ordered by id.
func (e *Engine) Objects() []*engine.Object { return e.World().Objects() }

// ShipOf returns the player's ship, or nil.
func (e *Engine) ShipOf(p *engine.Player) *engine.Object {
	if p == nil {
		return nil
	}
	return e.World().ShipOf(&p.Owner)
}

// After implements lua.Engine.
func (e *Engine) After(d time.Duration, fn func()) func() { return e.addTimer(d, 0, fn) }

// Every implements lua.Engine.
func (e *Engine) Every(d time.Duration, fn func()) func() {
	if d <= 0 {
		d = time.Millisecond
	}
	return e.addTimer(d, d, fn)
}

func (e *Engine) addTimer(d, every time.Duration, fn func()) func() {
	e.nextTmr++
	t := &timer{id: e.nextTmr, at: e.Clock.Add(d), every: every, fn: fn}
	e.timers = append(e.timers, t)
	return func() { t.killed = true }
}

// Advance moves the clock forward by d in steps of at most 100 ms (the
// game tick), firing due timers in time order and raising tick events.
func (e *Engine) Advance(d time.Duration) {
	end := e.Clock.Add(d)
	for e.Clock.Before(end) {
		step := min(100*time.Millisecond, end.Sub(e.Clock))
		e.Clock = e.Clock.Add(step)
		e.runTimers()
		e.Emit(&engine.Tick{Now: e.Clock, Dt: step})
		if e.world != nil {
			e.world.Tick(e.Clock)
		}
	}
}

func (e *Engine) runTimers() {
	for i := 0; i < 10000; i++ {
		var next *timer
		for _, t := range e.timers {
			if !t.killed && !t.at.After(e.Clock) && (next == nil || t.at.Before(next.at) || t.at.Equal(next.at) && t.id < next.id) {
				next = t
			}
		}
		if next == nil {
			break
		}
		if next.every > 0 {
			next.at = next.at.Add(next.every)
		} else {
			next.killed = true
		}
		next.fn()
	}
	live := e.timers[:0]
	for _, t := range e.timers {
		if !t.killed {
			live = append(live, t)
		}
	}
	e.timers = live
}

// Now implements lua.Engine.
func (e *Engine) Now() time.Time { return e.Clock }

// GameTime implements lua.Engine.
func (e *Engine) GameTime() float32 { return float32(e.Clock.Sub(e.Epoch).Seconds()) }

// Mission implements lua.Engine.
func (e *Engine) Mission() engine.Mission { return e.mission }

// SetMission implements lua.Engine.
func (e *Engine) SetMission(m engine.Mission) { e.mission = m }

// MaxPlayers implements lua.Engine: Limit, or the stock 8 when unset.
func (e *Engine) MaxPlayers() int {
	if e.Limit > 0 {
		return e.Limit
	}
	return engine.StockMaxPlayers
}

// SetTeamMode implements lua.Engine.
func (e *Engine) SetTeamMode(on bool) { e.teamMode = on }

// TeamMode reports what the mission set.
func (e *Engine) TeamMode() bool { return e.teamMode }

// SetAccepting implements lua.Engine.
func (e *Engine) SetAccepting(open bool) { e.accept = open }

// Accepting implements lua.Engine.
func (e *Engine) Accepting() bool { return e.accept }

// EndGame ends the game like engine.Game.EndGame.
func (e *Engine) EndGame(reason int32) { e.EndGameWith(reason, nil) }

// EndGameWith implements lua.Engine like engine.Game.EndGameWith.
func (e *Engine) EndGameWith(reason int32, o *engine.Outcome) {
	if e.over {
		return
	}
	e.over = true
	e.SendInGame(codec.EndGame{Reason: reason}.AppendTo(nil), nil)
	e.accept = false
	e.forgetShips()
	if o != nil && o.Player != 0 && o.PlayerName == "" {
		if p := e.Player(o.Player); p != nil {
			o.PlayerName = p.Name
		}
	}
	e.Emit(&engine.GameEnded{Reason: reason, Outcome: o})
}

// RestartGame implements lua.Engine like engine.Game.RestartGame.
func (e *Engine) RestartGame() {
	e.SendInGame(codec.RestartGame{}.AppendTo(nil), nil)
	e.over = false
	e.accept = true
	e.forgetShips()
	e.Emit(&engine.GameRestarted{})
}

func (e *Engine) forgetShips() {
	e.World().ForgetShips()
	e.World().RemoveHostShips(e.Clock)
}

// GameOver implements lua.Engine.
func (e *Engine) GameOver() bool { return e.over }

// Logger implements lua.Engine.
func (e *Engine) Logger() *slog.Logger { return e.Log }

// Post implements lua.Engine (safe from any goroutine): the work waits
// until RunPosted.
func (e *Engine) Post(fn func()) bool {
	e.postMu.Lock()
	defer e.postMu.Unlock()
	if e.NoPost {
		return false
	}
	e.posted = append(e.posted, fn)
	return true
}

// SetNoPost makes Post refuse work (a full queue) or accept it again.
func (e *Engine) SetNoPost(v bool) {
	e.postMu.Lock()
	e.NoPost = v
	e.postMu.Unlock()
}

// RunPosted runs the posted work, as the game loop does between
// iterations; it returns how many functions ran.
func (e *Engine) RunPosted() int {
	n := 0
	for {
		e.postMu.Lock()
		if len(e.posted) == 0 {
			e.postMu.Unlock()
			return n
		}
		fn := e.posted[0]
		e.posted = e.posted[1:]
		e.postMu.Unlock()
		fn()
		n++
	}
}
