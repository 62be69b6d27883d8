package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// firstDatagramTo returns the messages of the first datagram sent to port
// that is still on the wire.
func firstDatagramTo(t *testing.T, w *testutil.Wire, port uint16) []bcnet.Message {
	t.Helper()
	for _, s := range w.Sent {
		if s.To.Port() == port {
			_, ms, err := bcnet.ParseDatagram(s.Data, nil)
			if err != nil {
				t.Fatal(err)
			}
			return ms
		}
	}
	t.Fatalf("nothing sent to %d", port)
	return nil
}

// The joiner past the limit gets the connect reply, then a reason-3 boot
// naming its new id (handshake.md 2.1), never a refusal instead of the
// reply.
func TestServerFullBootsAfterReply(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.MaxPlayers = 2
	g := newTestGame(t, cfg, w)
	for i := 0; i < 2; i++ {
		newFakeClient(t, g, w, uint16(5001+i), fmt.Sprint("P", i)).pump(vanillaAnswer(t))
	}
	c := newFakeClient(t, g, w, 5003, "Late")
	for d := c.c.Flush(c.now, nil); d != nil; d = c.c.Flush(c.now, nil) {
		feed(g, c.now, c.addr, d)
	}
	ms := firstDatagramTo(t, w, 5003)
	var types []byte
	for _, m := range ms {
		types = append(types, m.Type)
	}
	// Reply (id 4), the identities of the two players, the boot.
	if !bytes.Equal(types, []byte{bcnet.TypeConnect, bcnet.TypeData, bcnet.TypeData, bcnet.TypeBoot}) ||
		!bytes.Equal(ms[0].Payload, []byte{4}) || !bytes.Equal(ms[3].Payload, []byte{byte(bcnet.BootFull), 4}) {
		t.Fatalf("to the late joiner: %v", ms)
	}
	c.pump(nil)
	if c.ev.accepted != 4 || !c.ev.booted || c.ev.boot != bcnet.BootFull || g.NumPlayers(false) != 2 || g.Player(4) != nil {
		t.Fatalf("late joiner: accepted %d booted %v reason %d", c.ev.accepted, c.ev.booted, c.ev.boot)
	}
	if g.host.Lingering() != 0 {
		t.Fatal("the booted peer still lingers after its ACK")
	}
	// Spare transport peers let several joiners hear "full" at once.
	for i := 0; i < spareTransportPeers; i++ {
		x := newFakeClient(t, g, w, uint16(6000+i), "X")
		for d := x.c.Flush(x.now, nil); d != nil; d = x.c.Flush(x.now, nil) {
			feed(g, x.now, x.addr, d)
		}
	}
	if g.host.Lingering() != spareTransportPeers {
		t.Fatalf("lingering %d", g.host.Lingering())
	}
}

func TestNotAcceptingRefusedBeforeReply(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	g.SetAccepting(false)
	d := newFakeClient(t, g, w, 5004, "Closed")
	d.pump(nil)
	if !d.ev.booted || d.ev.boot != bcnet.BootRefused || d.ev.accepted != 0 {
		t.Fatalf("closed game: booted %v reason %d accepted %d", d.ev.booted, d.ev.boot, d.ev.accepted)
	}
}

