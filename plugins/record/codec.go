package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/bcserver/bcserver/engine/capture"
)

// maxText bounds every string a record carries (names, chat lines, leave
// reasons); maxPayload a broadcast message kept whole.
const (
	maxText    = 512
	maxPayload = 1024
	maxSubs    = 1024
)

// motionBase is the last motion of an object in the block: motion is
// written as the difference from it, so a ship cruising straight costs a
// few bytes a sample.
type motionBase struct {
	v [10]int64 // pos xyz, fwd xyz, up xyz, speed
}

// Encoder appends records to a block. Motion is delta-coded against the
// previous sample of the same object since the block's keyframe.
type Encoder struct {
	last  uint32
	base  map[int32]*motionBase
	spare []*motionBase
}

// NewEncoder returns an encoder.
func NewEncoder() *Encoder { return &Encoder{base: make(map[int32]*motionBase)} }

// Begin starts a block at time t: the first record's time is relative to
// it. The block's first record must be a keyframe.
func (e *Encoder) Begin(t uint32) { e.last = t }

// forget drops the motion bases (at a keyframe: motion after it is
// written from zero, so a reader can start there).
func (e *Encoder) forget() {
	for id, b := range e.base {
		e.spare = append(e.spare, b)
		delete(e.base, id)
	}
}

