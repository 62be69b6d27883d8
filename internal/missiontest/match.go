// Package missiontest runs a mission's Lua tests against the real server:
// a game assembled by the server package as a host's is (its mission slot
// and plugins), with its transport, simulation and the mission loaded,
// played by in-process clients that speak the real wire protocol over an
// in-memory "network" on a fake clock. Nothing sleeps and nothing depends
// on the machine's speed: a test advances game time itself, and budgets
// run on virtual time. `bcserver test-missions DIR` is the command; the
// Lua API is documented in docs/testing-missions.md.
package missiontest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/lua"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/server"
)

// Epoch is the fake clock's start.
var Epoch = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// Options configures a Match.
type Options struct {
	Mode   string
	FS     fs.FS // the missions root
	LibFS  fs.FS // the built-in lib/, for modules FS lacks
	Config map[string]any
	Addons []string
	// StepTime is the virtual time of a Lua step (default 100 ns: budgets
	// trip after the same work on any machine).
	StepTime time.Duration
	// MaxPlayers is the server's player limit (default the stock 8).
	MaxPlayers int
	// Record records the game's matches as a server with [store] path
	// does, into a temporary folder: the recordings (Recording reads the
	// last one back), the match history (Matches) and the careers
	// (bc.stats).
	Record bool
	// Careers, by identity (store.Identity), are what bc.stats starts
	// from (test.careers); the recorded matches add to them.
	Careers map[string]store.Career
	// Storage, when set, is bc.storage as a previous run of the server left
	// it (plain data); the mission opens with it as after a restart.
	Storage any
	// Configure, when set, adjusts the server's configuration after the
	// options above set it (Go tests: accounts, webhooks, votes).
	Configure func(*server.Config)
	// Server, when set, adjusts the server's options (Go tests).
	Server func(*server.Options)
	// Debug logs at debug level (packet-level lines included).
	Debug bool
}

// Match is one game under test. Use it from one goroutine.
type Match struct {
	Game    *engine.Game
	Runtime *lua.Runtime
	Now     time.Time

	opts     Options
	srv      *server.Server
	errs     []lua.MissionError // what the mission's runtime reported
	wire     *wire
	bots     []*Bot
	logs     *logBuf
	hits     []Hit
	ships    *ships.Registry
	manifest *checksum.Manifest
	nextPort uint16
	rec      *recorder // with Options.Record
}

// wire records what the game sends, decrypted, per address.
type wire struct{ out []datagram }

type datagram struct {
	to   netip.AddrPort
	data []byte
}

func (w *wire) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	d := bytes.Clone(b)
	if len(d) > 0 && d[0] != '\\' {
		alby.Decrypt(d)
	}
	w.out = append(w.out, datagram{addr, d})
	return len(b), nil
}

// logBuf keeps the server's log for the test.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// NewMatch starts a game running the mission.
func NewMatch(o Options) (*Match, error) {
	reg, err := ships.Vanilla()
	if err != nil {
		return nil, err
	}
	man, err := checksum.Vanilla()
	if err != nil {
		return nil, err
	}
	w := &Match{Now: Epoch, opts: o, wire: &wire{}, logs: &logBuf{}, ships: reg, manifest: man, nextPort: 40000}
	if err := w.start(o); err != nil {
		return nil, err
	}
	return w, nil
}

// start assembles the game as the server does (server.New: its
// configuration checked, the mission slot, the plugins in their order),
// driven by hand on the match's clock, and loads the mission.
func (w *Match) start(o Options) error {
	level := slog.LevelInfo
	if o.Debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(w.logs, &slog.HandlerOptions{Level: level}))
	cfg := server.DefaultConfig()
	cfg.UseMissions(o.FS, o.LibFS, "the test's missions")
	cfg.Game.Mode, cfg.Game.Addons = o.Mode, o.Addons
	cfg.Mission = server.MissionSection(o.Config)
	cfg.Bans.File = "" // nothing on disk
	// Scripted players move by hand (a move is a jump) and fire on
	// command: the fair-play rules would drop both (README, "Fair play").
	cfg.FairPlay.Enabled = false
	if o.MaxPlayers > 0 {
		cfg.Server.MaxPlayers = o.MaxPlayers
	}
	if o.StepTime <= 0 {
		o.StepTime = 100 * time.Nanosecond
	}
	if o.Configure != nil {
		o.Configure(&cfg)
	}
	if _, err := cfg.Runtime(); err != nil {
		return err
	}
	so := server.Options{
		Logger: log, Version: "test", Manual: &server.Manual{Out: w.wire, Now: w.Now},
		Lua: func(lo *lua.Options) {
			// A fixed seed: bc.random gives every run of a test the same
			// game.
			lo.Seed, lo.Restore, lo.StepTime = 1, o.Storage, o.StepTime
			lo.OnError = func(e lua.MissionError) { w.errs = append(w.errs, e) }
			lo.Stats = w.careerLookup
		},
	}
	if o.Server != nil {
		o.Server(&so)
	}
	srv, err := server.New(context.Background(), cfg, so)
	if err != nil {
		return err
	}
	game := srv.Games()[0]
	g, h := game.Engine(), game.Mission()
	if f := game.Failure(); f != "" {
		// A test's author wants the mission's own words.
		g.Shutdown(w.Now)
		srv.Close()
		return errors.New(f)
	}
	w.srv = srv
	w.Game, w.Runtime = g, h
	g.On(engine.EvWeaponHit, func(e engine.Event) {
		if h := e.(*engine.WeaponHit); len(w.hits) < maxHits {
			w.hits = append(w.hits, Hit{At: w.Now.Sub(Epoch), Shooter: h.Shooter, ShooterID: h.ShooterID, Target: h.Target,
				Weapon: h.Weapon, WeaponName: h.WeaponName, Kind: string(h.Kind), Damage: h.Damage, Absorbed: h.Absorbed, HullHit: h.HullHit})
		}
	})
	if o.Record {
		if err := w.startRecording(o.Mode); err != nil {
			return err
		}
	}
	return nil
}

