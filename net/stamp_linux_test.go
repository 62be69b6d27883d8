package net

import (
	"net/netip"
	"testing"
	"time"
)

// On Linux every datagram read carries the kernel's arrival time: after
// the send began and before the read returned.
func TestSocketArrivalTimes(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", "[::]:0"} {
		t.Run(listen, func(t *testing.T) {
			a, b := listenT(t, "127.0.0.1:0"), listenT(t, listen)
			// A dual-stack socket bound to [::] is reached over IPv4 loopback.
			to := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), b.LocalAddr().Port())
			before := time.Now()
			for i := 0; i < 3; i++ {
				if _, err := a.WriteToUDPAddrPort([]byte{byte(i)}, to); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Flush(); err != nil {
				t.Fatal(err)
			}
			got := receiveN(t, b, 3)
			after := time.Now()
			for i, p := range got {
				// A second of slack either way: the wall clock may be
				// stepped while the test runs.
				if p.Arrived.IsZero() || p.Arrived.Before(before.Add(-time.Second)) || p.Arrived.After(after.Add(time.Second)) {
					t.Fatalf("datagram %d arrived %v, sent after %v, read by %v", i, p.Arrived, before, after)
				}
			}
		})
	}
}
