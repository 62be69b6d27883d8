// Package skirmish runs a match of bot pilots against a server: each bot
// joins as a stock client does, flies a ship with bot.Pilot (the physics
// and fire control of a stock client, or one cheat), hunts the others,
// fires every weapon its class has when it may, and flies a new ship after
// each death — optionally through the lossy proxy (loss, bursts, jitter).
// It is the proof run of the fair-play rules (README, "Fair play"): honest
// bots must never be flagged, cheating ones always.
package skirmish

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/lossy"
)

// Config is one match.
type Config struct {
	Server netip.AddrPort
	// Bots join the match; Cheats, when set, gives bot i's cheat (the rest
	// fly honestly).
	Bots   int
	Cheats []bot.Cheat
	// Species are the classes flown, bot i the (i mod len)th; default a
	// mix of every weapon kind.
	Species []int
	// Duration is how long the bots fly once every one has joined.
	Duration time.Duration
	// UpdateRate is the StateUpdates a bot sends a second (a stock client
	// sends about 10); default 10.
	UpdateRate float64
	// Loss, Burst and Jitter put a lossy proxy between the bots and the
	// server, impairing both directions (lossy.Config).
	Loss, Burst float64
	Jitter      time.Duration
	// Arena is the radius of the space the bots fight in; default 150.
	Arena float32
	Seed  uint64
	// JoinTimeout bounds the joins (default 30 s).
	JoinTimeout time.Duration
	Logger      *slog.Logger
}

// DefaultSpecies fly every weapon kind: Galaxy (phasers, torpedoes),
// Warbird and Bird of Prey (cannons, torpedoes), Sovereign, Akira (two
// torpedo types), Vor'cha (cannons, phasers), Marauder, Kessok Light.
var DefaultSpecies = []int{3, 8, 6, 5, 1, 7, 9, 14}

// Bot is what one bot did.
type Bot struct {
	ID      byte
	Name    string
	Cheat   bot.Cheat
	Species int
	Ship    int32 // the current ship
	// Started is when it first flew (its cheat began).
	Started                         time.Time
	Updates, Shots, Ships, Respawns int
	Err                             error
}

// Result is the match's outcome.
type Result struct {
	Bots     []Bot
	Up, Down lossy.Stats // the proxy's, when there was one
}

// Run plays the match until its Duration has passed (or ctx ends) and
// returns what every bot did. onStart, if set, is called once every bot
// has joined, before they fly.
func Run(ctx context.Context, cfg Config, onStart func(bots []Bot)) (Result, error) {
	if cfg.Bots < 1 || cfg.Bots > 16 {
		return Result{}, fmt.Errorf("%d bots: a game holds 1 to 16", cfg.Bots)
	}
	if len(cfg.Species) == 0 {
		cfg.Species = DefaultSpecies
	}
	if cfg.UpdateRate <= 0 {
		cfg.UpdateRate = 10
	}
	if cfg.Arena <= 0 {
		cfg.Arena = 150
	}
	if cfg.JoinTimeout <= 0 {
		cfg.JoinTimeout = 30 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	reg, err := ships.Vanilla()
	if err != nil {
		return Result{}, err
	}
	target := cfg.Server
	var proxy *lossy.Proxy
	imp := lossy.Config{Loss: cfg.Loss, Burst: cfg.Burst, Jitter: cfg.Jitter}
	if cfg.Loss > 0 || cfg.Jitter > 0 {
		// The bots join over a clean link and fly over the bad one: the
		// match is what is measured, and sixteen joins at 30 % loss take
		// long enough to be a test of their own (net, engine).
		if proxy, err = lossy.New(lossy.Options{Upstream: cfg.Server, Seed: cfg.Seed}); err != nil {
			return Result{}, err
		}
		defer proxy.Close()
		target = proxy.Addr()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ps := make([]*pilotBot, cfg.Bots)
	for i := range ps {
		cheat := bot.CheatNone
		if i < len(cfg.Cheats) {
			cheat = cfg.Cheats[i]
		}
		b, err := bot.New(bot.Config{Server: target, Name: fmt.Sprintf("pilot%02d", i), Logger: cfg.Logger, Inbox: 1 << 14})
		if err != nil {
			return Result{}, err
		}
		defer b.Close()
		b.Start(ctx)
		ps[i] = &pilotBot{b: b, reg: reg, cfg: &cfg, res: Bot{Cheat: cheat, Species: cfg.Species[i%len(cfg.Species)]},
			rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), others: make(map[int32]seen)}
	}
	jctx, jcancel := context.WithTimeout(ctx, cfg.JoinTimeout)
	for _, p := range ps {
		if err := p.b.WaitState(jctx, bot.InGame); err != nil {
			jcancel()
			return Result{}, fmt.Errorf("joining %s: %w", p.b.Name(), err)
		}
		p.res.ID, p.res.Name = p.b.ID(), p.b.Name()
	}
	jcancel()
	if proxy != nil {
		proxy.Set(imp, imp)
	}
	if onStart != nil {
		bots := make([]Bot, len(ps))
		for i, p := range ps {
			bots[i] = p.res
		}
		onStart(bots)
	}
	end := time.Now().Add(cfg.Duration)
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.res.Err = p.fly(ctx, end)
		}()
	}
	wg.Wait()
	var res Result
	for _, p := range ps {
		res.Bots = append(res.Bots, p.res)
	}
	if proxy != nil {
		res.Up, res.Down = proxy.Stats()
	}
	return res, ctx.Err()
}

