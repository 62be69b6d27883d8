package net

import (
	"testing"
	"time"
)

// A peer that keeps sending reliable messages keeps the host's ACK repeat
// queue small: about twice the repeats still due, not hundreds of spent
// entries (they were per-player memory).
func TestAckRepeatQueueStaysSmall(t *testing.T) {
	host := NewConn(Config{}, PeerHost, t0)
	cl := NewConn(Config{}, 2, t0)
	var sink recorder
	buf := make([]byte, 0, MaxDatagram)
	acks := 0
	now := t0
	for step := range 6000 { // 60 s in 10 ms steps, a message every 100 ms
		if step%10 == 0 {
			if err := cl.Send([]byte{0x2C, byte(step)}, true); err != nil {
				t.Fatal(err)
			}
		}
		for d := cl.Flush(now, buf); d != nil; d = cl.Flush(now, buf) {
			if err := host.Receive(now, d, &sink); err != nil {
				t.Fatal(err)
			}
		}
		for d := host.Flush(now, buf); d != nil; d = host.Flush(now, buf) {
			acks += int(d[1]) // host datagrams here carry ACKs only
			if err := cl.Receive(now, d, &sink); err != nil {
				t.Fatal(err)
			}
		}
		if c := cap(host.ackRepeat); c > 64 {
			t.Fatalf("at %v the repeat queue has capacity %d (%d live)", now.Sub(t0), c, len(host.ackRepeat)-host.ackHead)
		}
		now = now.Add(10 * time.Millisecond)
	}
	// Every message's ACK went out three times, except the repeats of the
	// last second's messages, not yet due.
	if want := 3 * 600; acks < want-2*14 || acks > want {
		t.Fatalf("%d ACKs sent for 600 messages", acks)
	}
}

// An ACK repeat rides along in a datagram that goes anyway up to a
// quarter interval before it is due, and not earlier; with nothing else to
// send it leaves when due, in a datagram of its own.
func TestAckRepeatRidesAlong(t *testing.T) {
	cfg := DefaultConfig()
	for _, tc := range []struct {
		name  string
		other time.Duration // when the host sends a message of its own; 0: never
		want  time.Duration // when the repeat leaves
	}{
		{"alone", 0, cfg.AckInterval},
		{"with a message in the window", cfg.AckInterval - 100*time.Millisecond, cfg.AckInterval - 100*time.Millisecond},
		{"with a message before the window", cfg.AckInterval - 200*time.Millisecond, cfg.AckInterval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := NewConn(Config{}, PeerHost, t0)
			cl := NewConn(Config{}, 2, t0)
			var sink recorder
			buf := make([]byte, 0, MaxDatagram)
			if err := cl.Send([]byte{0x2C, 1}, true); err != nil {
				t.Fatal(err)
			}
			if err := host.Receive(t0, cl.Flush(t0, buf), &sink); err != nil {
				t.Fatal(err)
			}
			if d := host.Flush(t0, buf); d == nil || host.Stats.AcksOut != 1 {
				t.Fatalf("the first ACK did not leave at once: %x", d)
			}
			for now := t0.Add(time.Millisecond); now.Sub(t0) <= cfg.AckInterval+time.Millisecond; now = now.Add(time.Millisecond) {
				if tc.other != 0 && now.Equal(t0.Add(tc.other)) {
					if err := host.Send([]byte{0x2C, 2}, false); err != nil {
						t.Fatal(err)
					}
				}
				if !host.Pending(now) {
					continue
				}
				_ = host.Flush(now, buf)
				if host.Stats.AcksOut == 2 {
					if got := now.Sub(t0); got != tc.want {
						t.Fatalf("the repeat left at %v, want %v", got, tc.want)
					}
					return
				}
			}
			t.Fatalf("the repeat never left (ACKs out %d)", host.Stats.AcksOut)
		})
	}
}
