package net

import (
	"bytes"
	stdnet "net"
	"testing"
	"time"
)

func listenT(t testing.TB, addr string) *Socket {
	t.Helper()
	s, err := Listen(addr, SocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// receiveN reads until n datagrams arrived (bounded in time).
func receiveN(t *testing.T, s *Socket, n int) []Packet {
	t.Helper()
	var got []Packet
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < n && time.Now().Before(deadline) {
		pkts, err := s.Receive(deadline)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkts {
			got = append(got, Packet{Addr: p.Addr, Data: bytes.Clone(p.Data), Arrived: p.Arrived})
		}
	}
	if len(got) != n {
		t.Fatalf("received %d of %d datagrams", len(got), n)
	}
	return got
}

// Queued datagrams leave at Flush, in batches; the receiver takes them in
// batches, in order, with their source address; oversize ones are dropped.
func TestSocketBatches(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", "[::]:0"} {
		t.Run(listen, func(t *testing.T) {
			a, b := listenT(t, listen), listenT(t, "127.0.0.1:0")
			to := b.LocalAddr()
			const n = 150 // more than a write batch
			for i := 0; i < n; i++ {
				if _, err := a.WriteToUDPAddrPort([]byte{byte(i), 1, 2, 3}, to); err != nil {
					t.Fatal(err)
				}
			}
			// Nothing has left before Flush beyond the full batches.
			if err := a.Flush(); err != nil {
				t.Fatal(err)
			}
			got := receiveN(t, b, n)
			for i, p := range got {
				if p.Data[0] != byte(i) || p.Addr.Port() != a.LocalAddr().Port() || !p.Addr.Addr().Is4() {
					t.Fatalf("datagram %d: %X from %v", i, p.Data, p.Addr)
				}
			}
			if w := a.Stats.Writes.Load(); w < 3 || w > 10 || a.Stats.Sent.Load() != n {
				t.Fatalf("%d datagrams in %d write calls", a.Stats.Sent.Load(), w)
			}
			if b.Stats.Reads.Load() >= n {
				t.Fatalf("one read call per datagram: %d", b.Stats.Reads.Load())
			}
			// An oversize datagram is dropped, the next one arrives.
			raw, err := stdnet.DialUDP("udp", nil, stdnet.UDPAddrFromAddrPort(to))
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			_, _ = raw.Write(make([]byte, MaxPacket+1))
			_, _ = raw.Write([]byte("ok"))
			if got := receiveN(t, b, 1); string(got[0].Data) != "ok" || b.Stats.Oversize.Load() != 1 {
				t.Fatalf("after the oversize datagram: %q, oversize %d", got[0].Data, b.Stats.Oversize.Load())
			}
		})
	}
}

// Receive returns at its deadline, and at once after a Wake from another
// goroutine; Close ends it with ErrSocketClosed.
func TestSocketWakeAndClose(t *testing.T) {
	s := listenT(t, "127.0.0.1:0")
	if pkts, err := s.Receive(time.Now().Add(time.Millisecond)); err != nil || len(pkts) != 0 {
		t.Fatalf("deadline: %v %v", pkts, err)
	}
	woke := make(chan struct{})
	go func() {
		s.Wake()
		close(woke)
	}()
	<-woke
	// The wake came before this Receive: it returns at once, without
	// waiting for the hour-long deadline.
	if pkts, err := s.Receive(time.Now().Add(time.Hour)); err != nil || len(pkts) != 0 {
		t.Fatalf("wake: %v %v", pkts, err)
	}
	done := make(chan error)
	go func() {
		_, err := s.Receive(time.Time{})
		done <- err
	}()
	s.Close()
	if err := <-done; err != ErrSocketClosed {
		t.Fatalf("after Close: %v", err)
	}
}

// A datagram's trip out of one socket and into another allocates nothing.
func BenchmarkSocketRoundTrip(b *testing.B) {
	a, c := listenT(b, "127.0.0.1:0"), listenT(b, "127.0.0.1:0")
	to := c.LocalAddr()
	msg := make([]byte, 60)
	const burst = 16
	b.ReportAllocs()
	for b.Loop() {
		for range burst {
			_, _ = a.WriteToUDPAddrPort(msg, to)
		}
		_ = a.Flush()
		for got := 0; got < burst; {
			pkts, err := c.Receive(time.Time{})
			if err != nil {
				b.Fatal(err)
			}
			got += len(pkts)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*burst), "ns/datagram")
}

// A read that empties the socket lets the next Receive wait without
// reading first; a datagram that arrives in between, or while it waits,
// is still received, one at a time as a light load sends them.
func TestSocketReceivesAfterADrainingRead(t *testing.T) {
	a, b := listenT(t, "127.0.0.1:0"), listenT(t, "127.0.0.1:0")
	to := b.LocalAddr()
	send := func(x byte) {
		t.Helper()
		if _, err := a.WriteToUDPAddrPort([]byte{x}, to); err != nil {
			t.Fatal(err)
		}
		if err := a.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range byte(50) {
		send(i)
		if i%2 == 0 {
			send(i + 100) // arrives before the next Receive
		}
		want := 1 + int(1-i%2)
		got := receiveN(t, b, want)
		if got[0].Data[0] != i || want == 2 && got[1].Data[0] != i+100 {
			t.Fatalf("round %d: got %v", i, got)
		}
	}
}

// A datagram that arrives after a short batch — a read that emptied the
// socket — ends the next Receive at once, however long its deadline: no
// wake-up is lost between the read and the wait (issue 39). Each round
// reads a short batch, then sends one datagram and asks for it with a
// deadline far beyond what a working wait needs; a lost wake-up shows as
// the Receive returning empty at that deadline.
func TestSocketNoLostWakeup(t *testing.T) {
	a, b := listenT(t, "127.0.0.1:0"), listenT(t, "127.0.0.1:0")
	to := b.LocalAddr()
	rounds := 1000
	if testing.Short() {
		rounds = 100
	}
	for round := range rounds {
		for i := range 3 { // a short batch
			if _, err := a.WriteToUDPAddrPort([]byte{byte(i)}, to); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Flush(); err != nil {
			t.Fatal(err)
		}
		receiveN(t, b, 3)
		// Sent from another goroutine: while this one waits for it, the
		// scheduler polls the network and may see the datagram's edge
		// before the Receive below begins to wait.
		sent := make(chan error)
		go func() {
			_, err := a.WriteToUDPAddrPort([]byte("late"), to)
			if err == nil {
				err = a.Flush()
			}
			sent <- err
		}()
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Second)
		pkts, err := b.Receive(deadline)
		if err != nil {
			t.Fatal(err)
		}
		// A lost wake-up ends the wait at its deadline, which then reads
		// the datagram: returning at the deadline is the failure, not
		// any shorter time.
		if !time.Now().Before(deadline) {
			t.Fatalf("round %d: the datagram after a short batch was seen only at the deadline", round)
		}
		if len(pkts) != 1 || string(pkts[0].Data) != "late" {
			t.Fatalf("round %d: %d packets, want the one sent", round, len(pkts))
		}
	}
}
