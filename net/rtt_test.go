package net

import (
	"testing"
	"time"
)

// The round trip is measured from a reliable message's first send to its
// ACK and smoothed; a message ACKed after a retransmission gives no sample.
func TestRTT(t *testing.T) {
	host := NewConn(Config{}, PeerHost, t0)
	peer := NewConn(Config{}, 2, t0)
	var r recorder
	roundTrip := func(sent, acked time.Time) {
		t.Helper()
		if err := host.Send([]byte{0x28}, true); err != nil {
			t.Fatal(err)
		}
		for _, d := range flushAll(host, sent) {
			if err := peer.Receive(sent, d, &r); err != nil {
				t.Fatal(err)
			}
		}
		for _, d := range flushAll(peer, sent) {
			if err := host.Receive(acked, d, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if d, n := host.RTT(); d != 0 || n != 0 {
		t.Fatalf("before any ACK: %v %d", d, n)
	}
	roundTrip(t0, t0.Add(80*time.Millisecond))
	if d, n := host.RTT(); d != 80*time.Millisecond || n != 1 || host.LastRTT() != 80*time.Millisecond {
		t.Fatalf("first sample: %v %d", d, n)
	}
	roundTrip(t0.Add(time.Second), t0.Add(time.Second+160*time.Millisecond))
	if d, n := host.RTT(); d != 90*time.Millisecond || n != 2 {
		t.Fatalf("smoothed: %v %d, want 90ms 2", d, n)
	}
	// A retransmitted message: its ACK is no sample.
	if err := host.Send([]byte{0x28}, true); err != nil {
		t.Fatal(err)
	}
	flushAll(host, t0.Add(2*time.Second))
	var resent [][]byte
	for ms := 2000; ms <= 3500 && len(resent) == 0; ms += 100 {
		resent = flushAll(host, t0.Add(time.Duration(ms)*time.Millisecond))
	}
	if len(resent) == 0 {
		t.Fatal("no retransmission")
	}
	for _, d := range resent {
		if err := peer.Receive(t0.Add(4*time.Second), d, &r); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range flushAll(peer, t0.Add(4*time.Second)) {
		if err := host.Receive(t0.Add(4*time.Second), d, &r); err != nil {
			t.Fatal(err)
		}
	}
	if host.Queued() != 0 {
		t.Fatalf("still queued: %d", host.Queued())
	}
	if _, n := host.RTT(); n != 2 {
		t.Fatalf("a retransmitted message gave a sample: %d", n)
	}
}