// A game loading its mission answers no connect (the stock client
// repeats it about once a second) and refuses nobody: once loaded, the
// repeated connect gets in. A wrong password is still refused at once.
func TestLoadingDefersConnects(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.Password = "Secret"
	g := newTestGame(t, cfg, w)
	g.SetLoading(true)
	if g.Accepting() || !g.Loading() {
		t.Fatalf("loading: accepting %v loading %v", g.Accepting(), g.Loading())
	}
	c := newClientWith(t, g, w, 5001, bcnet.ClientOptions{Name: "Early", Password: "Secret"})
	for d := c.c.Flush(c.now, nil); d != nil; d = c.c.Flush(c.now, nil) {
		feed(g, c.now, c.addr, d)
	}
	for _, s := range w.Sent {
		if s.To.Port() == 5001 {
			t.Fatalf("answered a connect while loading: % x", s.Data)
		}
	}
	if g.host.Stats.Deferred != 1 || g.host.Stats.Refused != 0 || g.host.NumPeers() != 0 {
		t.Fatalf("while loading: deferred %d refused %d peers %d", g.host.Stats.Deferred, g.host.Stats.Refused, g.host.NumPeers())
	}
	wrong := newClientWith(t, g, w, 5002, bcnet.ClientOptions{Name: "Guess", Password: "nope"})
	wrong.pump(nil)
	if !wrong.ev.booted || wrong.ev.boot != bcnet.BootRefused {
		t.Fatalf("wrong password while loading: booted %v reason %d", wrong.ev.booted, wrong.ev.boot)
	}
	g.SetLoading(false)
	// The client's repeated connect (its retransmission) gets in.
	c.now = c.now.Add(1100 * time.Millisecond)
	c.pump(vanillaAnswer(t))
	if !g.Accepting() || g.NumPlayers(true) != 1 {
		t.Fatalf("after loading: accepting %v players %d", g.Accepting(), g.NumPlayers(true))
	}
}

func TestPasswordEnforced(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.Password = "Secret"
	g := newTestGame(t, cfg, w)
	for _, tc := range []struct {
		password string
		ok       bool
	}{{"", false}, {"secret!", false}, {"Secr", false}, {"sECRET", true}} {
		c := newClientWith(t, g, w, 5001, bcnet.ClientOptions{Name: "P" + tc.password, Password: tc.password})
		c.pump(vanillaAnswer(t))
		joined := g.NumPlayers(true) == 1
		if joined != tc.ok || (!tc.ok && (c.ev.boot != bcnet.BootRefused || c.ev.accepted != 0)) {
			t.Fatalf("password %q: joined %v boot %d", tc.password, joined, c.ev.boot)
		}
	}
}

func TestBans(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	file := filepath.Join(t.TempDir(), "banlist.txt")
	cfg.BanFile = file
	g := newTestGame(t, cfg, w)
	alice := newFakeClient(t, g, w, 5001, "Alice")
	alice.pump(vanillaAnswer(t))

	// A name is known only from the identity: connect reply, then the
	// reason-5 boot; the others never hear of the banned player.
	if err := g.Ban("name:GRIEFER"); err != nil {
		t.Fatal(err)
	}
	gr := newFakeClient(t, g, w, 5002, "griefer")
	gr.pump(vanillaAnswer(t))
	alice.pump(nil)
	if gr.ev.accepted != 3 || gr.ev.boot != bcnet.BootBanned || g.NumPlayers(false) != 1 || len(alice.ev.peers) != 0 {
		t.Fatalf("name ban: accepted %d boot %d players %d alice's peers %v", gr.ev.accepted, gr.ev.boot, g.NumPlayers(false), alice.ev.peers)
	}
	// An address ban (octet 255 = any) refuses before any reply, and boots
	// the connected players it matches.
	if err := g.Ban("127.0.0.255"); err != nil {
		t.Fatal(err)
	}
	alice.pump(nil)
	if alice.ev.boot != bcnet.BootBanned || g.NumPlayers(false) != 0 {
		t.Fatalf("alice after the address ban: boot %d", alice.ev.boot)
	}
	b := newFakeClient(t, g, w, 5003, "Bob")
	b.pump(vanillaAnswer(t))
	if b.ev.accepted != 0 || b.ev.boot != bcnet.BootBanned {
		t.Fatalf("address ban: accepted %d boot %d", b.ev.accepted, b.ev.boot)
	}
	if got := strings.Join(g.Bans(), ","); got != "name:GRIEFER,127.0.0.255" {
		t.Fatalf("bans %s", got)
	}
	data, _ := os.ReadFile(file)
	if !strings.HasSuffix(string(data), "name:GRIEFER\n127.0.0.255\n") {
		t.Fatalf("ban file:\n%s", data)
	}
	// Lifting it lets Bob in; the file follows.
	if err := g.Unban("127.0.0.255"); err != nil {
		t.Fatal(err)
	}
	if err := g.Unban("127.0.0.255"); err == nil {
		t.Fatal("second unban succeeded")
	}
	b = newFakeClient(t, g, w, 5004, "Bob")
	b.pump(vanillaAnswer(t))
	if p := g.Player(b.ev.accepted); p == nil || !p.InGame() {
		t.Fatal("bob not in after the unban")
	}
	// The file is read at start; a fixed ban cannot be lifted at run time.
	cfg.Bans = []string{"name:bob"}
	g2 := newTestGame(t, cfg, w)
	if got := strings.Join(g2.Bans(), ","); got != "name:bob,name:GRIEFER" {
		t.Fatalf("reloaded bans %s", got)
	}
	if err := g2.Unban("name:Bob"); err == nil {
		t.Fatal("lifted a ban from the configuration")
	}
	if err := g2.Ban("bogus"); err == nil {
		t.Fatal("bad entry accepted")
	}
	cfg.BanFile = filepath.Join(t.TempDir(), "bad.txt")
	_ = os.WriteFile(cfg.BanFile, []byte("1.2.3\n"), 0o644)
	if _, err := NewGame(Options{Config: cfg, Out: w, Now: t0}); err == nil || !strings.Contains(err.Error(), "bad.txt:1") {
		t.Fatalf("bad ban file: %v", err)
	}
}

