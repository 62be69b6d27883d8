package loadgen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// loadMagic marks the generator's messages (the event code of its
// StartFiring, the first word of its chat text) so other traffic is not
// counted.
const loadMagic = 0x0BCB10AD

// loadSeqSpan is how many sequence numbers a StartFiring's source can
// carry: the ids after the ship in the sender's block (opcodes.md 1).
// Sequence numbers count modulo it, which a run of hours at 10 a second
// never reaches.
const loadSeqSpan = 0x40000 - 1

// Bot states.
const (
	stJoining int32 = iota
	stInGame
	stClosed
)

// Phases the coordinator moves every bot through.
const (
	phJoin  int32 = iota // join and wait
	phShip               // create a ship once
	phSend               // send on schedule
	phDrain              // stop sending, keep receiving and ACKing
	phQuit               // leave and stop
)

// lbot is one simulated player: a connected UDP socket and a transport
// client, run by one goroutine that sleeps in its socket read until a
// datagram or its next timer. No channels, no locks on the hot path; the
// coordinator reads its counters after it ends.
type lbot struct {
	run    *runner
	game   *gameRun
	idx    int
	conn   *net.UDPConn
	client *bcnet.Client
	join   bot.Joiner
	state  atomic.Int32
	err    error
	// joiner: a real client joining during a flood; it only joins, and
	// reached says it got in.
	joiner  bool
	reached atomic.Bool

	slot     int
	shipSent bool
	nextSend time.Time
	seq      uint32
	msg      []byte
	out      []byte
	flushAt  time.Time // pending ACKs leave no later than this
	nextTick time.Time

	// Counters, owned by the bot goroutine.
	sent      atomic.Int64
	delivered atomic.Int64
	dups      int64
	lastSeq   [16]uint32 // by sender slot
	lat       hist       // send to arrival in the socket (kernel stamp where there is one)
	latRead   hist       // send to the bot reading it
	stamps    bool       // the socket stamps arrivals
	arrived   time.Time
	// Blackout accounting: the latest arrival of a message sent while the
	// link was down (unix ns).
	backlogLast int64
	backlogN    int64
	// Tick rate: game-time values of host StateUpdates seen while
	// measuring (bot 0 of each game).
	ticks    int64
	lastTime float32
}

func newBot(r *runner, g *gameRun, idx int) (*lbot, error) {
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(g.target))
	if err != nil {
		return nil, fmt.Errorf("bot %d of game %d: %w", idx, g.idx, err)
	}
	b := &lbot{run: r, game: g, idx: idx, conn: c, msg: make([]byte, 0, 64), out: make([]byte, 0, bcnet.MaxDatagram)}
	b.stamps = enableTimestamps(c)
	b.join = bot.Joiner{Manifest: r.cfg.Manifest}
	ip := [4]byte{127, 0, 0, 1}
	if a := c.LocalAddr().(*net.UDPAddr).AddrPort().Addr(); a.Is4() {
		ip = a.As4()
	}
	name := fmt.Sprintf("load%02d-%02d", g.idx%100, idx)
	b.client = bcnet.NewClient(bcnet.Config{}, (*botEvents)(b), bcnet.ClientOptions{IP: ip, Name: name, Password: r.cfg.Password}, time.Now())
	return b, nil
}

