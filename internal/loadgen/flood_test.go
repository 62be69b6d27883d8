package loadgen

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// A flood is only ever aimed at this machine: a target off loopback is
// refused before any socket is opened.
func TestFloodRefusesRemoteTarget(t *testing.T) {
	var sent atomic.Int64
	for _, target := range []string{"192.0.2.1:22101", "[2001:db8::1]:22101"} {
		err := runFlood(context.Background(), &Flood{Kind: FloodJunk, Rate: 1}, netip.MustParseAddrPort(target), 1, &sent)
		if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
			t.Errorf("%s: %v", target, err)
		}
	}
	if sent.Load() != 0 {
		t.Fatalf("%d datagrams sent", sent.Load())
	}
}

// The flood's datagrams are what it claims: connects a host parses as
// connects, junk that is neither a query nor a connect, from loopback
// sources in the announced ranges, in well-formed IPv4/UDP packets.
func TestFloodDatagrams(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := &Flood{Sources: 300}
	buf := make([]byte, 0, 64)
	for i := range 200 {
		for _, kind := range []string{FloodConnect, FloodSpoof, FloodJunk} {
			f.Kind = kind
			src := floodSource(f, rng, uint64(i))
			a := src.Addr().As4()
			want := map[string]byte{FloodConnect: 0, FloodSpoof: 1, FloodJunk: 2}[kind]
			if a[0] != 127 || a[1] != want || (kind == FloodConnect && a != [4]byte{127, 0, 0, 9}) || int(a[2])<<8|int(a[3]) >= f.Sources {
				t.Fatalf("%s source %v", kind, src)
			}
			d := append([]byte(nil), floodDatagram(buf, kind, rng)...)
			if kind == FloodJunk {
				if len(d) < 2 || d[0] == '\\' || d[0] == bcnet.PeerUnassigned {
					t.Fatalf("junk %X", d)
				}
				continue
			}
			alby.Decrypt(d)
			_, ms, err := bcnet.ParseDatagram(d, nil)
			if err != nil || d[0] != bcnet.PeerUnassigned || len(ms) != 1 || ms[0].Type != bcnet.TypeConnect {
				t.Fatalf("%s datagram %X: %v", kind, d, err)
			}
			if r := bcnet.ParseConnect(ms[0].Payload); r.Short || r.Nonce < 1 || r.Nonce > 32767 {
				t.Fatalf("connect %+v", r)
			}
			pkt := ipv4UDP(nil, src, netip.MustParseAddrPort("127.0.0.1:22101"), d)
			if len(pkt) != 28+len(d) || pkt[0] != 0x45 || pkt[9] != 17 ||
				int(binary.BigEndian.Uint16(pkt[2:])) != len(pkt) || int(binary.BigEndian.Uint16(pkt[24:])) != 8+len(d) ||
				[4]byte(pkt[12:16]) != a || binary.BigEndian.Uint16(pkt[20:]) != src.Port() || binary.BigEndian.Uint16(pkt[22:]) != 22101 {
				t.Fatalf("packet % X", pkt[:28])
			}
		}
	}
}
