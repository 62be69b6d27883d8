package world

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// BenchmarkHostShips measures one game tick of the world with 32 host
// ships and 16 players: the AI ships fly at the players and fire every
// weapon that bears (movement, charge, target choice, StartFiring,
// beams, PulseFire and
// TorpedoFire to everyone, damage), then the host's StateUpdates for 48
// ships × 16 viewers are built (and dropped). Player ships that die are
// respawned between ticks, off the clock, so the load stays steady.
func BenchmarkHostShips(b *testing.B) {
	bt := newBattle(b, 16, stockOptions())
	sov := vec(b, "simulation.json", "objcreateteam_sovereign_collision_test")
	// spawn flies player i's n-th ship (ids 0x100 apart in its block).
	spawn := func(i int, n int32) {
		m, err := codec.DecodeObjCreate(retarget(sov, i, 1, 7))
		if err != nil {
			b.Fatal(err)
		}
		m.ObjectID = codec.FirstObjectID(i) + n*0x100
		bt.create(i, m.AppendTo(nil))
		bt.move(i, m.ObjectID, [3]float32{float32(i%4) * 40, float32(i/4) * 40, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	}
	for i := range bt.owners {
		spawn(i, 0)
	}
	classes := []int{10, 6, 7, 11, 8, 12, 13, 9} // Galor, BoP, Vor'cha, Keldon, Warbird, Hybrid, Kessok, Marauder
	var host []*Object
	for k := range 32 {
		o := bt.hostShip(HostShipSpec{Species: classes[k%len(classes)], Name: "AI", Set: "Multi1", Team: 1,
			Position: [3]float32{float32(k%8)*30 - 100, 200 + float32(k/8)*30, 0}})
		host = append(host, o)
	}
	bt.w.env = discardHost{bt.h}
	order := func() {
		for k, o := range host {
			t := bt.w.ShipOf(bt.owners[k%16])
			if t == nil || !o.Alive() {
				continue
			}
			_ = bt.w.MoveTo(o, [3]float32{}, t, 0, 40)
			_ = bt.w.FireAt(o, t, "")
		}
	}
	order()
	now := bt.now
	respawns := int32(0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now = now.Add(100 * time.Millisecond)
		bt.w.Tick(now)
		bt.w.SendStateUpdates(now)
		b.StopTimer()
		dead := false
		for i, ow := range bt.owners {
			if s := bt.w.ShipOf(ow); s == nil || !s.Alive() {
				respawns++
				bt.now = now
				spawn(i, respawns)
				dead = true
			}
		}
		if dead {
			order()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/tick")
}
