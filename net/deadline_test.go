package net

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/net/alby"
)

// NextDue names the transport's next timer exactly: nothing is sent a
// moment before it, something at it (here the repeat of the connect's ACK
// and then the retransmission of the reply), and after it the next one is
// later. Without peers nothing is due.
func TestHostNextDue(t *testing.T) {
	out := &testutil.Wire{Open: alby.Decrypt}
	req0 := sessionVector(t, "checksum_req_round0")
	ev := &hostEvents{onConn: func(p *Peer) { _ = p.Send(req0, true) }}
	h := NewHost(HostConfig{}, ev, out)
	if d := h.NextDue(t0); !d.IsZero() {
		t.Fatalf("no peers, due %v", d)
	}
	h.HandleDatagram(t0, client1, enc(sessionVector(t, "connect_request")))
	if d := h.NextDue(t0); !d.Equal(t0) {
		t.Fatalf("queued messages due at %v, want now", d)
	}
	h.Flush(t0)
	out.Take()
	now := t0
	for i := 0; i < 3; i++ {
		due := h.NextDue(now)
		if !due.After(now) || due.Sub(now) > DefaultConfig().ResendMax {
			t.Fatalf("step %d: due %v after %v", i, due.Sub(now), now.Sub(t0))
		}
		h.Tick(due.Add(-time.Millisecond))
		if got := out.Take(); len(got) != 0 {
			t.Fatalf("step %d: %d datagrams before the deadline", i, len(got))
		}
		h.Tick(due)
		if got := out.Take(); len(got) == 0 {
			t.Fatalf("step %d: nothing sent at the deadline %v", i, due.Sub(t0))
		}
		now = due
	}
}

// BenchmarkSocketSleep is the game loop's sleep and wake-up on a deadline
// 20 µs ahead with nothing to read: arming the timer, parking, the wake-up.
func BenchmarkSocketSleep(b *testing.B) {
	s := listenT(b, "127.0.0.1:0")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Receive(time.Now().Add(20 * time.Microsecond)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSocketWake is a Wake (Do, Post) followed by the Receive it
// ends.
func BenchmarkSocketWake(b *testing.B) {
	s := listenT(b, "127.0.0.1:0")
	far := time.Now().Add(time.Hour)
	b.ReportAllocs()
	for b.Loop() {
		s.Wake()
		if _, err := s.Receive(far); err != nil {
			b.Fatal(err)
		}
	}
}