// A joiner whose name is in use (A..Z case-insensitive) is renamed before
// Settings: bit 2 plus the new name; it adopts the name and its identity
// is relayed to everyone (handshake.md 2.5, transport.md 10.2).
func TestDuplicateNameRenamed(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	a := newFakeClient(t, g, w, 5001, "Ace")
	a.pump(vanillaAnswer(t))
	b := newFakeClient(t, g, w, 5002, "ACE")
	b.pump(vanillaAnswer(t))
	c := newFakeClient(t, g, w, 5003, "ace")
	c.pump(vanillaAnswer(t))
	a.pump(nil)
	b.pump(nil)
	var settings []codec.Settings
	for _, fc := range []*fakeClient{a, b, c} {
		for _, m := range fc.ev.msgs {
			if m[0] == codec.OpSettings {
				s, err := codec.DecodeSettings(m)
				if err != nil {
					t.Fatal(err)
				}
				settings = append(settings, s)
			}
		}
	}
	if len(settings) != 3 || settings[0].NameChanged || settings[0].HostModem ||
		!settings[1].NameChanged || settings[1].NewName != "ACE (2)" || settings[2].NewName != "ace (3)" {
		t.Fatalf("settings %+v", settings)
	}
	if g.Player(3).Name != "ACE (2)" || g.Player(4).Name != "ace (3)" || c.c.Name() != "ace (3)" || g.Stats.Renamed.Load() != 2 {
		t.Fatalf("names %q %q", g.Player(3).Name, g.Player(4).Name)
	}
	if a.ev.peers[3] != "ACE (2)" || a.ev.peers[4] != "ace (3)" || c.ev.peers[2] != "Ace" || c.ev.peers[3] != "ACE (2)" {
		t.Fatalf("peer lists: a %v c %v", a.ev.peers, c.ev.peers)
	}
	// Taking a used name later is refused and not relayed.
	_ = c.c.SetName("aCE")
	c.pump(nil)
	a.pump(nil)
	if g.Player(4).Name != "ace (3)" || a.ev.peers[4] != "ace (3)" {
		t.Fatalf("rename to a used name: %q, %v", g.Player(4).Name, a.ev.peers)
	}
	// A long name still fits an identity message once renamed.
	long := strings.Repeat("L", bcnet.MaxNameUnits)
	d := newFakeClient(t, g, w, 5004, long)
	d.pump(vanillaAnswer(t))
	e := newFakeClient(t, g, w, 5005, long)
	e.pump(vanillaAnswer(t))
	if n := g.Player(6).Name; len(n) != bcnet.MaxNameUnits || !strings.HasSuffix(n, " (2)") || e.c.Name() != n {
		t.Fatalf("long rename %q", n)
	}
}