// Append encodes r onto b.
func (e *Encoder) Append(b []byte, r *capture.Record) []byte {
	dt := uint64(0)
	if r.T > e.last {
		dt = uint64(r.T - e.last)
		e.last = r.T
	}
	// The payload is written in place after a one-byte length (payloads
	// are almost always shorter than 128 bytes); a longer one is moved up
	// to make room for its longer length.
	b = binary.AppendUvarint(b, dt)
	b = append(b, byte(r.Kind), 0)
	at := len(b)
	p := b
	switch r.Kind {
	case capture.KindKeyframe:
		e.forget()
		p = append(p, r.Flags)
	case capture.KindPlayer:
		fl := byte(0)
		if r.InGame {
			fl = 1
		}
		p = append(p, r.Player, r.Slot, fl)
		p = binary.AppendVarint(p, int64(r.Team))
		p = binary.AppendVarint(p, int64(r.Kills))
		p = binary.AppendVarint(p, int64(r.Deaths))
		p = binary.AppendVarint(p, int64(r.Score))
		p = appendString(p, r.Name)
	case capture.KindPlayerLeft:
		p = append(p, r.Player)
		p = appendString(p, r.Text)
	case capture.KindObject:
		p = binary.AppendVarint(p, int64(r.Object))
		p = append(p, r.Owner, r.Flags)
		p = binary.AppendVarint(p, int64(r.Species))
		p = binary.AppendVarint(p, int64(r.Team))
		p = appendString(p, r.Name)
		p = appendString(p, r.Class)
	case capture.KindObjectGone:
		p = binary.AppendVarint(p, int64(r.Object))
	case capture.KindMotion:
		p = binary.AppendVarint(p, int64(r.Object))
		p = e.appendMotion(p, r)
	case capture.KindStatus:
		p = binary.AppendVarint(p, int64(r.Object))
		p = binary.AppendUvarint(p, capture.Frac(r.Hull))
		for _, s := range r.Shields {
			p = binary.AppendUvarint(p, capture.Frac(s))
		}
	case capture.KindSubsystems:
		p = binary.AppendVarint(p, int64(r.Object))
		subs := r.Subs
		if len(subs) > maxSubs {
			subs = subs[:maxSubs]
		}
		p = binary.AppendUvarint(p, uint64(len(subs)))
		for _, s := range subs {
			p = binary.AppendUvarint(p, uint64(s.Index))
			p = binary.AppendUvarint(p, capture.Frac(s.Cond))
		}
	case capture.KindFire:
		p = binary.AppendVarint(p, int64(r.Object))
		p = binary.AppendVarint(p, int64(r.Other))
		p = binary.AppendVarint(p, int64(r.Weapon))
		p = append(p, r.Player, r.Opcode, byte(r.Weapons))
	case capture.KindHit, capture.KindDamage:
		p = binary.AppendVarint(p, int64(r.Object))
		p = binary.AppendVarint(p, int64(r.Other))
		fl := byte(0)
		if r.HullHit {
			fl = 1
		}
		p = append(p, r.Player, byte(r.Weapons), byte(r.Cause), fl)
		p = binary.AppendUvarint(p, uint64(max(0, capture.Quant(r.Damage, capture.DamageScale))))
	case capture.KindDeath:
		p = binary.AppendVarint(p, int64(r.Object))
		p = binary.AppendVarint(p, int64(r.Other))
		p = append(p, r.Player, r.Owner, byte(r.Cause), byte(r.Weapons))
	case capture.KindChat:
		fl := r.Flags & (capture.ChatTeam | capture.ChatMuted | capture.ChatCancelled)
		if r.Team != 0 {
			fl |= capture.ChatTeam
		}
		p = append(p, r.Player, fl)
		p = appendString(p, r.Text)
	case capture.KindMessage:
		pl := r.Payload
		if len(pl) > maxPayload {
			pl = pl[:maxPayload]
		}
		p = binary.AppendUvarint(p, uint64(len(pl)))
		p = append(p, pl...)
	case capture.KindGameEnd:
		p = binary.AppendVarint(p, int64(r.Reason))
		p = binary.AppendVarint(p, int64(r.Team))
		p = append(p, r.Player)
		p = appendString(p, r.Name)
		p = appendString(p, r.Text)
		n := min(len(r.TeamScores), capture.MaxTeamScores)
		p = binary.AppendUvarint(p, uint64(n))
		for _, ts := range r.TeamScores[:n] {
			p = binary.AppendVarint(p, int64(ts.Team))
			p = binary.AppendVarint(p, int64(ts.Kills))
			p = binary.AppendVarint(p, int64(ts.Score))
		}
	case capture.KindGameRestart:
	case capture.KindExplosion:
		p = binary.AppendVarint(p, int64(r.Object))
		for _, v := range r.Pos {
			p = binary.AppendVarint(p, capture.Quant(v, capture.PosScale))
		}
		p = binary.AppendUvarint(p, uint64(max(0, capture.Quant(r.Radius, capture.DamageScale))))
		p = binary.AppendUvarint(p, uint64(max(0, capture.Quant(r.Damage, capture.DamageScale))))
	default:
		return b[:at-2-uvarintLen(dt)] // not ours to write
	}
	n := len(p) - at
	if n < 0x80 {
		p[at-1] = byte(n)
		return p
	}
	var lb [binary.MaxVarintLen64]byte
	ln := binary.PutUvarint(lb[:], uint64(n))
	p = append(p, lb[1:ln]...) // grow by the extra length bytes
	copy(p[at-1+ln:], p[at:at+n])
	copy(p[at-1:], lb[:ln])
	return p
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func (e *Encoder) appendMotion(p []byte, r *capture.Record) []byte {
	var cur [10]int64
	for i := range 3 {
		cur[i] = capture.Quant(r.Pos[i], capture.PosScale)
		cur[3+i] = capture.Quant(r.Fwd[i], capture.DirScale)
		cur[6+i] = capture.Quant(r.Up[i], capture.DirScale)
	}
	cur[9] = capture.Quant(r.Speed, capture.SpeedScale)
	b := e.base[r.Object]
	if b == nil {
		if n := len(e.spare); n > 0 {
			b = e.spare[n-1]
			e.spare = e.spare[:n-1]
			*b = motionBase{}
		} else {
			b = &motionBase{}
		}
		e.base[r.Object] = b
	}
	for i, v := range cur {
		p = binary.AppendVarint(p, v-b.v[i])
	}
	b.v = cur
	return p
}

func appendString(p []byte, s string) []byte {
	if len(s) > maxText {
		s = s[:maxText]
	}
	p = binary.AppendUvarint(p, uint64(len(s)))
	return append(p, s...)
}

// ErrCorrupt is returned for a block whose records do not parse.
var ErrCorrupt = errors.New("corrupt record")

// Decoder reads the records of one block.
type Decoder struct {
	b    []byte
	off  int
	t    uint32
	base map[int32]*motionBase
}

// NewDecoder reads block b whose first record is relative to start.
func NewDecoder(b []byte, start uint32) *Decoder {
	return &Decoder{b: b, t: start, base: make(map[int32]*motionBase)}
}

// Next decodes the next record into r. It returns false at the end of the
// block or on an error (Err).
func (d *Decoder) Next(r *capture.Record) (bool, error) {
	if d.off >= len(d.b) {
		return false, nil
	}
	dt, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 || dt > math.MaxUint32 {
		return false, fmt.Errorf("%w: time at offset %d", ErrCorrupt, d.off)
	}
	d.off += n
	if d.off >= len(d.b) {
		return false, fmt.Errorf("%w: truncated at offset %d", ErrCorrupt, d.off)
	}
	kind := capture.Kind(d.b[d.off])
	d.off++
	ln, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 || ln > uint64(len(d.b)-d.off-n) {
		return false, fmt.Errorf("%w: length at offset %d", ErrCorrupt, d.off)
	}
	d.off += n
	p := d.b[d.off : d.off+int(ln)]
	d.off += int(ln)
	d.t += uint32(dt)
	r.Reset()
	r.T, r.Kind = d.t, kind
	rd := reader{p: p}
	d.payload(&rd, r)
	if rd.err {
		return false, fmt.Errorf("%w: %s payload at time %d", ErrCorrupt, kind, r.T)
	}
	return true, nil
}

func (d *Decoder) payload(rd *reader, r *capture.Record) {
	switch r.Kind {
	case capture.KindKeyframe:
		r.Flags = rd.u8()
		clear(d.base)
	case capture.KindPlayer:
		r.Player, r.Slot = rd.u8(), rd.u8()
		r.InGame = rd.u8()&1 != 0
		r.Team, r.Kills, r.Deaths, r.Score = rd.i32(), rd.i32(), rd.i32(), rd.i32()
		r.Name = rd.str()
	case capture.KindPlayerLeft:
		r.Player = rd.u8()
		r.Text = rd.str()
	case capture.KindObject:
		r.Object = rd.i32()
		r.Owner, r.Flags = rd.u8(), rd.u8()
		r.Species, r.Team = rd.i32(), rd.i32()
		r.Name, r.Class = rd.str(), rd.str()
	case capture.KindObjectGone:
		r.Object = rd.i32()
	case capture.KindMotion:
		r.Object = rd.i32()
		b := d.base[r.Object]
		if b == nil {
			b = &motionBase{}
			d.base[r.Object] = b
		}
		for i := range b.v {
			b.v[i] += rd.varint()
		}
		for i := range 3 {
			r.Pos[i] = capture.Unquant(b.v[i], capture.PosScale)
			r.Fwd[i] = capture.Unquant(b.v[3+i], capture.DirScale)
			r.Up[i] = capture.Unquant(b.v[6+i], capture.DirScale)
		}
		r.Speed = capture.Unquant(b.v[9], capture.SpeedScale)
	case capture.KindStatus:
		r.Object = rd.i32()
		r.Hull = rd.frac()
		for i := range r.Shields {
			r.Shields[i] = rd.frac()
		}
	case capture.KindSubsystems:
		r.Object = rd.i32()
		n := rd.uvarint()
		if n > maxSubs || n > uint64(len(rd.p)) {
			rd.err = true
			return
		}
		for range n {
			i := rd.uvarint()
			r.Subs = append(r.Subs, capture.Sub{Index: int(min(i, maxSubs)), Cond: rd.frac()})
		}
	case capture.KindFire:
		r.Object, r.Other, r.Weapon = rd.i32(), rd.i32(), rd.i32()
		r.Player, r.Opcode = rd.u8(), rd.u8()
		r.Weapons = capture.WeaponKind(rd.u8())
	case capture.KindHit, capture.KindDamage:
		r.Object, r.Other = rd.i32(), rd.i32()
		r.Player = rd.u8()
		r.Weapons, r.Cause = capture.WeaponKind(rd.u8()), capture.Cause(rd.u8())
		r.HullHit = rd.u8()&1 != 0
		r.Damage = capture.Unquant(int64(min(rd.uvarint(), math.MaxInt32)), capture.DamageScale)
	case capture.KindDeath:
		r.Object, r.Other = rd.i32(), rd.i32()
		r.Player, r.Owner = rd.u8(), rd.u8()
		r.Cause = capture.Cause(rd.u8())
		if len(rd.p) > 0 { // added within version 1: older files end here
			r.Weapons = capture.WeaponKind(rd.u8())
		}
	case capture.KindChat:
		r.Player = rd.u8()
		r.Flags = rd.u8()
		if r.Flags&capture.ChatTeam != 0 {
			r.Team = 1
		}
		r.Text = rd.str()
	case capture.KindMessage:
		n := rd.uvarint()
		if n > uint64(len(rd.p)) {
			rd.err = true
			return
		}
		r.Payload = append(r.Payload, rd.p[:n]...)
		rd.p = rd.p[n:]
		if len(r.Payload) > 0 {
			r.Opcode = r.Payload[0]
		}
	case capture.KindGameEnd:
		r.Reason = rd.i32()
		r.Team = -1
		if len(rd.p) == 0 {
			return // added within version 1: older files end here
		}
		r.Team = rd.i32()
		r.Player = rd.u8()
		r.Name, r.Text = rd.str(), rd.str()
		n := rd.uvarint()
		if n > capture.MaxTeamScores {
			rd.err = true
			return
		}
		for range n {
			r.TeamScores = append(r.TeamScores, capture.TeamScore{Team: rd.i32(), Kills: rd.i32(), Score: rd.i32()})
		}
	case capture.KindGameRestart:
	case capture.KindExplosion:
		r.Object = rd.i32()
		for i := range r.Pos {
			r.Pos[i] = capture.Unquant(rd.varint(), capture.PosScale)
		}
		r.Radius = capture.Unquant(int64(min(rd.uvarint(), math.MaxInt32)), capture.DamageScale)
		r.Damage = capture.Unquant(int64(min(rd.uvarint(), math.MaxInt32)), capture.DamageScale)
	default:
		// A kind this version does not know (a newer writer): kept as
		// raw bytes so tools can pass it on.
		r.Payload = append(r.Payload, rd.p...)
		rd.p = nil
	}
}

// reader parses a payload; any overrun sets err and yields zeros.
type reader struct {
	p   []byte
	err bool
}

func (r *reader) u8() byte {
	if len(r.p) < 1 {
		r.err = true
		return 0
	}
	v := r.p[0]
	r.p = r.p[1:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.p)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *reader) i32() int32 {
	v := r.varint()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.err = true
		return 0
	}
	return int32(v)
}

func (r *reader) frac() float32 {
	return capture.Unquant(int64(min(r.uvarint(), capture.FracScale)), capture.FracScale)
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > maxText || n > uint64(len(r.p)) {
		r.err = true
		return ""
	}
	s := string(r.p[:n])
	r.p = r.p[n:]
	return s
}
