package engine_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
)

func waitClosed(t *testing.T, b *bot.Bot) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
}

func onGame(t *testing.T, srv *engine.Server, fn func(g *engine.Game)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Do(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// The default limit is the stock 8: the 9th joiner gets the connect reply
// (an id) and then the reason-3 boot.
func TestUDPNinthPlayerIsFull(t *testing.T) {
	srv := startServer(t, nil)
	var wg sync.WaitGroup
	errs := make(chan error, engine.StockMaxPlayers)
	for i := 0; i < engine.StockMaxPlayers; i++ {
		b := newBot(t, srv, fmt.Sprint("Bot", i), nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			errs <- b.WaitState(ctx, bot.InGame)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	late := newBot(t, srv, "Late", nil)
	waitClosed(t, late)
	if late.BootReason() != bcnet.BootFull || late.ID() < 2 || late.ID() == 0xFF {
		t.Fatalf("9th player: boot reason %d, id %d", late.BootReason(), late.ID())
	}
}

// A checksum failure: the bot leaves by itself like a stock client and the
// server lets it go without a boot; a bot that stays is booted after the
// grace.
func TestUDPWrongHashRefused(t *testing.T) {
	srv := startServer(t, func(c *engine.Config) { c.RejectLinger = 300 * time.Millisecond })
	left := make(chan engine.LeaveReason, 4)
	onGame(t, srv, func(g *engine.Game) {
		g.On(engine.EvPlayerLeft, func(e engine.Event) { left <- e.(*engine.PlayerLeft).Reason })
	})
	tamper := func(c *bot.Config) {
		c.Tamper = func(req codec.ChecksumRequest, resp *codec.ChecksumResponse) {
			if req.Round == 0 {
				resp.Tree.Files[0].ContentHash++ // App.pyc, verified in the vanilla manifest
			}
		}
	}
	b := newBot(t, srv, "Modded", tamper)
	p := waitFor(t, b, "checksum failure reply", func(p []byte) bool { return p[0] == codec.OpChecksumFailFile })
	// The relative path as a stock host builds it (handshake.md 2.4).
	if f, err := codec.DecodeChecksumFail(p); err != nil || f.File != "scripts/App.pyc" {
		t.Fatalf("reply %+v %v", f, err)
	}
	waitClosed(t, b)
	if r := <-left; r != engine.LeaveQuit || b.BootReason() != bcnet.BootNone {
		t.Fatalf("left %v, boot %d", r, b.BootReason())
	}
	stay := newBot(t, srv, "Stubborn", func(c *bot.Config) { tamper(c); c.StayOnReject = true })
	waitClosed(t, stay)
	if r := <-left; r != engine.LeaveRejected || stay.BootReason() != bcnet.BootKicked {
		t.Fatalf("left %v, boot %d", r, stay.BootReason())
	}
}

// Password, bans and duplicate names as a client sees them.
func TestUDPPasswordBansAndRename(t *testing.T) {
	srv := startServer(t, func(c *engine.Config) {
		c.Password = "Warp9"
		c.BanFile = filepath.Join(t.TempDir(), "banlist.txt")
	})
	wrong := newBot(t, srv, "Guess", func(c *bot.Config) { c.Password = "warp8" })
	waitClosed(t, wrong)
	if wrong.BootReason() != bcnet.BootRefused || wrong.ID() != 0xFF {
		t.Fatalf("wrong password: reason %d id %d", wrong.BootReason(), wrong.ID())
	}
	pw := func(c *bot.Config) { c.Password = "WARP9" }
	a := newBot(t, srv, "Ace", pw)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.WaitState(ctx, bot.InGame); err != nil {
		t.Fatal(err)
	}
	b := newBot(t, srv, "ace", func(c *bot.Config) { pw(c); c.Modem = true })
	if err := b.WaitState(ctx, bot.InGame); err != nil {
		t.Fatal(err)
	}
	if b.Name() != "ace (2)" || !b.Settings().NameChanged {
		t.Fatalf("renamed to %q", b.Name())
	}
	// Ace learns the new name from the relayed identity, which the host
	// relays before it announces the newcomer.
	waitFor(t, a, "the newcomer in the player list", func(p []byte) bool {
		ev, err := codec.DecodePlayerListEvent(p)
		return err == nil && ev.PeerID == b.ID()
	})
	if got := a.Peers()[b.ID()]; got != "ace (2)" {
		t.Fatalf("ace knows the newcomer as %q", got)
	}
	var names []string
	var modem bool
	onGame(t, srv, func(g *engine.Game) {
		for _, p := range g.Players() {
			names = append(names, p.Name)
		}
		modem = g.Player(b.ID()).UsingModem()
	})
	if fmt.Sprint(names) != "[Ace ace (2)]" || !modem {
		t.Fatalf("names %v modem %v", names, modem)
	}
	// A name ban boots at the identity; the others never hear of it.
	var err error
	onGame(t, srv, func(g *engine.Game) { err = g.Ban("name:Griefer") })
	if err != nil {
		t.Fatal(err)
	}
	g := newBot(t, srv, "GRIEFER", pw)
	waitClosed(t, g)
	if g.BootReason() != bcnet.BootBanned || g.ID() == 0xFF {
		t.Fatalf("name ban: reason %d id %d", g.BootReason(), g.ID())
	}
	// An address ban refuses before any reply.
	onGame(t, srv, func(g *engine.Game) { err = g.Ban("127.0.0.1") })
	if err != nil {
		t.Fatal(err)
	}
	waitClosed(t, a)
	waitClosed(t, b)
	c := newBot(t, srv, "Carl", pw)
	waitClosed(t, c)
	if a.BootReason() != bcnet.BootBanned || c.BootReason() != bcnet.BootBanned || c.ID() != 0xFF {
		t.Fatalf("address ban: %d %d id %d", a.BootReason(), c.BootReason(), c.ID())
	}
	for id, name := range a.Peers() {
		if name == "GRIEFER" {
			t.Fatalf("peer %d %q known to Ace", id, name)
		}
	}
}

// Stopping the server: every bot gets the host's 0x05 and ends its
// session; none hears another leave first.
func TestUDPShutdown(t *testing.T) {
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer cancel()
	bots := []*bot.Bot{joinBot(t, srv, "A"), joinBot(t, srv, "B"), joinBot(t, srv, "C")}
	// Each knows the others by name from the identity relays.
	for _, b := range bots {
		waitFor(t, b, "the last player list event", func(p []byte) bool {
			ev, err := codec.DecodePlayerListEvent(p)
			return err == nil && ev.PeerID == bots[2].ID()
		})
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop")
	}
	for _, b := range bots {
		waitClosed(t, b)
		if !b.ServerShutDown() || len(b.Peers()) != 2 {
			t.Fatalf("bot %s: shut down %v peers %v (%v)", b.Name(), b.ServerShutDown(), b.Peers(), b.Err())
		}
		for {
			select {
			case m := <-b.Inbox():
				ev, err := codec.DecodePlayerListEvent(m.Payload)
				if op := m.Payload[0]; op == codec.OpDestroyObject || op == codec.OpDeletePlayerAnim ||
					(err == nil && ev.Code == codec.EventPlayerLeft) {
					t.Fatalf("bot %s heard a departure: %X", b.Name(), m.Payload)
				}
				continue
			default:
			}
			break
		}
	}
}
