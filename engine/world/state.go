package world

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// forceResend is the stock writer's global threshold: a field is sent
// again, changed or not, once it was last sent more than 1 s ago
// (simulation.md 2).
const forceResend = time.Second

// moveState is the owner's latest movement data for a ship, kept as the raw
// wire values so rebuilt updates carry the owner's bytes. Each field has a
// sequence number that advances when the owner sends it.
type moveState struct {
	hasPos                 bool
	pos                    [3]float32
	delta                  codec.DirMag
	offset                 [3]float32 // delta decoded: the position is pos + offset
	fwd, up                codec.Dir3
	speed                  uint16
	cloak                  bool
	weapons                [16]byte // the owner's latest 0x80 pairs (stored, never forwarded)
	nweapons               int
	posSeq, deltaSeq       uint32
	fwdSeq, upSeq          uint32
	speedSeq, cloakSeq     uint32
	lastUpdate             time.Time
	posAt, orientAt        time.Time   // when the last absolute position and forward vector arrived
	orient                 orientTrack // the owner's recent orientations (fairplay.go)
	ownerTime              float32
	hasFwd, hasUp, hasSpd  bool
	hasDelta, hasCloakFlag bool
}

// view is what one receiver was last sent about one ship.
type view struct {
	posSeq, deltaSeq, fwdSeq, upSeq, speedSeq, cloakSeq uint32
	posAt, fwdAt, upAt, speedAt                         sentAt
	cursor                                              ships.Cursor
}

// sentAt is when a field of a ship was last sent to a receiver:
// nanoseconds since the world's epoch, or neverSent. A game keeps four per
// ship and receiver, so 8 bytes instead of a time.Time's 24.
type sentAt int64

// neverSent is the sentAt of a field not sent yet.
const neverSent sentAt = math.MinInt64

// due reports whether a field last sent at s goes again at now, changed
// or not (forceResend).
func (s sentAt) due(now sentAt) bool { return s == neverSent || now-s >= sentAt(forceResend) }

// viewEntry is one receiver's view of a ship. A ship has at most one per
// wire id (fewer than 16 in practice), so a linear scan beats a map.
type viewEntry struct {
	receiver byte
	v        *view
}

func (o *Object) viewFor(receiver byte) *view {
	for i := range o.views {
		if o.views[i].receiver == receiver {
			return o.views[i].v
		}
	}
	v := &view{posAt: neverSent, fwdAt: neverSent, upAt: neverSent, speedAt: neverSent}
	o.views = append(o.views, viewEntry{receiver, v})
	return v
}

// StateUpdate takes an owner's StateUpdate (opcodes.md 2, 0x1C) for one of
// its objects; the engine has checked that the sender owns the id and
// refused updates carrying only the subsystem flag, subsystem health being
// the host's. It stores the movement fields, decoded once; the host sends
// its own updates from them every tick. An update for an object the host
// does not know is ignored.
//
// A ship whose integrity hash differs from the reference of its species is
// reported (ok true) and counted; what happens to its owner is the
// engine's policy.
func (w *World) StateUpdate(now time.Time, owner *Owner, m *codec.StateUpdate) (mismatch HashMismatch, ok bool) {
	w.now = now
	o := w.objects[m.ObjectID]
	if o == nil {
		return HashMismatch{}, false
	}
	// The fair-play track takes the position the update adds (fairplay.go).
	if mo, judged := w.motion(o, now, m); judged {
		o.track.Accept(&mo)
	}
	st := &o.state
	st.lastUpdate = now
	st.ownerTime = m.GameTime
	if m.Flags&codec.StatePosition != 0 {
		st.pos, st.hasPos, st.posAt = m.Position, true, now
		st.posSeq++
		// A new absolute position restarts the delta chain.
		st.hasDelta = false
		st.offset = [3]float32{}
		mismatch, ok = w.checkIntegrity(o, m)
	}
	if m.Flags&codec.StateDelta != 0 {
		st.delta, st.hasDelta = m.Delta, true
		st.deltaSeq++
		if x, y, z := m.Delta.Vector(); finite(x) && finite(y) && finite(z) {
			st.offset = [3]float32{x, y, z}
		}
	}
	if m.Flags&codec.StateForward != 0 {
		st.fwd, st.hasFwd, st.orientAt = m.Forward, true, now
		defer st.orient.add(now, st) // once the up vector, too, is taken
		st.fwdSeq++
	}
	if m.Flags&codec.StateUp != 0 {
		st.up, st.hasUp = m.Up, true
		st.upSeq++
	}
	if m.Flags&codec.StateSpeed != 0 {
		st.speed, st.hasSpd = m.Speed, true
		st.speedSeq++
	}
	if m.Flags&codec.StateCloak != 0 && (!st.hasCloakFlag || st.cloak != m.Cloak) {
		st.cloak, st.hasCloakFlag = m.Cloak, true
		st.cloakSeq++
	}
	if m.Flags&codec.StateWeapons != 0 {
		st.nweapons = copy(st.weapons[:], m.Weapons)
	}
	return mismatch, ok
}

