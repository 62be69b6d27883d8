package modimport

import (
	"maps"
	"slices"

	"github.com/bcserver/bcserver/engine/ships"
)

// What the server's class loader (engine/ships) refuses, checked on the
// hardpoint itself so the report can name the line that causes it and
// say what to do, rather than quote the loader about pack files the mod
// author never wrote.

// setterLine is where a property's setter was called, else where the
// property was created.
func (p *prop) setterLine(setter string) int {
	if c, ok := p.calls[setter]; ok {
		return c.line
	}
	return p.line
}

// check runs after create.
func (b *builder) check() {
	h := b.h
	hulls, top := 0, 0
	var reactor *sub
	for _, s := range b.subs {
		p := s.p
		if p.name == "" {
			b.fail(p.file, p.line, "give the property a name", "a %s without a name", p.class)
		}
		if !(p.f32("SetMaxCondition") > 0) {
			b.fail(p.file, p.setterLine("SetMaxCondition"), "give it a positive SetMaxCondition",
				"%q has no positive SetMaxCondition: the server models only subsystems that can be damaged", p.name)
		}
		if v := p.f32("SetNormalPowerPerSecond"); v < 0 {
			b.fail(p.file, p.setterLine("SetNormalPowerPerSecond"), "make it 0 or more", "%q draws negative power (%v)", p.name, v)
		}
		if s.kind == ships.TypeHull {
			hulls++
		}
		if s.parent == nil {
			top++
			if s.kind == ships.TypePower {
				if reactor != nil {
					b.fail(p.file, p.line, "keep one PowerProperty; until then the class is relayed",
						"a second reactor %q (the first is %q): the server models one reactor per ship", p.name, reactor.p.name)
				}
				reactor = s
			}
		}
	}
	if hulls == 0 {
		b.fail(h.file, h.loadLine, "add the ship's HullProperty in LoadPropertySet; until then the class is relayed",
			"no hull (HullProperty) is added: the server cannot destroy such a ship")
	}
	if top > 255 {
		// The start index of the 0x20 list is one byte (simulation.md 4.3).
		b.fail(h.file, h.loadLine, "put fewer top-level subsystems on the ship", "%d top-level subsystems, more than the 255 the game's updates can name", top)
	}
	if b.ship == nil {
		b.fail(h.file, h.loadLine, "add the ship's ShipProperty (with SetMass) in LoadPropertySet",
			"no ShipProperty is added: the ship has no mass for the server's collision damage")
	} else if m := b.ship.f32("SetMass"); !(m > 0) {
		b.fail(b.ship.file, b.ship.setterLine("SetMass"), "give the ShipProperty a positive SetMass", "the ship's mass is %v", m)
	}
	if s := b.pointer(ships.TypePower); s != nil {
		for _, setter := range []string{"SetPowerOutput", "SetMainBatteryLimit", "SetBackupBatteryLimit", "SetMainConduitCapacity", "SetBackupConduitCapacity"} {
			if v := s.p.f32(setter); v < 0 {
				b.fail(s.p.file, s.p.setterLine(setter), "make it 0 or more", "%s.%s is negative (%v)", s.p.name, setter, v)
			}
		}
	}
	if s := b.pointer(ships.TypeTorpedoSystem); s != nil {
		// The ammo index is one byte of the tail and of TorpedoTypeChange;
		// the count also sizes what the import builds.
		if n := s.p.integer("SetNumAmmoTypes"); n < 0 || n > 255 {
			b.fail(s.p.file, s.p.setterLine("SetNumAmmoTypes"), "give it 0 to 255 ammo types", "%s.SetNumAmmoTypes(%d)", s.p.name, n)
		}
		m := s.p.indexed["SetMaxTorpedoes"]
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if c := m[key]; len(c.args) > 1 && c.args[1].num < 0 {
				b.fail(s.p.file, c.line, "make it 0 or more", "%s.SetMaxTorpedoes(%s, %s) is negative", s.p.name, key, c.args[1].str)
			}
		}
	}
}