func (b *lbot) loop() {
	defer b.conn.Close()
	defer b.state.Store(stClosed)
	buf := make([]byte, 2048)
	oob := make([]byte, oobSize)
	now := time.Now()
	_ = b.client.Connect()
	b.flush(now)
	b.nextTick = now.Add(time.Second)
	for {
		phase := b.run.phase.Load()
		if phase == phQuit {
			if b.client.State() == bcnet.ClientConnected {
				_ = b.client.Disconnect()
				b.flush(time.Now())
			}
			return
		}
		if b.state.Load() == stInGame && !b.joiner {
			b.act(phase, now)
		}
		_ = b.conn.SetReadDeadline(b.wake(now, phase))
		var n int
		var err error
		if b.stamps {
			var oobn int
			n, oobn, _, _, err = b.conn.ReadMsgUDPAddrPort(buf, oob)
			b.arrived, _ = arrival(oob[:oobn])
		} else {
			n, err = b.conn.Read(buf)
		}
		now = time.Now()
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				if errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrClosed) {
					return
				}
				continue // ICMP errors while a server restarts
			}
		} else if n >= bcnet.HeaderSize && buf[0] == bcnet.PeerHost {
			d := buf[:n]
			alby.Decrypt(d)
			_ = b.client.Receive(now, d)
			if b.flushAt.IsZero() {
				b.flushAt = now.Add(b.run.cfg.AckDelay)
			}
		}
		if !now.Before(b.nextTick) {
			b.nextTick = now.Add(time.Second)
			if err := b.client.Tick(now); err != nil {
				b.err = fmt.Errorf("server connection: %w", err)
				return
			}
			b.flushAt = now
		}
		if due := b.client.Conn().NextDue(); !due.IsZero() && !now.Before(due) {
			b.flushAt = now
		}
		if !b.flushAt.IsZero() && !now.Before(b.flushAt) {
			b.flush(now)
		}
		if b.client.State() == bcnet.ClientClosed && b.err == nil {
			b.err = errors.New("the server closed the session")
		}
		if b.err != nil {
			return
		}
	}
}

// wake is the read deadline: the next send, ACK flush, transport timer or
// housekeeping tick, and never more than 50 ms away so phase changes are
// seen promptly.
func (b *lbot) wake(now time.Time, phase int32) time.Time {
	t := now.Add(50 * time.Millisecond)
	if phase == phSend && !b.nextSend.IsZero() && b.nextSend.Before(t) {
		t = b.nextSend
	}
	if !b.flushAt.IsZero() && b.flushAt.Before(t) {
		t = b.flushAt
	}
	if d := b.client.Conn().NextDue(); !d.IsZero() && d.Before(t) {
		t = d
	}
	if b.nextTick.Before(t) {
		t = b.nextTick
	}
	return t
}

// act does what the phase asks of an in-game bot.
func (b *lbot) act(phase int32, now time.Time) {
	switch phase {
	case phShip:
		if !b.shipSent {
			b.shipSent = true
			ship, err := bot.ShipCreate(b.slot, b.client.ID(), fmt.Sprintf("load%d", b.client.ID()))
			if err == nil {
				_ = b.client.Send(ship, true)
				b.flush(now)
			}
		}
	case phSend:
		if b.nextSend.IsZero() {
			// Spread the game's senders evenly over one period.
			start := time.Unix(0, b.run.sendStart.Load())
			b.nextSend = start.Add(time.Duration(float64(b.run.period) * float64(b.idx) / float64(b.run.cfg.Bots)))
		}
		for k := 0; !now.Before(b.nextSend) && k < 4; k++ {
			b.send(now)
			b.nextSend = b.nextSend.Add(b.run.period)
		}
		if !now.Before(b.nextSend) {
			b.nextSend = now.Add(b.run.period) // far behind: skip, do not burst
		}
	}
}

// send queues one timestamped message and flushes at once, so the
// timestamp is the moment it leaves.
func (b *lbot) send(now time.Time) {
	b.seq++
	ts := uint64(time.Now().UnixNano())
	ship := codec.FirstObjectID(b.slot)
	if b.run.cfg.Chat {
		text := binary.LittleEndian.AppendUint32(b.out[:0], loadMagic)
		text = binary.LittleEndian.AppendUint32(text, uint32(b.slot))
		text = binary.LittleEndian.AppendUint32(text, b.seq)
		text = binary.LittleEndian.AppendUint64(text, ts)
		b.msg = codec.Chat{Sender: int32(b.client.ID()), Text: text}.AppendTo(b.msg[:0])
	} else {
		// A StartFiring the host relays as a stock one (opcodes.md 3.2): the
		// destination is the sender's ship (no weapon system, so the host's
		// model does nothing with it), the source one of the sender's ids
		// that carries the sequence number, the 8-byte tail the send time.
		ev := codec.Event{Op: codec.OpStartFiring, Factory: codec.FactoryStartFiring, Code: loadMagic,
			Src: ship + 1 + int32(b.seq%loadSeqSpan), Dst: ship}
		b.msg = ev.AppendTo(b.msg[:0])
		b.msg = binary.LittleEndian.AppendUint64(b.msg, ts)
	}
	if err := b.client.Send(b.msg, true); err != nil {
		return
	}
	b.sent.Add(1)
	if b.run.cfg.StateUpdates {
		// A speed an Akira (max 6.6) can fly: the host's fair-play rules
		// drop a StateUpdate claiming more (README, "Fair play").
		up := codec.StateUpdate{ObjectID: ship, GameTime: float32(now.Sub(b.run.t0).Seconds()), Flags: codec.StateForward | codec.StateSpeed,
			Forward: codec.NewDir3(0, 1, 0), Speed: codec.EncodeCF16(float32(b.seq%7) * 0.9)}
		b.msg = up.AppendTo(b.msg[:0])
		_ = b.client.Send(b.msg, false)
	}
	b.flush(now)
}