// SendStateUpdates builds and sends, for every ship and every viewer, the
// host-shaped StateUpdate (simulation.md 4.1): the owner's movement fields
// to the other players — absolute position when the owner sent a new one
// or a second passed, the owner's latest delta relative to that base,
// orientation and speed when changed or forced, cloak on change — and the
// subsystem round-robin block to everyone, the owner included (with
// has_power off for the owner, 4.2). Updates are unreliable.
func (w *World) SendStateUpdates(now time.Time) {
	w.now = now
	gameTime := w.GameTime(now)
	w.viewers = w.env.Viewers(w.viewers[:0])
	for _, o := range w.objects {
		if !o.IsShip() {
			continue
		}
		for _, r := range w.viewers {
			w.buf = w.appendStateUpdate(w.buf[:0], o, r, gameTime)
			if len(w.buf) > 0 {
				w.env.Send(r, w.buf, false)
			}
		}
	}
}

// appendStateUpdate appends the update of ship o for receiver r to b; it
// appends nothing when there is nothing to say.
func (w *World) appendStateUpdate(b []byte, o *Object, r *Owner, gameTime float32) []byte {
	isOwner := o.Owner == r
	if isOwner && o.Model == nil {
		return b // the owner knows its own movement; there is no health to send
	}
	v := o.viewFor(r.ID)
	st := &o.state
	now := sentAt(w.now.Sub(w.epoch))
	m := codec.StateUpdate{ObjectID: o.ID, GameTime: gameTime}
	if !isOwner {
		if st.hasPos && (v.posSeq != st.posSeq || v.posAt.due(now)) {
			m.Flags |= codec.StatePosition
			m.Position = st.pos
			v.posSeq, v.posAt = st.posSeq, now
			v.deltaSeq = 0 // the delta, if any, is re-sent against this base
		}
		if st.hasDelta && v.deltaSeq != st.deltaSeq {
			m.Flags |= codec.StateDelta
			m.Delta = st.delta
			v.deltaSeq = st.deltaSeq
		}
		if st.hasFwd && (v.fwdSeq != st.fwdSeq || v.fwdAt.due(now)) {
			m.Flags |= codec.StateForward
			m.Forward = st.fwd
			v.fwdSeq, v.fwdAt = st.fwdSeq, now
		}
		if st.hasUp && (v.upSeq != st.upSeq || v.upAt.due(now)) {
			m.Flags |= codec.StateUp
			m.Up = st.up
			v.upSeq, v.upAt = st.upSeq, now
		}
		if st.hasSpd && (v.speedSeq != st.speedSeq || v.speedAt.due(now)) {
			m.Flags |= codec.StateSpeed
			m.Speed = st.speed
			v.speedSeq, v.speedAt = st.speedSeq, now
		}
		if st.hasCloakFlag && v.cloakSeq != st.cloakSeq {
			m.Flags |= codec.StateCloak
			m.Cloak = st.cloak
			v.cloakSeq = st.cloakSeq
		}
	}
	// The subsystem block must be the last thing in the message (the
	// receiver reads entries to the end), so it is left out of the rare
	// update that carries a cloak change.
	withBlock := o.Model != nil && m.Flags&codec.StateCloak == 0
	if withBlock {
		m.Flags |= codec.StateSubsystems
	}
	if m.Flags == 0 {
		return b
	}
	var cw codec.Writer
	cw.Reset(b)
	m.WriteHead(&cw)
	if withBlock {
		ships.AppendSubsystems(&cw, o.Model, &v.cursor, isOwner)
	}
	m.WriteTail(&cw)
	return cw.Bytes()
}