// Restart stops the server and starts it again as a host with a storage
// folder would: mission_unload runs, bc.storage goes through the storage
// file's format and comes back, bc.memory does not; every player is gone
// (join new bots), and the mission starts with mission_start.
func (w *Match) Restart() error {
	w.Close()
	data, err := lua.Restarted(w.Runtime.Storage())
	if err != nil {
		return fmt.Errorf("writing bc.storage out: %w", err)
	}
	for _, b := range w.bots {
		b.gone = true
	}
	w.bots = nil
	w.wire.out = nil
	o := w.opts
	o.Storage = data
	return w.start(o)
}

// Hit is one weapon hit the host applied (weapon_hit), as a test sees it.
type Hit struct {
	At               time.Duration // game time since the test began
	Shooter, Target  *engine.Object
	ShooterID        int
	Weapon           int32
	WeaponName, Kind string
	Damage, Absorbed float64
	HullHit          bool
}

// maxHits bounds the hits a test world keeps.
const maxHits = 100000

// Hits returns the weapon hits the host applied so far, in order.
func (w *Match) Hits() []Hit { return w.hits }

// Close stops the mission and the game.
func (w *Match) Close() {
	w.Game.Shutdown(w.Now)
	w.srv.Close()
	w.stopRecording()
}

// Settle waits for the database writes the game started off its loop
// (bans, warnings, the audit log).
func (w *Match) Settle() { w.srv.Settle() }

// Mode is the game mode running now (a vote or the rotation may have
// switched it; Runtime is the first mode's).
func (w *Match) Mode() string { return w.srv.Games()[0].Mode() }

// Logs is everything the server logged.
func (w *Match) Logs() string { return w.logs.String() }

// MissionErrors lists the mission's errors so far, as the runtime
// reported them (lua.Options.OnError): failed and aborted callbacks, failed
// reloads, a suspension, data a reload could not carry over.
func (w *Match) MissionErrors() []string {
	out := make([]string, 0, len(w.errs))
	for _, e := range w.errs {
		s := e.Error()
		if e.Traceback != "" {
			s += "\n" + e.Traceback
		}
		out = append(out, s)
	}
	return out
}

// maxPump bounds one exchange of datagrams: far more than any real burst.
const maxPump = 1000

// pump moves datagrams between the bots and the game until nothing moves.
func (w *Match) pump() {
	for i := 0; i < maxPump; i++ {
		moved := false
		for _, b := range w.bots {
			for d := b.c.Flush(w.Now, nil); d != nil; d = b.c.Flush(w.Now, nil) {
				e := bytes.Clone(d)
				alby.Encrypt(e)
				w.Game.HandleDatagram(w.Now, b.addr, e)
				moved = true
			}
		}
		w.Game.RunPosted()
		w.Game.Flush(w.Now)
		out := w.wire.out
		w.wire.out = nil
		for _, d := range out {
			for _, b := range w.bots {
				if d.to == b.addr && !b.gone {
					_ = b.c.Receive(w.Now, d.data)
					moved = true
				}
			}
		}
		if !moved {
			return
		}
	}
}

// Advance runs the game for d in ticks of at most 100 ms.
func (w *Match) Advance(d time.Duration) {
	end := w.Now.Add(d)
	for w.Now.Before(end) {
		w.Now = w.Now.Add(min(100*time.Millisecond, end.Sub(w.Now)))
		for _, b := range w.bots {
			if !b.gone {
				_ = b.c.Tick(w.Now)
			}
		}
		w.Game.Advance(w.Now)
		w.pump()
	}
}

// Join connects a bot and plays the stock join until it is in the game.
func (w *Match) Join(name string) (*Bot, error) {
	return w.JoinFrom(name, netip.MustParseAddr("127.0.0.1"))
}

// JoinFrom is Join from another (IPv4) address.
func (w *Match) JoinFrom(name string, ip netip.Addr) (*Bot, error) {
	w.nextPort++
	b := &Bot{w: w, name: name, addr: netip.AddrPortFrom(ip, w.nextPort)}
	b.c = bcnet.NewClient(bcnet.Config{}, (*botEvents)(b), bcnet.ClientOptions{IP: ip.As4(), Name: name}, w.Now)
	if err := b.c.Connect(); err != nil {
		return nil, err
	}
	w.bots = append(w.bots, b)
	for i := 0; i < 50 && !b.inGame(); i++ {
		w.pump()
		if !b.inGame() {
			w.Advance(100 * time.Millisecond)
		}
	}
	if !b.inGame() {
		return nil, fmt.Errorf("bot %q did not get into the game (booted %v)", name, b.booted)
	}
	return b, nil
}