// seen is another ship as the bot knows it.
type seen struct {
	pos   [3]float32
	alive bool
}

// pilotBot is one bot flying.
type pilotBot struct {
	b      *bot.Bot
	reg    *ships.Registry
	cfg    *Config
	res    Bot
	rng    *rand.Rand
	pilot  *bot.Pilot
	others map[int32]seen
	target int32
	orbit  [3]float32 // where around the target it flies
	due    time.Time  // the next ship, after a death
	epoch  time.Time
}

// step is the bot's frame: physics and fire control 10 times a second.
const step = 100 * time.Millisecond

func (p *pilotBot) fly(ctx context.Context, end time.Time) error {
	p.epoch = time.Now()
	if err := p.spawn(p.epoch); err != nil {
		return err
	}
	tick := time.NewTicker(step)
	defer tick.Stop()
	every := time.Duration(float64(time.Second) / p.cfg.UpdateRate)
	var lastUpdate time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.b.Done():
			return fmt.Errorf("%s: disconnected: %v (boot reason %d)", p.b.Name(), p.b.Err(), p.b.BootReason())
		case m := <-p.b.Inbox():
			p.seen(m.Payload, m.At)
		case now := <-tick.C:
			if now.After(end) {
				return nil
			}
			if p.pilot == nil {
				if !p.due.IsZero() && !now.Before(p.due) {
					if err := p.spawn(now); err != nil {
						return err
					}
				}
				continue
			}
			p.frame(now)
			if now.Sub(lastUpdate) >= every-step/2 {
				lastUpdate = now
				if err := p.b.Send(p.pilot.State(float32(now.Sub(p.epoch).Seconds())), false); err != nil {
					return err
				}
				p.res.Updates++
			}
		}
	}
}

// spawn flies a new ship: the next id of the bot's block, somewhere in
// the arena.
func (p *pilotBot) spawn(now time.Time) error {
	slot := int(p.b.Settings().Slot)
	id := codec.FirstObjectID(slot) + int32(p.res.Ships)*0x100
	a := p.cfg.Arena
	pos := [3]float32{(p.rng.Float32()*2 - 1) * a, (p.rng.Float32()*2 - 1) * a, (p.rng.Float32()*2 - 1) * a / 4}
	msg, err := bot.SpawnFrom(p.reg, slot, p.b.ID(), p.b.Name(), uint8(p.res.Species), id)
	if err != nil {
		return err
	}
	// The spawn message carries the captured position; the first update
	// places the ship, as the first update of a stock client's does.
	if err := p.b.Send(msg, true); err != nil {
		return err
	}
	pilot, err := bot.NewPilot(p.reg, p.res.Species, id, pos)
	if err != nil {
		return err
	}
	pilot.Cheat = p.res.Cheat
	p.pilot, p.res.Ship, p.due, p.target = pilot, id, time.Time{}, 0
	if p.res.Ships > 0 {
		p.res.Respawns++
	}
	p.res.Ships++
	if p.res.Started.IsZero() {
		p.res.Started = now
	}
	p.res.Updates++
	return p.b.Send(pilot.State(float32(now.Sub(p.epoch).Seconds())), false)
}

