package engine_test

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/bot"
)

// Where hits land, seen by a stock-style client over real loopback UDP
// (simulation.md 5.2-5.3, Corrections 40-43): our bot fires at a bare
// Galaxy (shields and repair destroyed on the host) as a stock client
// does, and the Galaxy's own client reads, in the host's StateUpdate 0x20
// health block, the subsystems the measurements name fall — photons from
// ahead take the sensor array and the forward tubes; phasers from
// starboard take Star Warp; and one ram report takes the §5.2 amount off
// the hull.
func TestUDPWhereHitsLand(t *testing.T) {
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	galaxy, _ := reg.Class(3)
	core := galaxy.Subsystems[galaxy.Reactor].Data.Position
	for _, tt := range []struct {
		name     string
		species  uint8 // the shooter
		pos, fwd [3]float32
		send     func(a, b *bot.Bot, shipA, shipB int32) [][]byte
		byTarget bool     // the Galaxy's own client sends (a collision report), not the shooter
		falls    []string // subsystems whose condition byte must drop below 255
		hull     float32  // the hull's exact loss, 0 when it depends on beam time
	}{
		{"photons from ahead", 1, [3]float32{0, 57, 0}, [3]float32{0, -1, 0}, func(a, _ *bot.Bot, shipA, shipB int32) [][]byte {
			tubes, _ := bot.Weapons(reg, 1, ships.WeaponTorpedo)
			var out [][]byte
			// Two forward tubes, two photons each; the host spaces a
			// tube's shots 0.656 × 0.8 s apart, so each tube fires once.
			for _, k := range tubes[:2] {
				out = append(out, codec.TorpedoFire{TubeID: shipA + int32(k), FiringPlayer: a.ID(), Flags: codec.TorpedoArg,
					Dir: codec.NewDir3(0, -1, 0), Target: shipB, Point: codec.NewScaledPoint(core, 4.366)}.AppendTo(nil))
			}
			return out
		}, false, []string{"Sensor Array", "Forward Torpedo 1", "Forward Torpedo 2", "Forward Torpedo 3", "Forward Torpedo 4"}, 1000},
		{"phasers from starboard", 5, [3]float32{57, 0, 0}, [3]float32{-1, 0, 0}, func(_, _ *bot.Bot, shipA, shipB int32) [][]byte {
			off, _ := bot.WeaponSystem(reg, 5, ships.WeaponPhaser)
			m := bot.StartFiring(shipA+int32(off), shipB)
			return [][]byte{m, m}
		}, false, []string{"Star Warp"}, 0},
		{"a ram", 3, [3]float32{0, 9, 0}, [3]float32{0, -1, 0}, func(_, _ *bot.Bot, shipA, shipB int32) [][]byte {
			// Galaxy into Galaxy at 6.21 GU/s: J = 2 μ v = 745.2 [measured §7.4].
			ce := codec.CollisionEffect{Code: codec.EventObjectCollision, Src: shipA, Target: shipB, Force: 745.2,
				Contacts: codec.AppendContact(nil, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 217})}
			return [][]byte{ce.AppendTo(nil)}
		}, true, nil, 900*745.2/120 + 500},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, nil)
			a := joinBot(t, srv, "Shooter")
			b := joinBot(t, srv, "Galaxy")
			shipA, shipB := codec.FirstObjectID(int(a.Settings().Slot)), codec.FirstObjectID(int(b.Settings().Slot))
			flyFacing(t, a, tt.species, shipA, tt.pos, tt.fwd)
			fly(t, b, 3, shipB, [3]float32{})
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
					o.Model.SetCondition(galaxy.ShieldGenerator, 0)
					o.Model.SetCondition(galaxy.Repair, 0)
				})
			}
			if !ready {
				t.Fatal("the ships never reached the host")
			}
			sender := a
			if tt.byTarget {
				sender = b
			}
			for _, m := range tt.send(a, b, shipA, shipB) {
				if err := sender.Send(m, true); err != nil {
					t.Fatal(err)
				}
			}
			watch := map[int]string{} // Subsystems index -> name
			for _, name := range tt.falls {
				i, ok := galaxy.SubsystemIndex(name)
				if !ok {
					t.Fatalf("no %s", name)
				}
				watch[i] = name
			}
			fell := map[string]bool{}
			wantHull := -1
			if tt.hull > 0 {
				max := galaxy.Subsystems[galaxy.Hull].MaxCondition
				wantHull = int((max - tt.hull) / max * 255)
			}
			hullSeen := wantHull < 0
			waitFor(t, b, "the subsystems falling in the host's health block", func(p []byte) bool {
				if p[0] != codec.OpStateUpdate {
					return false
				}
				_, err := codec.DecodeStateUpdate(p, func(r *codec.Reader) error {
					_, err := ships.ReadSubsystems(r, galaxy, func(e ships.EntryState) {
						en := &galaxy.Entries[e.Index]
						for k, c := range e.Cond {
							i := en.Subsystem + k
							if name, ok := watch[i]; ok && c < 255 {
								fell[name] = true
							}
							if i == galaxy.Hull && int(c) == wantHull {
								hullSeen = true
							}
						}
					})
					return err
				})
				return err == nil && len(fell) == len(watch) && hullSeen
			})
		})
	}
}

// flyFacing spawns a bot's ship of the given species with id at pos, nose
// along fwd.
func flyFacing(t *testing.T, b *bot.Bot, species uint8, id int32, pos, fwd [3]float32) {
	t.Helper()
	raw, err := bot.Spawn(int(b.Settings().Slot), b.ID(), b.Name(), species, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Send(raw, true); err != nil {
		t.Fatal(err)
	}
	if err := b.Send(bot.Move(id, pos, fwd), false); err != nil {
		t.Fatal(err)
	}
}
