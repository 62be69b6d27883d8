package ships

import (
	"errors"
	"fmt"

	"github.com/bcserver/bcserver/codec"
)

// ErrTail is wrapped by every tail-grammar error.
var ErrTail = errors.New("subsystem tail does not match the class")

// CheckTail reports whether tail is a well-formed ObjCreate subsystem
// tail of class c (simulation.md 3.4): each top-level entry in order in its
// full-state form, packed bits in groups of 1..5 with no bit left over and
// in as few group bytes as the stock writer uses, and nothing after the
// last entry. It reads only; a host relaying a client's ship keeps the
// bytes as they are. A class's tail thus has a fixed length, TailLen
// (Akira 51 bytes, Sovereign 53, ...).
func CheckTail(c *Class, tail []byte) error {
	var r codec.Reader
	r.Reset(tail)
	walkTail(c, &r, nil)
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w (%w)", c.Name, ErrTail, err)
	}
	if r.Len() != 0 {
		return fmt.Errorf("%s: %d bytes after the last entry: %w", c.Name, r.Len(), ErrTail)
	}
	if n := r.BitsLeft(); n != 0 {
		return fmt.Errorf("%s: %d packed bits left over: %w", c.Name, n, ErrTail)
	}
	// A reader takes bits in groups of any size from 1 to 5, but the stock
	// writer keeps a group open until it holds five, so a client's tail
	// has exactly TailLen bytes; more means groups split up, which only a
	// made-up message does (and which would let a tail outgrow its class).
	if len(tail) != TailLen(c) {
		return fmt.Errorf("%s: %d bytes, the class's tail has %d (packed bits not grouped by five): %w", c.Name, len(tail), TailLen(c), ErrTail)
	}
	return nil
}

// TailLen returns the length of class c's tail.
func TailLen(c *Class) int {
	n, bits := 0, 0
	for i := range c.Entries {
		e := &c.Entries[i]
		n += 1 + e.Children
		switch e.Tail {
		case TailBase:
			continue
		case TailReactor:
			n += 2
			continue
		}
		n++
		switch e.Tail {
		case TailShield:
			n += 6
		case TailCloak, TailPulseSystem:
			bits++
		case TailPhaserSystem, TailTorpedoSystem, TailTractorSystem:
			bits++
			n++
		}
	}
	// Each group of up to five bits takes one byte.
	return n + (bits+4)/5
}

// TailPhaserLevel returns the level byte of the first phaser system in an
// ObjCreate subsystem tail of class c (simulation.md 3.4), and false when
// the class has none or the tail does not follow its grammar.
func TailPhaserLevel(c *Class, tail []byte) (level uint8, ok bool) {
	var r codec.Reader
	r.Reset(tail)
	walkTail(c, &r, func(e *Entry, b byte) bool {
		if e.Tail != TailPhaserSystem {
			return true
		}
		level, ok = b, true
		return false
	})
	return level, ok
}

// walkTail reads a tail of class c entry by entry in its full-state forms
// (simulation.md 3.4) until the entries end or a read fails (r.Err). For
// the entries that end in a byte of their own — a phaser system's level, a
// torpedo system's ammo type, a tractor system's mode — it calls visit with
// the byte; visit returns false to stop.
func walkTail(c *Class, r *codec.Reader, visit func(e *Entry, b byte) bool) {
	for i := range c.Entries {
		e := &c.Entries[i]
		r.Raw(1 + e.Children) // conditions: the entry's, then its children's
		switch e.Tail {
		case TailBase:
			continue
		case TailReactor:
			r.Raw(2)
			continue
		}
		r.U8() // power
		switch e.Tail {
		case TailShield:
			r.Raw(6)
		case TailCloak, TailPulseSystem:
			r.Bit()
		case TailPhaserSystem, TailTorpedoSystem, TailTractorSystem:
			r.Bit()
			if b := r.U8(); visit != nil && r.Err() == nil && !visit(e, b) {
				return
			}
		}
		if r.Err() != nil {
			return
		}
	}
}