// frame runs one step: pick a target, fly toward a point near it, fire
// at it when close.
func (p *pilotBot) frame(now time.Time) {
	dt := float32(step.Seconds())
	pl := p.pilot
	pl.Recharge(dt)
	t, ok := p.others[p.target]
	if !ok || !t.alive || p.rng.IntN(300) == 0 {
		p.pick()
		t, ok = p.others[p.target]
	}
	goal := [3]float32{}
	if ok {
		goal = [3]float32{t.pos[0] + p.orbit[0], t.pos[1] + p.orbit[1], t.pos[2] + p.orbit[2]}
	}
	if norm(pl.Pos) > 2*p.cfg.Arena {
		goal = [3]float32{}
	}
	throttle := float32(1)
	if p.rng.IntN(4) == 0 {
		throttle = 1.25 // now and then, the impulse overdrive
	}
	pl.Step(dt, goal, throttle, now)
	// A cheat fires whether or not anyone is near.
	if ok && dist(pl.Pos, t.pos) < 200 || pl.Cheat != bot.CheatNone {
		at := t.pos
		if !ok {
			at = [3]float32{pl.Pos[0] + 100*pl.Fwd[0], pl.Pos[1] + 100*pl.Fwd[1], pl.Pos[2] + 100*pl.Fwd[2]}
		}
		for _, s := range pl.Fire(bot.AllWeapons, p.target, at, p.b.ID(), now) {
			if p.b.Send(s.Payload, s.Reliable) == nil {
				p.res.Shots++
			}
		}
	}
}

// pick chooses a live ship to hunt and where around it to fly.
func (p *pilotBot) pick() {
	p.target = 0
	var ids []int32
	for id, s := range p.others {
		if s.alive {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	// Map order is random: sort, then choose by the bot's seeded generator.
	slices.Sort(ids)
	p.target = ids[p.rng.IntN(len(ids))]
	r := 20 + p.rng.Float32()*40
	a := p.rng.Float64() * 2 * math.Pi
	p.orbit = [3]float32{r * float32(math.Cos(a)), r * float32(math.Sin(a)), (p.rng.Float32()*2 - 1) * 10}
}

// seen takes a message from the host: other ships appear, move and die;
// the bot's own ship's health comes in its StateUpdates, its death in the
// exploding event.
func (p *pilotBot) seen(m []byte, at time.Time) {
	if len(m) == 0 {
		return
	}
	switch m[0] {
	case codec.OpObjCreate, codec.OpObjCreateTeam:
		o, err := codec.DecodeObjCreate(m)
		if err == nil && o.ClassID == codec.ClassShip && o.ObjectID != p.res.Ship && len(p.others) < 4096 {
			p.others[o.ObjectID] = seen{pos: o.Ship.Position, alive: true}
		}
	case codec.OpDestroyObject:
		if d, err := codec.DecodeDestroyObject(m); err == nil {
			delete(p.others, d.ObjectID)
		}
	case codec.OpStateUpdate:
		if p.pilot != nil {
			p.pilot.Observe(m)
		}
		u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
		if err != nil || u.Flags&codec.StatePosition == 0 {
			return
		}
		if s, ok := p.others[u.ObjectID]; ok {
			s.pos = u.Position
			p.others[u.ObjectID] = s
		}
	case codec.OpPythonEvent:
		ev, err := codec.DecodeObjectExploding(m)
		if err != nil {
			return
		}
		if ev.Dst == p.res.Ship && p.pilot != nil {
			if stop := p.pilot.StopFiring(); stop != nil {
				_ = p.b.Send(stop, true)
			}
			p.pilot = nil
			p.due = at.Add(time.Duration(float64(ev.Lifetime) * float64(time.Second)))
			return
		}
		if s, ok := p.others[ev.Dst]; ok {
			s.alive = false
			p.others[ev.Dst] = s
		}
	}
}

func norm(v [3]float32) float32 {
	return float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
}

func dist(a, b [3]float32) float32 { return norm([3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]}) }
