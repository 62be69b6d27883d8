package loadgen

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"sync/atomic"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// Flood kinds.
const (
	FloodConnect = "connect" // connect requests that never answer, from one address and ever new ports
	FloodSpoof   = "spoof"   // connect requests from Sources spoofed addresses
	FloodJunk    = "junk"    // random datagrams from Sources spoofed addresses
)

// Flood is hostile traffic sent at the first game while the bots play.
// Spoofed sources need a raw socket (Linux, CAP_NET_RAW) and are drawn
// from 127.1.0.0/16 (connects) and 127.2.0.0/16 (junk), which loopback
// delivers.
type Flood struct {
	Kind string
	// Rate is datagrams a second.
	Rate float64
	// Sources is the number of spoofed addresses (spoof, junk; default
	// 100).
	Sources int
	// Joiners are real clients that try to join the flooded game during
	// the flood, evenly spread over the sending; the report counts how
	// many got in. The game needs free slots for them.
	Joiners int
}

// floodDatagram builds the flood's next datagram into b.
func floodDatagram(b []byte, kind string, rng *rand.Rand) []byte {
	if kind == FloodJunk {
		n := 2 + rng.IntN(62)
		b = b[:n]
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if b[0] == '\\' || b[0] == bcnet.PeerUnassigned {
			b[0] = 0x7E // not a query, not a connect: plain junk from a stranger
		}
		return b
	}
	m := bcnet.Message{Type: bcnet.TypeConnect, Reliable: true, Priority: true, HasSeq: true,
		Payload: bcnet.AppendConnect(nil, [4]byte{10, 1, 2, 3}, 1+rng.Uint32N(32767), "")}
	b = bcnet.AppendMessage(append(b[:0], bcnet.PeerUnassigned, 1), &m)
	alby.Encrypt(b)
	return b
}

// floodSource picks the source address of the next datagram.
func floodSource(f *Flood, rng *rand.Rand, i uint64) netip.AddrPort {
	port := uint16(1024 + rng.IntN(60000))
	switch f.Kind {
	case FloodConnect:
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 9}), port)
	case FloodSpoof:
		k := int(i) % f.Sources
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 1, byte(k >> 8), byte(k)}), port)
	}
	k := rng.IntN(f.Sources)
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 2, byte(k >> 8), byte(k)}), port)
}

// runFlood sends the flood at target until ctx ends, paced per
// millisecond; sent counts what left.
func runFlood(ctx context.Context, f *Flood, target netip.AddrPort, seed uint64, sent *atomic.Int64) error {
	if f.Sources <= 0 {
		f.Sources = 100
	}
	if f.Sources > 65536 {
		return fmt.Errorf("flood: %d sources, at most 65536", f.Sources)
	}
	// Spoofed datagrams go to our own server on this machine, never
	// anywhere else: the sources are loopback addresses, which only the
	// loopback interface delivers.
	if !target.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("flood: target %v is not a loopback address", target)
	}
	out, err := newRawSender()
	if err != nil {
		return fmt.Errorf("flood: %w (spoofing needs a raw socket: Linux and CAP_NET_RAW)", err)
	}
	defer out.close()
	rng := rand.New(rand.NewPCG(seed, 77))
	start := time.Now()
	var i uint64
	buf := make([]byte, 0, 64)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tick.C:
			due := uint64(f.Rate * now.Sub(start).Seconds())
			for ; i < due; i++ {
				d := floodDatagram(buf, f.Kind, rng)
				out.queue(floodSource(f, rng, i), target, d)
			}
			n, err := out.flush()
			sent.Add(int64(n))
			if err != nil {
				return err
			}
		}
	}
}

// ipv4UDP writes an IPv4+UDP header and payload into b (checksums left
// to the kernel (IP) and zero (UDP, optional over IPv4)).
func ipv4UDP(b []byte, from, to netip.AddrPort, payload []byte) []byte {
	n := 28 + len(payload)
	b = append(b[:0],
		0x45, 0, byte(n>>8), byte(n), 0, 0, 0x40, 0, 64, 17, 0, 0)
	f4, t4 := from.Addr().As4(), to.Addr().As4()
	b = append(b, f4[:]...)
	b = append(b, t4[:]...)
	b = binary.BigEndian.AppendUint16(b, from.Port())
	b = binary.BigEndian.AppendUint16(b, to.Port())
	b = binary.BigEndian.AppendUint16(b, uint16(8+len(payload)))
	b = append(b, 0, 0)
	return append(b, payload...)
}