func (b *lbot) flush(now time.Time) {
	b.flushAt = time.Time{}
	for range 64 {
		d := b.client.Flush(now, b.out[:0])
		if d == nil {
			return
		}
		alby.Encrypt(d)
		_, _ = b.conn.Write(d)
	}
}

// received accounts for one of the generator's messages from another bot.
func (b *lbot) received(sender int, seq uint32, ts int64) {
	if sender < 0 || sender >= len(b.lastSeq) || sender == b.slot {
		return
	}
	if seq <= b.lastSeq[sender] {
		b.dups++ // reliable delivery is in order, so an old seq is a repeat
		return
	}
	b.lastSeq[sender] = seq
	now := time.Now().UnixNano()
	b.delivered.Add(1)
	b.latRead.add(time.Duration(now - ts))
	if b.stamps && !b.arrived.IsZero() {
		b.lat.add(time.Duration(b.arrived.UnixNano() - ts))
	} else {
		b.lat.add(time.Duration(now - ts))
	}
	if bo := b.run.blackoutStart.Load(); bo != 0 && ts >= bo && ts < b.run.blackoutEnd.Load() {
		b.backlogN++
		b.backlogLast = max(b.backlogLast, now)
	}
}

// botEvents implements net.ClientEvents for a bot.
type botEvents lbot

func (e *botEvents) Accepted(byte)             {}
func (e *botEvents) Booted(r bcnet.BootReason) { (*lbot)(e).err = fmt.Errorf("booted (reason %d)", r) }
func (e *botEvents) Disconnected()             { (*lbot)(e).err = errors.New("the server shut down") }
func (e *botEvents) Peer(byte, string)         {}
func (e *botEvents) PeerGone(byte)             {}

func (e *botEvents) Message(p []byte, _ bool) {
	b := (*lbot)(e)
	if len(p) == 0 {
		return
	}
	switch p[0] {
	case codec.OpStartFiring:
		if len(p) == 25 && binary.LittleEndian.Uint32(p[5:]) == loadMagic {
			ship := int32(binary.LittleEndian.Uint32(p[13:]))
			slot, _ := codec.OwnerSlot(ship)
			seq := uint32(int32(binary.LittleEndian.Uint32(p[9:])) - ship - 1)
			b.received(slot, seq, int64(binary.LittleEndian.Uint64(p[17:])))
		}
		return
	case codec.OpChat:
		if c, err := codec.DecodeChat(p); err == nil && len(c.Text) == 20 && binary.LittleEndian.Uint32(c.Text) == loadMagic {
			t := c.Text
			b.received(int(binary.LittleEndian.Uint32(t[4:])), binary.LittleEndian.Uint32(t[8:]), int64(binary.LittleEndian.Uint64(t[12:])))
		}
		return
	case codec.OpStateUpdate:
		if b.idx == 0 && b.run.measuring.Load() && len(p) >= 9 {
			// Each host tick sends updates stamped with its game time; a
			// new stamp is a new tick.
			gt := math.Float32frombits(binary.LittleEndian.Uint32(p[5:]))
			if gt != b.lastTime {
				b.lastTime = gt
				b.ticks++
			}
		}
		return
	}
	send := func(m []byte) { _ = b.client.Send(m, true) }
	switch b.join.Handle(p, b.client.ID(), send) {
	case bot.JoinSettings:
		b.slot = int(b.join.Settings.Slot)
	case bot.JoinRejected:
		b.err = errors.New("checksums rejected")
	case bot.JoinInGame:
		b.state.Store(stInGame)
		if b.joiner {
			b.reached.Store(true)
			return
		}
		b.run.joined.Add(1)
	}
}
