package engine

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/internal/vectors"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func vec(t testing.TB, file, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, file, name)
}

func newTestGame(t testing.TB, cfg Config, out bcnet.PacketWriter) *Game {
	t.Helper()
	g, err := NewGame(Options{Config: cfg, Out: out, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func feed(g *Game, now time.Time, from netip.AddrPort, plain []byte) {
	d := bytes.Clone(plain)
	alby.Encrypt(d)
	g.HandleDatagram(now, from, d)
	g.Flush(now)
}

func gameMsg(seq uint16, payload []byte) []byte {
	m := bcnet.Message{Type: bcnet.TypeGame, Reliable: true, HasSeq: true, Seq: seq, Payload: payload}
	return bcnet.AppendMessage(nil, &m)
}

// The whole stock join, driven with the captured client datagrams, answered
// with the captured server datagrams byte for byte (handshake.md 2).
func TestStockJoinBytes(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	// The game clock started 33.25 s before the join, as in the capture's
	// Settings; the whole join then happens at one instant so no
	// retransmission or ACK repeat falls due.
	g, err := NewGame(Options{Config: DefaultConfig(), Out: w, Now: t0.Add(-33250 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	cl := netip.MustParseAddrPort("10.10.10.239:5000")
	expect := func(step string, got [][]byte, want ...[]byte) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d datagrams, want %d: %X", step, len(got), len(want), got)
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%s: datagram %d\n got %X\nwant %X", step, i, got[i], want[i])
			}
		}
	}

	feed(g, t0, cl, vec(t, "transport.json", "client_connect_request"))
	expect("connect", w.TakeData(), vec(t, "transport.json", "server_connect_reply_plus_checksum_request_round0"), []byte{1, 1, 1, 0, 0, 2})

	identity := vec(t, "session.json", "server_keepalive_echo")
	feed(g, t0, cl, append([]byte{0x02, 0x03, 0x01, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00}, identity...))
	expect("identity", w.TakeData(), append([]byte{0x01, 0x02, 0x01, 0x01, 0x00, 0x02}, identity...))
	if p := g.Player(2); p == nil || p.Name != "Cady2" || p.Slot != 0 || p.State != StateChecksum {
		t.Fatalf("player %+v", p)
	}

	feed(g, t0, cl, vec(t, "transport.json", "client_checksum_response_round0"))
	expect("round 0", w.TakeData(), vec(t, "transport.json", "server_ack_plus_checksum_request_round1"))

	// In the capture the ACK of round 1 left separately; here it rides with
	// the request, so compare the request message itself.
	feed(g, t0, cl, vec(t, "transport.json", "client_checksum_response_round1"))
	req2 := vec(t, "transport.json", "server_checksum_request_round2")
	expect("round 1", w.TakeData(), append([]byte{0x01, 0x02, 0x01, 0x01, 0x00, 0x00}, req2[2:]...))

	// Round 2: the stock client's three fragments, built from the manifest
	// (832 bytes = 405 + 406 + 21) in the captured datagram split.
	m, _ := checksum.Vanilla()
	resp, ok := m.Answer(g.requests[2])
	if !ok {
		t.Fatal("no round-2 answer")
	}
	r2, err := resp.AppendTo(nil)
	if err != nil || len(r2) != 832 {
		t.Fatalf("round-2 response %d bytes, %v", len(r2), err)
	}
	frag := func(idx, count byte, part []byte) []byte {
		m := bcnet.Message{Type: bcnet.TypeGame, Reliable: true, HasSeq: true, Fragment: true, Seq: 2, FragIdx: idx, FragCount: count, Payload: part}
		return bcnet.AppendMessage(nil, &m)
	}
	d1 := append([]byte{0x02, 0x02, 0x01, 0x02, 0x00, 0x00}, frag(0, 3, r2[:405])...)
	if pfx := vec(t, "transport.json", "client_ack_plus_fragment0_of_checksum_response_round2"); !bytes.HasPrefix(d1, pfx) || len(d1) != 418 {
		t.Fatalf("fragment 0 datagram differs from the capture: %X", d1[:20])
	}
	feed(g, t0, cl, d1)
	expect("fragment 0", w.TakeData(), []byte{0x01, 0x01, 0x01, 0x02, 0x00, 0x01, 0x00})
	d2 := append([]byte{0x02, 0x02}, frag(1, 0, r2[405:811])...)
	d2 = append(d2, frag(2, 0, r2[811:])...)
	if len(d2) != 441 { // the largest datagram seen in the capture
		t.Fatalf("fragments 1+2: %d bytes", len(d2))
	}
	feed(g, t0, cl, d2)
	expect("fragments 1, 2", w.TakeData(), vec(t, "transport.json", "server_fragment_acks_plus_checksum_request_round3"))

	feed(g, t0, cl, vec(t, "transport.json", "client_ack_plus_checksum_response_round3"))
	expect("round 3", w.TakeData(), vec(t, "transport.json", "server_ack_plus_checksum_request_final_round"))

	// Round 0xFF: the vanilla manifest has no entry, so any well-formed
	// tree passes; Settings carries the game time at this moment.
	rff, _ := codec.ChecksumResponse{Round: 0xFF, DirHash: checksum.RequestDirHash("Scripts/Multiplayer")}.AppendTo(nil)
	now := t0
	feed(g, now, cl, append([]byte{0x02, 0x01}, gameMsg(4, rff)...))
	expect("round 0xFF", w.TakeData(), []byte{0x01, 0x01, 0x01, 0x04, 0x00, 0x00}, vec(t, "transport.json", "server_checksum_complete_settings_gameinit_bundle"))
	if p := g.Player(2); p.State != StateLoading {
		t.Fatalf("state %v", p.State)
	}

	var joined, inGame int
	g.On(EvPlayerJoined, func(Event) { joined++ })
	g.On(EvPlayerInGame, func(e Event) {
		inGame++
		if joined != 1 {
			t.Error("player_in_game before player_joined")
		}
	})
	feed(g, now, cl, vec(t, "transport.json", "client_new_player_in_game"))
	want := append([]byte{0x01, 0x02, 0x01, 0x05, 0x00, 0x00}, gameMsg(8, vec(t, "session.json", "player_joined_event_0x17"))...)
	expect("NewPlayerInGame", w.TakeData(), want)
	if joined != 1 || inGame != 1 || !g.Player(2).InGame() || g.Stats.Joins.Load() != 1 {
		t.Fatalf("joined %d inGame %d", joined, inGame)
	}

	// Graceful leave: no other player to tell; player_left fires.
	var left []LeaveReason
	g.On(EvPlayerLeft, func(e Event) { left = append(left, e.(*PlayerLeft).Reason) })
	feed(g, now, cl, vec(t, "transport.json", "client_graceful_disconnect"))
	if len(left) != 1 || left[0] != LeaveQuit || g.Player(2) != nil || g.NumPlayers(false) != 0 {
		t.Fatalf("left %v", left)
	}
}

// joinPlayer runs a complete join with a transport Client answering from
// the vanilla manifest, on the fake wire.
type fakeClient struct {
	t    *testing.T
	g    *Game
	w    *testutil.Wire
	addr netip.AddrPort
	c    *bcnet.Client
	ev   *clientEv
	now  time.Time
}

type clientEv struct {
	accepted     byte
	msgs         [][]byte
	boot         bcnet.BootReason
	booted       bool
	disconnected bool
	peers        map[byte]string
}

func (e *clientEv) Accepted(id byte)                { e.accepted = id }
func (e *clientEv) Message(p []byte, reliable bool) { e.msgs = append(e.msgs, bytes.Clone(p)) }
func (e *clientEv) Booted(r bcnet.BootReason)       { e.boot, e.booted = r, true }
func (e *clientEv) Disconnected()                   { e.disconnected = true }
func (e *clientEv) Peer(id byte, name string) {
	if e.peers == nil {
		e.peers = map[byte]string{}
	}
	e.peers[id] = name
}
func (e *clientEv) PeerGone(id byte) { delete(e.peers, id) }

func newFakeClient(t *testing.T, g *Game, w *testutil.Wire, port uint16, name string) *fakeClient {
	return newClientWith(t, g, w, port, bcnet.ClientOptions{Name: name})
}

// newClientWith connects a fake client from 127.0.0.1:port announcing opts.
func newClientWith(t *testing.T, g *Game, w *testutil.Wire, port uint16, opts bcnet.ClientOptions) *fakeClient {
	ev := &clientEv{}
	fc := &fakeClient{t: t, g: g, w: w, addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port), ev: ev, now: g.now}
	opts.IP = [4]byte{127, 0, 0, 1}
	fc.c = bcnet.NewClient(bcnet.Config{}, ev, opts, g.now)
	_ = fc.c.Connect()
	return fc
}

// pump exchanges datagrams between the client and the game until quiet.
func (fc *fakeClient) pump(answer func(payload []byte) []byte) {
	for i := 0; i < 50; i++ {
		moved := false
		for d := fc.c.Flush(fc.now, nil); d != nil; d = fc.c.Flush(fc.now, nil) {
			feed(fc.g, fc.now, fc.addr, d)
			moved = true
		}
		var keep []testutil.Datagram
		for _, s := range fc.w.Sent {
			if s.To != fc.addr {
				keep = append(keep, s)
				continue
			}
			before := len(fc.ev.msgs)
			_ = fc.c.Receive(fc.now, s.Data)
			for _, m := range fc.ev.msgs[before:] {
				// As the stock client: adopt a rename from Settings and
				// announce it with the identity (handshake.md 2.5).
				if m[0] == codec.OpSettings {
					if st, err := codec.DecodeSettings(m); err == nil && st.NameChanged {
						_ = fc.c.SetName(st.NewName)
					}
				}
				if answer != nil {
					if r := answer(m); r != nil {
						_ = fc.c.Send(r, true)
					}
				}
			}
			moved = true
		}
		fc.w.Sent = keep
		if !moved {
			return
		}
	}
}

func vanillaAnswer(t *testing.T) func([]byte) []byte {
	m, err := checksum.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	return func(p []byte) []byte {
		switch p[0] {
		case codec.OpChecksumRequest:
			req, err := codec.DecodeChecksumRequest(p)
			if err != nil {
				t.Fatal(err)
			}
			resp, ok := m.Answer(req)
			if !ok {
				resp = codec.ChecksumResponse{Round: req.Round, DirHash: checksum.RequestDirHash(req.Dir)}
			}
			b, _ := resp.AppendTo(nil)
			return b
		case codec.OpGameInit:
			return codec.NewPlayerInGame{}.AppendTo(nil)
		}
		return nil
	}
}

func TestTwoPlayersJoinAndLeave(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	a := newFakeClient(t, g, w, 5001, "Alice")
	a.pump(vanillaAnswer(t))
	b := newFakeClient(t, g, w, 5002, "Bob")
	b.pump(vanillaAnswer(t))
	a.pump(nil)
	pa, pb := g.Player(2), g.Player(3)
	if pa == nil || pb == nil || !pa.InGame() || !pb.InGame() || pa.Slot != 0 || pb.Slot != 1 {
		t.Fatalf("players %+v %+v", pa, pb)
	}
	// Bob's Settings carry slot 1; Bob learns Alice then himself; Alice learns Bob.
	ops := func(ms [][]byte, op byte) (out [][]byte) {
		for _, m := range ms {
			if m[0] == op {
				out = append(out, m)
			}
		}
		return
	}
	set := ops(b.ev.msgs, codec.OpSettings)
	if len(set) != 1 || set[0][6] != 1 {
		t.Fatalf("bob settings %X", set)
	}
	peersOf := func(ms [][]byte) (ids []byte) {
		for _, m := range ops(ms, codec.OpPlayerListEvent) {
			ev, _ := codec.DecodePlayerListEvent(m)
			ids = append(ids, ev.PeerID)
		}
		return
	}
	if got := peersOf(b.ev.msgs); !bytes.Equal(got, []byte{2, 3}) {
		t.Fatalf("bob's player list %v", got)
	}
	if got := peersOf(a.ev.msgs); !bytes.Equal(got, []byte{2, 3}) {
		t.Fatalf("alice's player list %v", got)
	}
	// Bob quits: Alice gets 0x17 (left) and 0x18 with his name.
	_ = b.c.Disconnect()
	b.pump(nil)
	a.pump(nil)
	last := a.ev.msgs[len(a.ev.msgs)-2:]
	leftEv, err := codec.DecodePlayerListEvent(last[0])
	anim, err2 := codec.DecodeDeletePlayerAnim(last[1])
	if err != nil || err2 != nil || leftEv.Code != codec.EventPlayerLeft || leftEv.PeerID != 3 || string(anim.Name) != "Bob" {
		t.Fatalf("leave messages %X (%v %v)", last, err, err2)
	}
	if g.Player(3) != nil || g.NumPlayers(true) != 1 {
		t.Fatal("bob still there")
	}
	// The slot is free again: a third player takes slot 1 (lowest free)
	// but a new wire id, 4 (next-fit, transport.md 2.2).
	c := newFakeClient(t, g, w, 5003, "Carol")
	c.pump(vanillaAnswer(t))
	if p := g.Player(4); p == nil || p.Slot != 1 || p.Name != "Carol" || !p.InGame() {
		t.Fatalf("carol %+v", p)
	}
}

func TestHandshakeTimeouts(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	g := newTestGame(t, cfg, w)
	var left []LeaveReason
	g.On(EvPlayerLeft, func(e Event) { left = append(left, e.(*PlayerLeft).Reason) })
	// A client that connects and never answers round 0.
	c := newFakeClient(t, g, w, 5001, "Mute")
	c.pump(nil)
	c.now = c.now.Add(cfg.RoundTimeout - time.Millisecond)
	g.Advance(c.now)
	if g.NumPlayers(false) != 1 {
		t.Fatal("dropped early")
	}
	c.now = c.now.Add(time.Millisecond)
	g.Advance(c.now)
	c.pump(nil)
	if g.NumPlayers(false) != 0 || !c.ev.booted || c.ev.boot != bcnet.BootTimedOut || g.Stats.Timeouts.Load() != 1 {
		t.Fatalf("mute client: players %d booted %v", g.NumPlayers(false), c.ev.booted)
	}
	// An in-game client that goes silent is dropped after 45 s.
	d := newFakeClient(t, g, w, 5002, "Quiet")
	d.now = c.now
	d.pump(vanillaAnswer(t))
	if p := g.Player(3); p == nil || !p.InGame() {
		t.Fatal("not in game")
	}
	g.Advance(d.now.Add(44 * time.Second))
	if g.NumPlayers(false) != 1 {
		t.Fatal("dropped before 45 s")
	}
	g.Advance(d.now.Add(45 * time.Second))
	if g.NumPlayers(false) != 0 || len(left) != 2 || left[1] != LeaveTimeout {
		t.Fatalf("silent client: left %v", left)
	}
}

// Out-of-order and bad handshake messages are dropped and counted; they
// never break the join.
func TestBadHandshakeMessages(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	c := newFakeClient(t, g, w, 5001, "Odd")
	answer := vanillaAnswer(t)
	sentJunk := false
	c.pump(func(p []byte) []byte {
		if !sentJunk && p[0] == codec.OpChecksumRequest {
			sentJunk = true
			_ = c.c.Send([]byte{0x2C, 2, 0, 0, 0, 1, 0, 'x'}, true)     // chat before validation
			_ = c.c.Send([]byte{0x21, 0x03, 0, 0, 0, 0, 0, 0, 0}, true) // wrong round
			_ = c.c.Send([]byte{0x2A, 0x20}, true)                      // NewPlayerInGame too early
		}
		return answer(p)
	})
	if p := g.Player(2); p == nil || !p.InGame() {
		t.Fatalf("junk broke the join: %+v", p)
	}
	if n := g.Stats.HandshakeDropped.Load(); n != 3 {
		t.Fatalf("dropped %d, want 3", n)
	}
}

// FuzzGameMessage feeds arbitrary game payloads to players in every join
// state: nothing panics and the game keeps its invariants.
func FuzzGameMessage(f *testing.F) {
	akiraSpawn := vec(f, "simulation.json", "objcreateteam_akira_spawn")
	f.Add(vec(f, "simulation.json", "collision_effect_P1_single_contact"), uint8(6))
	f.Add([]byte{0x13}, uint8(6))
	f.Add(codec.PulseFire{CannonID: shipA + 20, FiringPlayer: 2, Flags: codec.PulseArg | codec.PulseHasTarget, Target: shipA}.AppendTo(nil), uint8(6))
	// Stock phaser fire: source 0, the weapon system as destination.
	f.Add(codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet, Dst: shipA + 20, Target: shipA}.AppendTo(nil), uint8(6))
	f.Add(codec.CharEvent{Op: codec.OpSetPhaserLevel, Code: codec.EventSetPhaserLevel, Dst: shipA + 20, Value: 2}.AppendTo(nil), uint8(6))
	f.Add(vec(f, "simulation.json", "torpedo_fire_targeted_akira_tube"), uint8(6))
	f.Add([]byte{0x21, 0x00, 0x43, 0xE2, 0x0C, 0x7E}, uint8(0))
	f.Add([]byte{0x2A, 0x20}, uint8(1))
	f.Add([]byte{0x2C, 2, 0, 0, 0, 2, 0, 'h', 'i'}, uint8(2))
	f.Add([]byte{0x21, 0xFF, 0xFF, 0xFF}, uint8(0))
	f.Fuzz(func(t *testing.T, payload []byte, state uint8) {
		w := &testutil.Wire{Open: alby.Decrypt}
		g := newTestGame(t, DefaultConfig(), w)
		c := newFakeClient(&testing.T{}, g, w, 5001, "F")
		c.pump(nil)
		p := g.Player(2)
		if p == nil {
			t.Fatal("no player")
		}
		p.State = []PlayerState{StateChecksum, StateLoading, StateInGame, StateRejected}[state%4]
		if p.State == StateInGame && state&4 != 0 {
			// With a ship, so collision, weapon and state paths run too.
			g.message(p.peer, akiraSpawn, true)
			g.message(p.peer, moveMsg(shipA, [3]float32{1, 2, 3}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
		}
		g.message(p.peer, payload, true)
		g.Advance(t0.Add(time.Second))
		g.Advance(t0.Add(20 * time.Second))
	})
}
