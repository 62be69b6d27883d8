package ships

import (
	"errors"
	"fmt"

	"github.com/bcserver/bcserver/codec"
)

// blockBudget is the 0x20 round-robin budget in bytes, start byte included
// (simulation.md 2, 4.3).
const blockBudget = 10

// ErrBadBlock is wrapped by ReadSubsystems errors about the block's content
// (as opposed to codec.ErrShort for a truncated one).
var ErrBadBlock = errors.New("malformed 0x20 subsystem block")

// Cursor is the round-robin position of one (ship, receiver) pair; the
// caller keeps one per receiver for every ship it sends (simulation.md 4.3).
// The zero Cursor starts at entry 0. It remembers which ship object it was
// used with and starts again at 0 for a different object id, so a respawned
// ship (new id, simulation.md 11) never inherits an old position.
type Cursor struct {
	ship int32
	next uint8
	used bool
}

// Next returns the entry index the next block for ship s will start at.
func (c *Cursor) Next(s *Ship) int {
	if !c.used || c.ship != s.id || int(c.next) >= len(s.class.Entries) {
		return 0
	}
	return int(c.next)
}

// Reset makes the next block start at entry 0.
func (c *Cursor) Reset() { *c = Cursor{} }

// AppendSubsystems writes the StateUpdate flag 0x20 block for ship s as
// sent to one receiver (simulation.md 4.3): the start index byte, then whole
// entries from the cursor on, wrapping at the end of the list, stopping
// after the entry that brings the block to 10 bytes or more (start byte
// included) or after a full cycle, and advances the cursor.
//
// Powered entries carry has_power = false when the receiver owns the ship,
// so its own power sliders are never overwritten, and true with the power
// byte for everyone else (4.2). The has_power bits go through w.Bit, which
// keeps a packed byte open across the plain bytes in between and across
// fields written before the block (codec.md 2.1), as the stock stream does.
// The block must be the last field of the message: the reader has no count
// and reads entries until the message ends.
//
// It allocates nothing once w's buffer has room (see Class.MaxBlockLen).
func AppendSubsystems(w *codec.Writer, s *Ship, cur *Cursor, receiverIsOwner bool) {
	n := len(s.class.Entries)
	start := cur.Next(s)
	begin := w.Len()
	w.U8(uint8(start))
	hasPower := !receiverIsOwner
	i := start
	for {
		s.appendEntry(w, i, hasPower)
		if i++; i == n {
			i = 0
		}
		// The budget is checked after each entry, so the last entry may
		// overshoot it (one Phasers entry alone is 11 bytes).
		if i == start || w.Len()-begin >= blockBudget {
			break
		}
	}
	*cur = Cursor{ship: s.id, next: uint8(i), used: true}
}

// appendEntry writes entry i in its format (simulation.md 4.2).
func (s *Ship) appendEntry(w *codec.Writer, i int, hasPower bool) {
	e := &s.class.Entries[i]
	// An entry's own subsystem and its children are consecutive, so their
	// condition bytes go out in one copy.
	w.Raw(s.condByte[e.Subsystem : e.Subsystem+1+e.Children])
	switch e.Format {
	case FormatPowered:
		w.Bit(hasPower)
		if hasPower {
			w.U8(s.powerByte[i])
		}
	case FormatPower:
		w.U8(s.mainByte)
		w.U8(s.backupByte)
	}
}

// EntryState is one entry as read from a 0x20 block.
type EntryState struct {
	// Index is the entry's index in Class.Entries.
	Index int
	// Cond holds the condition bytes of the entry's own subsystem and then
	// of each child, in order. It aliases the message buffer.
	Cond []byte
	// HasPower and Power are the packed bit and the power byte of a
	// powered entry; Power is meaningful only when HasPower is set.
	HasPower bool
	Power    byte
	// MainBattery and BackupBattery are set for the power entry.
	MainBattery, BackupBattery byte
}

// ReadSubsystems reads a 0x20 block the way a stock client does
// (simulation.md 4.3): the start index, then entries from that index on,
// wrapping at the end of the list, until the message ends. has_power is
// read from the stream, so the reader needs no owner flag. r must be the
// Reader that read the earlier fields of the same message, because a
// has_power bit may belong to a packed byte opened before the block.
//
// apply, if not nil, is called for each entry in wire order. next is the
// entry after the last one read, the start index of the sender's next
// block when its cursor is in step.
func ReadSubsystems(r *codec.Reader, c *Class, apply func(EntryState)) (next int, err error) {
	n := len(c.Entries)
	start := int(r.U8())
	if err := r.Err(); err != nil {
		return 0, fmt.Errorf("0x20 block start index: %w", err)
	}
	if start >= n {
		return 0, fmt.Errorf("0x20 block start index %d, but %s has %d entries: %w", start, c.Name, n, ErrBadBlock)
	}
	i := start
	for r.Len() > 0 {
		e := &c.Entries[i]
		st := EntryState{Index: i, Cond: r.Raw(1 + e.Children)}
		switch e.Format {
		case FormatPowered:
			if st.HasPower = r.Bit(); st.HasPower {
				st.Power = r.U8()
			}
		case FormatPower:
			st.MainBattery = r.U8()
			st.BackupBattery = r.U8()
		}
		if err := r.Err(); err != nil {
			return i, fmt.Errorf("0x20 block entry %d (%s %q): %w", i, c.Name, e.Name, err)
		}
		if apply != nil {
			apply(st)
		}
		if i++; i == n {
			i = 0
		}
	}
	return i, nil
}

// ReadSubsystemsInto reads a 0x20 block into s with Ship.ApplyEntry; it is
// what a client does with the host's block.
func ReadSubsystemsInto(r *codec.Reader, s *Ship) (next int, err error) {
	return ReadSubsystems(r, s.class, s.ApplyEntry)
}
