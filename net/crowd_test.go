package net

import (
	"testing"
	"time"
)

// The per-address cap tells a crowd from a flood by whether the connects
// answer (issue 21): sixteen connects from one address in the same instant
// all get their reply and all get in; a seventeenth while they are still
// expected to answer waits (no reply, nobody displaced); once one has had
// the answer window and never answered, a new connect displaces it, and
// the displaced client is told with a "server full" boot it can show.
func TestCrowdBehindOneAddress(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	const crowd = 16
	for i := 0; i < crowd; i++ {
		f.h.HandleDatagram(f.now, addr(uint16(6000+i)), enc(connectDatagram(uint32(i+1), "")))
	}
	f.h.Flush(f.now)
	peers := make([]*Peer, crowd)
	for i := range peers {
		if peers[i] = f.h.peers[addr(uint16(6000+i))]; peers[i] == nil {
			t.Fatalf("connect %d got no peer", i)
		}
	}
	// One more from the same address before anyone answered: it waits.
	f.in(7000, connectDatagram(99, ""))
	if f.h.peers[addr(7000)] != nil || f.h.Stats.Deferred != 1 || f.h.Stats.Displaced != 0 || len(f.msgs(7000, true)) != 0 {
		t.Fatalf("17th connect: peer %v, stats %+v", f.h.peers[addr(7000)], f.h.Stats)
	}
	// Fifteen answer; every one of them is in.
	for i := 0; i < crowd-1; i++ {
		f.in(uint16(6000+i), ackDatagram(peers[i].ID, 0))
		if !peers[i].Verified() || f.h.peers[addr(uint16(6000+i))] != peers[i] {
			t.Fatalf("crowd member %d: verified %v", i, peers[i].Verified())
		}
	}
	if len(f.ev.verified) != crowd-1 {
		t.Fatalf("%d verified", len(f.ev.verified))
	}
	// The last never answers. Once its window is over, a new connect
	// from the address displaces it, and it hears why.
	f.msgs(6000+crowd-1, true)
	f.now = f.now.Add(f.h.cfg.AnswerWindow)
	for i := 0; i < crowd; i++ { // fill the address's cap again
		f.h.HandleDatagram(f.now, addr(uint16(8000+i)), enc(connectDatagram(uint32(100+i), "")))
	}
	f.h.Flush(f.now)
	if f.h.Stats.Displaced != 1 || f.h.peers[addr(6000+crowd-1)] != nil {
		t.Fatalf("after the window: stats %+v", f.h.Stats)
	}
	var boot *Message
	ms := f.msgs(6000+crowd-1, false)
	for i := range ms {
		if ms[i].Type == TypeBoot {
			boot = &ms[i]
		}
	}
	if boot == nil || boot.Payload[0] != byte(BootFull) || boot.Payload[1] != peers[crowd-1].ID {
		t.Fatalf("the displaced client was sent %s", kinds(ms))
	}
	if f.h.Stats.Refused != 0 {
		t.Fatalf("refused %d", f.h.Stats.Refused)
	}
	f.now = f.now.Add(time.Second)
	for i := 0; i < crowd-1; i++ {
		if f.h.peers[addr(uint16(6000+i))] != peers[i] {
			t.Fatalf("crowd member %d lost", i)
		}
	}
}
