package skirmish

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/enginetest"
)

// violation is one the server booked, as the test saw it.
type violation struct {
	player byte
	rule   fairplay.Rule
	at     time.Time
	detail string
}

// watch collects the server's violations (filled on the game goroutine).
type watch struct {
	mu  sync.Mutex
	got []violation
}

func (w *watch) all() []violation {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]violation(nil), w.got...)
}

// serve runs a 16-player game with the default fair-play rules and
// records every violation. A harmless game deals no damage (weapons and
// collisions): its ships fly the whole run, so a cheater cannot be shot
// down before it has cheated.
func serve(t *testing.T, harmless bool) (*engine.Server, *watch) {
	t.Helper()
	cfg := engine.DefaultConfig()
	cfg.MaxPlayers = 16
	cfg.CollisionDamage = !harmless
	// The bots leave through a lossy link: the server's goodbye to them
	// need not wait for ACKs that may never come.
	cfg.Transport.ShutdownWait = 500 * time.Millisecond
	srv := enginetest.Run(t, cfg)
	w := &watch{}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Do(ctx, func(g *engine.Game) {
		if harmless {
			g.World().SetDamageHook(func(*world.DamageHit) float32 { return 0 })
		}
		g.On(engine.EvViolation, func(e engine.Event) {
			v := e.(*engine.Violation)
			w.mu.Lock()
			w.got = append(w.got, violation{player: v.Player.ID, rule: v.Rule, at: time.Now(), detail: v.Detail()})
			w.mu.Unlock()
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, w
}

// matchLength is the honest match's length: 15 s in the test suite,
// FAIRPLAY_MATCH (a duration, e.g. 10m) for the long runs (make
// fairplay).
func matchLength(t *testing.T) time.Duration {
	if s := os.Getenv("FAIRPLAY_MATCH"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("FAIRPLAY_MATCH=%q: %v", s, err)
		}
		return d
	}
	return 15 * time.Second
}

// matchSeed varies the long runs' randomness (FAIRPLAY_SEED, a number;
// default 0).
func matchSeed(t *testing.T) uint64 {
	if s := os.Getenv("FAIRPLAY_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("FAIRPLAY_SEED=%q: %v", s, err)
		}
		return n
	}
	return 0
}

// Sixteen honest bots flying and fighting through 30 % loss (in bursts)
// and 200 ms of jitter each way, sending 10 and 1 StateUpdates a second:
// not one violation.
func TestHonestMatch(t *testing.T) {
	d := matchLength(t)
	seed := matchSeed(t)
	for _, rate := range []float64{10, 1} {
		t.Run(fmt.Sprintf("%gHz", rate), func(t *testing.T) {
			srv, w := serve(t, false)
			res, err := Run(context.Background(), Config{Server: srv.Addr(), Bots: 16, Duration: d, UpdateRate: rate,
				Loss: 0.3, Burst: 3, Jitter: 200 * time.Millisecond, Seed: seed*100 + uint64(rate)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var updates, shots, ships int
			for _, b := range res.Bots {
				if b.Err != nil {
					t.Errorf("%s: %v", b.Name, b.Err)
				}
				updates += b.Updates
				shots += b.Shots
				ships += b.Ships
			}
			got := w.all()
			t.Logf("%v at %g Hz, 30%% loss in bursts of 3, 200 ms jitter: 16 bots, %d updates, %d shots, %d ships flown; proxy lost %d of %d up, %d of %d down; %d violations",
				d, rate, updates, shots, ships, res.Up.Lost, res.Up.In, res.Down.Lost, res.Down.In, len(got))
			for i, v := range got {
				if i < 20 {
					t.Errorf("honest player %d: %s: %s", v.player, v.rule, v.detail)
				}
			}
			if shots == 0 || updates < 16*int(rate*d.Seconds())/4 {
				t.Errorf("the bots hardly played: %d shots, %d updates", shots, updates)
			}
		})
	}
}

// Each cheat of bcbot -cheat, flown by ten bots at once (ten runs) over
// the same bad link beside an honest target: every cheater is caught by
// its rule within a few seconds of starting, and the honest bot never.
func TestCheatsCaught(t *testing.T) {
	for _, tt := range []struct {
		cheat   bot.Cheat
		species int
		rule    fairplay.Rule
	}{
		{bot.CheatSpeed, 1, fairplay.Speed},
		{bot.CheatTeleport, 1, fairplay.Teleport},
		{bot.CheatFireRate, 8, fairplay.Charge},
		{bot.CheatAmmo, 5, fairplay.Ammo},
		{bot.CheatArc, 6, fairplay.Arc},
	} {
		t.Run(tt.cheat.String(), func(t *testing.T) {
			// No damage: under a loaded machine a cheater could be shot
			// down in its first second, before it cheats (the arc cheat
			// holds fire that long), and fly no more in the run.
			srv, w := serve(t, true)
			const cheaters = 10
			cheats := []bot.Cheat{bot.CheatNone}
			species := []int{3}
			for range cheaters {
				cheats = append(cheats, tt.cheat)
				species = append(species, tt.species)
			}
			res, err := Run(context.Background(), Config{Server: srv.Addr(), Bots: 1 + cheaters, Cheats: cheats, Species: species,
				Duration: 9 * time.Second, Loss: 0.3, Burst: 3, Jitter: 200 * time.Millisecond, Arena: 60, Seed: uint64(tt.cheat)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := w.all()
			caught := 0
			var late []string
			for _, b := range res.Bots {
				var first *violation
				for i := range got {
					if v := &got[i]; v.player == b.ID && (first == nil || v.at.Before(first.at)) && v.rule == tt.rule {
						first = v
					}
				}
				switch {
				case b.Cheat == bot.CheatNone:
					for _, v := range got {
						if v.player == b.ID {
							t.Errorf("honest player %d: %s: %s", b.ID, v.rule, v.detail)
						}
					}
				case first == nil:
					late = append(late, fmt.Sprintf("%s: never (%d updates, %d shots, %d ships)", b.Name, b.Updates, b.Shots, b.Ships))
				case first.at.Sub(b.Started) > 8*time.Second:
					late = append(late, fmt.Sprintf("%s: after %v", b.Name, first.at.Sub(b.Started).Round(time.Millisecond)))
				default:
					caught++
					t.Logf("%s caught by %s after %v: %s", b.Name, tt.rule, first.at.Sub(b.Started).Round(time.Millisecond), first.detail)
				}
			}
			if caught != cheaters {
				t.Errorf("%s: %d/%d caught within 8 s; %s", tt.cheat, caught, cheaters, strings.Join(late, "; "))
			}
		})
	}
}