func TestModemFlag(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, DefaultConfig(), w)
	for i, modem := range []bool{false, true} {
		c := newFakeClient(t, g, w, uint16(5001+i), fmt.Sprint("M", i))
		answer := vanillaAnswer(t)
		c.pump(func(p []byte) []byte {
			if p[0] == codec.OpGameInit {
				return codec.NewPlayerInGame{Modem: modem}.AppendTo(nil)
			}
			return answer(p)
		})
		if p := g.Player(byte(2 + i)); p == nil || !p.InGame() || p.UsingModem() != modem {
			t.Fatalf("player %d: %+v", 2+i, p)
		}
	}
}

// A checksum failure gets 0x22 (file) or 0x23 (version, "60"); the stock
// host does not drop the peer, the client leaves by itself. One that does
// not is booted after RejectLinger (handshake.md 2.4).
func TestChecksumFailureClientLeaves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round byte
		want  []byte
		leave bool
	}{
		{"file mismatch, client leaves", 1, nil, true},
		{"version mismatch, client leaves", 0, []byte{0x23, 0x02, 0x00, 0x36, 0x30}, true},
		{"client stays", 1, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &testutil.Wire{Open: alby.Decrypt}
			cfg := DefaultConfig()
			g := newTestGame(t, cfg, w)
			var left []LeaveReason
			g.On(EvPlayerLeft, func(e Event) { left = append(left, e.(*PlayerLeft).Reason) })
			c := newFakeClient(t, g, w, 5001, "Modded")
			answer := vanillaAnswer(t)
			var reply []byte
			c.pump(func(p []byte) []byte {
				if p[0] == codec.OpChecksumFailFile || p[0] == codec.OpChecksumFailVer {
					reply = p
					if tc.leave {
						_ = c.c.Disconnect()
					}
					return nil
				}
				r := answer(p)
				if r != nil && r[0] == codec.OpChecksumResponse && r[1] == tc.round {
					resp, _ := codec.DecodeChecksumResponse(r)
					if tc.round == 0 {
						resp.RefHash++ // another game version
					} else {
						resp.Tree.Files[0].ContentHash ^= 1 // Autoexec.pyc, verified
					}
					r, _ = resp.AppendTo(nil)
				}
				return r
			})
			if tc.want != nil && !bytes.Equal(reply, tc.want) {
				t.Fatalf("reply %X, want %X", reply, tc.want)
			}
			if tc.want == nil && (reply == nil || reply[0] != codec.OpChecksumFailFile || !bytes.Contains(reply, []byte("Autoexec.pyc"))) {
				t.Fatalf("reply %X", reply)
			}
			if tc.leave {
				if c.ev.booted || g.NumPlayers(false) != 0 || len(left) != 1 || left[0] != LeaveQuit || g.host.NumPeers() != 0 {
					t.Fatalf("booted %v players %d left %v", c.ev.booted, g.NumPlayers(false), left)
				}
				return
			}
			// Still there, even while it keeps the link alive, until the grace.
			for s := time.Second; s < cfg.RejectLinger; s += 5 * time.Second {
				c.now = t0.Add(s)
				c.c.Tick(c.now)
				g.Advance(c.now)
				c.pump(nil)
			}
			if c.ev.booted || g.NumPlayers(false) != 1 {
				t.Fatal("booted before RejectLinger")
			}
			c.now = t0.Add(cfg.RejectLinger)
			g.Advance(c.now)
			c.pump(nil)
			if !c.ev.booted || c.ev.boot != bcnet.BootKicked || g.NumPlayers(false) != 0 || len(left) != 1 || left[0] != LeaveRejected {
				t.Fatalf("booted %v reason %d left %v", c.ev.booted, c.ev.boot, left)
			}
		})
	}
}
