package engine

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// countWriter counts datagrams and remembers the last one (for setup).
type countWriter struct {
	n    int
	last [512]byte
	ln   int
}

func (c *countWriter) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	c.n++
	c.ln = copy(c.last[:], b)
	return len(b), nil
}

// BenchmarkRelay measures the server side of relaying one reliable game
// message from one player to the 15 others, everything the game goroutine
// does for it: decrypt and parse the sender's datagram, route the message,
// queue 15 copies, build and encrypt 15 datagrams, then decrypt and apply
// the 15 ACKs that come back. The test builds the client datagrams itself
// (16 small encryptions per op are included in the figure). The fair-play
// rules run (the message type's rate; a message every microsecond is far
// beyond it, so the rates are scaled out of reach);
// BenchmarkRelayFairPlayOff is the same with the rules off.
func BenchmarkRelay(b *testing.B) { benchRelay(b, false) }

// BenchmarkRelayFairPlayOff is BenchmarkRelay with the fair-play rules off:
// the difference is their cost per relayed message.
func BenchmarkRelayFairPlayOff(b *testing.B) { benchRelay(b, true) }

func benchRelay(b *testing.B, fairOff bool) {
	names := make([]string, 16)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	cfg := DefaultConfig()
	cfg.FlowRate = 0 // a message every microsecond is above the default limits
	cfg.FlowBytes = 0
	cfg.FairPlay.RateScale = 1e9
	cfg.FairPlay.Off = fairOff
	l := newLAN(&testing.T{}, cfg, names...)
	g := l.g
	cw := &countWriter{}
	g.host.SetWriter(cw)
	sender := l.cs[0]
	msg := eventMsg(0x08, 0x0101, 0x008000D9, shipA+20, 0)

	// Learn the next sequence numbers: one relay, then read the seq of
	// the copy each receiver got.
	var sendSeq uint16 = 7 // the sender's next game seq after its join (ChecksumResp x5, 0x2A, ...)
	recvSeq := make([]uint16, len(l.cs))
	for k, c := range l.cs {
		if k == 0 {
			continue
		}
		p := g.Player(c.ev.accepted)
		_ = p.peer.Send([]byte{0x28}, true) // probe message
		g.Flush(l.now)
		d := append([]byte(nil), cw.last[:cw.ln]...)
		alby.Decrypt(d)
		_, msgs, err := bcnet.ParseDatagram(d, nil)
		if err != nil || len(msgs) == 0 {
			b.Fatalf("probe: %v", err)
		}
		m := msgs[len(msgs)-1]
		recvSeq[k] = m.Seq + 1
		ack := []byte{c.ev.accepted, 1, bcnet.TypeAck, byte(m.Seq), byte(m.Seq >> 8), 0}
		alby.Encrypt(ack)
		g.HandleDatagram(l.now, c.addr, ack)
	}
	// The sender's seq: send one message through the real client and read it.
	_ = sender.c.Send(msg, true)
	d := sender.c.Flush(l.now, nil)
	_, msgs, _ := bcnet.ParseDatagram(d, nil)
	sendSeq = msgs[len(msgs)-1].Seq + 1
	alby.Encrypt(d)
	g.HandleDatagram(l.now, sender.addr, d)
	g.Flush(l.now)
	for k := 1; k < len(l.cs); k++ {
		c := l.cs[k]
		s := recvSeq[k]
		ack := []byte{c.ev.accepted, 1, bcnet.TypeAck, byte(s), byte(s >> 8), 0}
		alby.Encrypt(ack)
		g.HandleDatagram(l.now, c.addr, ack)
		recvSeq[k]++
	}
	g.Flush(l.now)

	in := make([]byte, 0, 64)
	ack := make([]byte, 6)
	now := l.now
	relayed := g.Stats.Relayed.Load()
	sent := cw.n
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Microsecond)
		in = append(in[:0], sender.ev.accepted, 1, bcnet.TypeGame)
		in = binary.LittleEndian.AppendUint16(in, 0x8000|uint16(5+len(msg)))
		in = binary.LittleEndian.AppendUint16(in, sendSeq)
		in = append(in, msg...)
		sendSeq++
		alby.Encrypt(in)
		g.HandleDatagram(now, sender.addr, in)
		g.Flush(now)
		for k := 1; k < len(l.cs); k++ {
			c := l.cs[k]
			s := recvSeq[k]
			ack = append(ack[:0], c.ev.accepted, 1, bcnet.TypeAck, byte(s), byte(s>>8), 0)
			alby.Encrypt(ack)
			g.HandleDatagram(now, c.addr, ack)
			recvSeq[k]++
		}
		g.Flush(now)
	}
	b.StopTimer()
	if got := g.Stats.Relayed.Load() - relayed; got != uint64(b.N) {
		b.Fatalf("relayed %d of %d", got, b.N)
	}
	b.ReportMetric(float64(cw.n-sent)/float64(b.N), "datagrams/op")
	for _, c := range l.cs[1:] {
		if q := g.Player(c.ev.accepted).peer.Queued(); q != 0 {
			b.Fatalf("player %d has %d messages unACKed: the ACK loop is broken", c.ev.accepted, q)
		}
	}
}

// BenchmarkSimTick16 measures one game tick with 16 ships: the world's
// simulation step plus the host-built StateUpdates for 16 ships × 16
// receivers, queued and flushed through the transport.
func BenchmarkSimTick16(b *testing.B) {
	names := make([]string, 16)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	t := &testing.T{}
	l := newLAN(t, DefaultConfig(), names...)
	for i, c := range l.cs {
		l.send(c, retarget(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), i, 1, 7), true)
		l.send(c, moveMsg(codec.FirstObjectID(i), [3]float32{float32(i * 20), 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	}
	g := l.g
	g.host.SetWriter(&countWriter{})
	now := l.now
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(100 * time.Millisecond)
		g.now = now
		g.world.Tick(now)
		g.world.SendStateUpdates(now)
		g.host.Flush(now)
		for _, p := range g.bySlot {
			if p != nil {
				p.peer.SetLastReceived(now) // no client answers in a benchmark
			}
		}
	}
}
