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
