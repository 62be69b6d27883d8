package engine_test

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/bot"
)

// Each weapon kind over real loopback UDP, fired by our bot client the way
// a stock client fires it (simulation.md 5.5): phasers with StartFiring
// 0x07 (then StopFiring 0x08), a pulse bolt with PulseFire 0x1A, a torpedo
// with TorpedoFire 0x19. The target's own client then reads, in the host's
// StateUpdate 0x20 health block, its hull byte fall by exactly what the
// host's model dealt: trunc((max − damage) / max × 255) (simulation.md
// 4.2). The target's shield generator and repair system are destroyed
// first, so every point reaches the hull and none comes back.
func TestUDPWeaponKinds(t *testing.T) {
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		species uint8   // the shooter's class
		damage  float64 // what the hit deals; 0 for beams (it depends on their time)
		fire    func(a *bot.Bot, ship, target int32) [][]byte
		stop    func(a *bot.Bot, ship int32) []byte
	}{
		{"phasers", 5, 0, func(a *bot.Bot, ship, target int32) [][]byte {
			off, _ := bot.WeaponSystem(reg, 5, ships.WeaponPhaser)
			// A stock client sends StartFiring as a duplicate pair.
			m := bot.StartFiring(ship+int32(off), target)
			return [][]byte{m, m}
		}, func(a *bot.Bot, ship int32) []byte {
			off, _ := bot.WeaponSystem(reg, 5, ships.WeaponPhaser)
			return bot.StopFiring(ship + int32(off))
		}},
		{"pulse", 8, 200, func(a *bot.Bot, ship, target int32) [][]byte {
			cannons, _ := bot.Weapons(reg, 8, ships.WeaponPulse)
			// The Warbird's cannons sit 4.7 units to port and starboard:
			// each aims from where it is, as a stock cannon does.
			return [][]byte{bot.PulseFire(ship+int32(cannons[0]), target, [3]float32{4.7, 30, 0}, a.ID())}
		}, nil},
		{"torpedo", 1, 500, func(a *bot.Bot, ship, target int32) [][]byte {
			tubes, _ := bot.Weapons(reg, 1, ships.WeaponTorpedo)
			return [][]byte{bot.TorpedoFire(ship+int32(tubes[0]), target, [3]float32{0, 1, 0}, a.ID())}
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, nil)
			a := joinBot(t, srv, "Shooter")
			b := joinBot(t, srv, "Target")
			shipA, shipB := codec.FirstObjectID(int(a.Settings().Slot)), codec.FirstObjectID(int(b.Settings().Slot))
			fly(t, a, tt.species, shipA, [3]float32{0, 0, 0})
			fly(t, b, 3, shipB, [3]float32{0, 30, 0}) // a Galaxy 30 units ahead
			galaxy, _ := reg.Class(3)
			hulls := make(chan float64, 256)
			ready := false
			for i := 0; i < 2000 && !ready; i++ {
				onGame(t, srv, func(g *engine.Game) {
					o, s := g.Object(shipB), g.Object(shipA)
					if o == nil || s == nil {
						return
					}
					if _, _, moved := o.Forward(); !moved {
						return
					}
					if _, _, moved := s.Forward(); !moved {
						return
					}
					ready = true
					m := o.Model
					m.SetCondition(galaxy.ShieldGenerator, 0)
					m.SetCondition(galaxy.Repair, 0)
					g.On(engine.EvWeaponHit, func(e engine.Event) {
						if h := e.(*engine.WeaponHit); h.Target == o {
							hulls <- h.Damage
						}
					})
				})
			}
			if !ready {
				t.Fatal("the ships never reached the host")
			}
			for _, m := range tt.fire(a, shipA, shipB) {
				if err := a.Send(m, true); err != nil {
					t.Fatal(err)
				}
			}
			var dealt float64
			select {
			case d := <-hulls:
				dealt = d
			case <-time.After(10 * time.Second):
				t.Fatal("no hit")
			}
			if tt.stop != nil {
				// The beam ends when the host applies the StopFiring, landing
				// what it had gathered; the host relays the stop right after,
				// so once the target's client has it, every hit is in.
				stop := tt.stop(a, shipA)
				if err := a.Send(stop, true); err != nil {
					t.Fatal(err)
				}
				waitFor(t, b, "the relayed StopFiring", func(p []byte) bool { return string(p) == string(stop) })
			}
			var hull float32
			onGame(t, srv, func(g *engine.Game) { hull = g.Object(shipB).Model.Hull() })
			for len(hulls) > 0 {
				dealt += <-hulls
			}
			if tt.damage != 0 && dealt != tt.damage {
				t.Fatalf("dealt %v, want %v", dealt, tt.damage)
			}
			max := galaxy.Subsystems[galaxy.Hull].MaxCondition
			if got := float64(max - hull); got < dealt-0.5 || got > dealt+0.5 {
				t.Fatalf("hull lost %v, the hits dealt %v", got, dealt)
			}
			want := byte(hull / max * 255)
			if want == 255 {
				t.Fatalf("%s dealt %v: nothing to see on the wire", tt.name, dealt)
			}
			waitFor(t, b, "the hull byte of the host's health block", func(p []byte) bool {
				if p[0] != codec.OpStateUpdate {
					return false
				}
				got := -1
				_, err := codec.DecodeStateUpdate(p, func(r *codec.Reader) error {
					_, err := ships.ReadSubsystems(r, galaxy, func(e ships.EntryState) {
						if e.Index == galaxy.Subsystems[galaxy.Hull].Entry {
							got = int(e.Cond[0])
						}
					})
					return err
				})
				return err == nil && got == int(want)
			})
		})
	}
}

// fly spawns a bot's ship of the given species with id at pos, nose +Y.
func fly(t *testing.T, b *bot.Bot, species uint8, id int32, pos [3]float32) {
	t.Helper()
	raw, err := bot.Spawn(int(b.Settings().Slot), b.ID(), b.Name(), species, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Send(raw, true); err != nil {
		t.Fatal(err)
	}
	if err := b.Send(bot.Move(id, pos, [3]float32{0, 1, 0}), false); err != nil {
		t.Fatal(err)
	}
}
