package net

import "testing"

// Buffers of one size class never take the room of another: a pool full of
// a join's large buffers still keeps the small ones every tick reuses, and
// each class keeps no more than its bound.
func TestPoolClassesKeptApart(t *testing.T) {
	var p msgPool
	big := MaxDatagram - HeaderSize
	var bigs, smalls []*outMsg
	for range 2 * maxPoolBytes / big {
		bigs = append(bigs, p.get(big))
	}
	for range 256 {
		smalls = append(smalls, p.get(20))
	}
	for _, m := range bigs {
		p.put(m)
	}
	for _, m := range smalls {
		p.put(m)
	}
	if n := len(p.free[classFor(big)]); n != maxPoolBytes/sizeClasses[classFor(big)] {
		t.Fatalf("%d large buffers kept, want %d", n, maxPoolBytes/sizeClasses[classFor(big)])
	}
	if n := len(p.free[classFor(20)]); n != 256 {
		t.Fatalf("%d of 256 small buffers kept", n)
	}
	// Reuse: the next tick's 256 small messages allocate nothing.
	allocs := testing.AllocsPerRun(10, func() {
		for i := range smalls {
			smalls[i] = p.get(20)
		}
		for _, m := range smalls {
			p.put(m)
		}
	})
	if allocs != 0 {
		t.Fatalf("%.0f allocations per tick of reuse", allocs)
	}
}
