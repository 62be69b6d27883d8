package net

import (
	"bytes"
	"net/netip"
	"testing"
	"time"
)

func from(ip string, port uint16) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr(ip), port)
}

// Connects that never answer the reply (spoofed sources, or one address
// opening sessions from ever new ports) hold no transport slot: they only
// displace each other, and a real joiner gets in while they keep coming.
func TestUnverifiedConnectsHoldNoSlot(t *testing.T) {
	f := newHostFixture(t, HostConfig{MaxPeers: 3})
	real := f.join(5000, "Real")
	if !real.Verified() || len(f.ev.verified) != 1 {
		t.Fatalf("the real joiner is not verified: %v", f.ev.verified)
	}
	realIDs := map[byte]bool{real.ID: true}
	for round := 0; round < 5; round++ {
		// 100 spoofed addresses ...
		for i := 0; i < 100; i++ {
			f.h.HandleDatagram(f.now, from("10.9."+itoa(i/250)+"."+itoa(i%250+1), 4000), enc(connectDatagram(uint32(i+1), "")))
		}
		// ... and one address from 50 ports.
		for i := 0; i < 50; i++ {
			f.h.HandleDatagram(f.now, from("192.0.2.7", uint16(20000+round*50+i)), enc(connectDatagram(uint32(i+1), "")))
		}
		f.h.Flush(f.now)
		if f.h.pending > f.h.cfg.MaxPending || f.h.pendingByAddr[netip.MustParseAddr("192.0.2.7")] > f.h.cfg.PendingPerAddr {
			t.Fatalf("round %d: %d pending, %d from one address", round, f.h.pending, f.h.pendingByAddr[netip.MustParseAddr("192.0.2.7")])
		}
		// A real joiner connects in the middle of it and answers.
		p := f.join(uint16(5001+round%2), "")
		if p.closing || !p.Verified() {
			t.Fatalf("round %d: real joiner refused", round)
		}
		realIDs[p.ID] = true
		f.in(uint16(5001+round%2), ctlDatagram(p.ID, TypeDisconnect, 1, []byte{p.ID, 127, 0, 0, 1}))
		f.now = f.now.Add(time.Second)
	}
	if f.h.Stats.Refused != 0 {
		t.Fatalf("%d connects refused", f.h.Stats.Refused)
	}
	// The unverified are forgotten without a word to anyone and leave with
	// their own reason; nothing was relayed to the real player.
	nUnverified := 0
	for _, r := range f.ev.left {
		if r == LeftUnverified {
			nUnverified++
		}
	}
	if nUnverified == 0 || f.h.Stats.Unverified != uint64(nUnverified) {
		t.Fatalf("left %v, stats %+v", f.ev.left, f.h.Stats)
	}
	for _, m := range f.msgs(5000, false) {
		if (m.Type == TypeBoot && !realIDs[m.Payload[1]]) || (m.Type == TypeDisconnect && !realIDs[m.Payload[0]]) {
			t.Fatalf("the real player heard of an unverified peer: %02X %X", m.Type, m.Payload)
		}
	}
	// Left alone, the rest time out.
	f.now = f.now.Add(f.h.cfg.VerifyTimeout)
	f.h.Tick(f.now)
	if f.h.pending != 0 || len(f.h.pendingByAddr) != 0 || f.h.NumPeers() != 1 {
		t.Fatalf("after the verify timeout: %d pending, %d peers", f.h.pending, f.h.NumPeers())
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// A stranger's datagrams past its budget are dropped before decryption;
// peers are never limited.
func TestStrangerBudget(t *testing.T) {
	f := newHostFixture(t, HostConfig{StrangerRate: 2, StrangerBurst: 3, StrangerTotal: 10})
	p := f.join(5000, "")
	junk := []byte{0xFF, 0x01, 0x99}
	for i := 0; i < 20; i++ {
		f.h.HandleDatagram(f.now, from("198.51.100.1", 1), bytes.Clone(junk))
	}
	if f.h.Stats.StrangersDropped != 17 {
		t.Fatalf("dropped %d of 20, want 17 (burst 3)", f.h.Stats.StrangersDropped)
	}
	// Many addresses share the per-game total.
	for i := 0; i < 20; i++ {
		f.h.HandleDatagram(f.now, from("198.51.100.2", uint16(i)), bytes.Clone(junk))
		f.h.HandleDatagram(f.now, from("198.51.100.3", uint16(i)), bytes.Clone(junk))
		f.h.HandleDatagram(f.now, from("198.51.100."+itoa(10+i), 1), bytes.Clone(junk))
	}
	if seen := f.h.Stats.Datagrams - f.h.Stats.StrangersDropped; seen > 3+2+10 {
		t.Fatalf("%d stranger datagrams looked at, over the total", seen)
	}
	// The peer's own traffic is untouched by any of it.
	for i := uint16(0); i < 50; i++ {
		f.in(5000, ctlDatagram(p.ID, TypeData, 1+i, identityPayload(p.ID, "N"+itoa(int(i)))))
	}
	if acked := len(f.msgs(5000, true)); acked == 0 {
		t.Fatal("the peer got nothing back")
	}
	// The buckets refill.
	dropped := f.h.Stats.StrangersDropped
	f.now = f.now.Add(2 * time.Second)
	f.h.HandleDatagram(f.now, from("198.51.100.1", 1), bytes.Clone(junk))
	if f.h.Stats.StrangersDropped != dropped {
		t.Fatal("the stranger's budget did not refill")
	}
}

// GameSpy replies and refusals of every game of a process share one byte
// budget, however many addresses the queries claim to come from.
func TestAnswerBudgetShared(t *testing.T) {
	budget := NewAnswerBudget(1000)
	reply := bytes.Repeat([]byte{'x'}, 300)
	mk := func() *hostFixture {
		f := newHostFixture(t, HostConfig{Answers: budget})
		f.h.cfg.Query = func(_ time.Time, _ netip.AddrPort, _ []byte, send func([]byte)) { send(reply) }
		return f
	}
	a, b := mk(), mk()
	for i := 0; i < 50; i++ {
		a.h.HandleDatagram(t0, from("203.0.113."+itoa(i+1), 1), []byte(`\status\`))
		b.h.HandleDatagram(t0, from("203.0.113."+itoa(i+100), 1), []byte(`\status\`))
	}
	sent := len(a.out.Take()) + len(b.out.Take())
	if sent != 3 || budget.Dropped() != 97 {
		t.Fatalf("%d replies sent, %d dropped; want 3 and 97", sent, budget.Dropped())
	}
	if a.h.Stats.AnswersDropped+b.h.Stats.AnswersDropped != 97 {
		t.Fatalf("host stats %d + %d", a.h.Stats.AnswersDropped, b.h.Stats.AnswersDropped)
	}
}

// Hosts on different goroutines read the clock at slightly different
// moments, so the shared budget sees times that go back and forth; the
// same interval must not be credited twice.
func TestAnswerBudgetClockJitter(t *testing.T) {
	budget := NewAnswerBudget(1000) // 1000 bytes a second, bursts of as much
	if !budget.Take(t0, 1000) {
		t.Fatal("the first burst was refused")
	}
	sent := 0
	for i := 0; i < 100; i++ {
		// Host a is 100 ms ahead of host b; neither clock moves.
		if budget.Take(t0.Add(100*time.Millisecond), 50) {
			sent += 50
		}
		if budget.Take(t0, 50) {
			sent += 50
		}
	}
	if sent != 100 {
		t.Fatalf("%d bytes sent in 100 ms at 1000 B/s after the burst; want 100", sent)
	}
}

// The peer whose next-fit id is 92 ('\\') is still a game peer: its
// datagrams are not taken for GameSpy queries.
func TestPeerID92IsNotAQuery(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	var p *Peer
	for i := 0; i < 91; i++ {
		p = f.join(uint16(6000+i), "")
	}
	if p.ID != 92 || !p.Verified() {
		t.Fatalf("peer %d verified %v", p.ID, p.Verified())
	}
	queries := f.h.Stats.Queries
	f.in(6090, ctlDatagram(92, TypeData, 1, identityPayload(92, "Backslash")))
	if f.h.Stats.Queries != queries || len(f.ev.ids) == 0 || f.ev.ids[len(f.ev.ids)-1].Name != "Backslash" {
		t.Fatalf("identity from peer 92: queries %d->%d, ids %v", queries, f.h.Stats.Queries, f.ev.ids)
	}
	// A query from that address is still a query.
	f.h.HandleDatagram(f.now, addr(6090), []byte(`\status\`))
	if f.h.Stats.Queries != queries+1 {
		t.Fatal("a query from peer 92's address was not taken as one")
	}
}

// A spoofed connect flood from 100 addresses keeps the unverified peers
// full, yet a real joiner's connect, from an address that has not been
// sending, is not displaced by the flood's later connects while its first
// answer is on the way: the flood's busiest addresses give way first.
func TestFloodDisplacesItsOwnConnects(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	n := uint32(0)
	flood := func(count int) {
		for i := 0; i < count; i++ {
			n++
			f.h.HandleDatagram(f.now, from("10.9.0."+itoa(int(n)%100+1), uint16(4000+n%50000)), enc(connectDatagram(n, "")))
		}
	}
	for range 20 { // a second of flooding at ~1000 connects a second
		flood(50)
		f.now = f.now.Add(50 * time.Millisecond)
	}
	if f.h.pending != f.h.cfg.MaxPending {
		t.Fatalf("%d unverified peers, want the limit %d", f.h.pending, f.h.cfg.MaxPending)
	}
	real := from("192.0.2.50", 5000)
	f.h.HandleDatagram(f.now, real, enc(connectDatagram(77, "")))
	p := f.h.peers[real]
	if p == nil {
		t.Fatal("the real connect got no peer")
	}
	// Far more flood connects than there are places arrive before its
	// answer does.
	f.now = f.now.Add(30 * time.Millisecond)
	flood(3 * f.h.cfg.MaxPending)
	if f.h.peers[real] != p {
		t.Fatal("the flood displaced the real joiner's connect")
	}
	f.h.HandleDatagram(f.now, real, enc(ackDatagram(p.ID, 0)))
	if !p.Verified() || f.h.Stats.Refused != 0 {
		t.Fatalf("verified %v, refused %d", p.Verified(), f.h.Stats.Refused)
	}
}
