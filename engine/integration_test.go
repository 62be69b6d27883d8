package engine_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/enginetest"
	bcnet "github.com/bcserver/bcserver/net"
)

// startServer runs a server on a loopback port for the test's lifetime.
func startServer(t *testing.T, mutate func(*engine.Config)) *engine.Server {
	t.Helper()
	cfg := engine.DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	return enginetest.Run(t, cfg)
}

func newBot(t *testing.T, srv *engine.Server, name string, mutate func(*bot.Config)) *bot.Bot {
	t.Helper()
	cfg := bot.Config{Server: srv.Addr(), Name: name}
	if mutate != nil {
		mutate(&cfg)
	}
	b, err := bot.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Start(ctx)
	t.Cleanup(func() { b.Close(); cancel() })
	return b
}

func joinBot(t *testing.T, srv *engine.Server, name string) *bot.Bot {
	t.Helper()
	b := newBot(t, srv, name, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.WaitState(ctx, bot.InGame); err != nil {
		t.Fatal(err)
	}
	return b
}

// waitFor reads a bot's inbox until match returns true or the time is up.
func waitFor(t *testing.T, b *bot.Bot, what string, match func([]byte) bool) []byte {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case m := <-b.Inbox():
			if match(m.Payload) {
				return m.Payload
			}
		case <-deadline:
			t.Fatalf("bot %d: no %s within 5 s", b.ID(), what)
			return nil
		}
	}
}

func TestUDPJoinChatLeave(t *testing.T) {
	srv := startServer(t, nil)
	a := joinBot(t, srv, "Alice")
	b := joinBot(t, srv, "Bob")
	if a.ID() != 2 || b.ID() != 3 || a.Settings().Slot != 0 || b.Settings().Slot != 1 {
		t.Fatalf("ids %d %d slots %d %d", a.ID(), b.ID(), a.Settings().Slot, b.Settings().Slot)
	}
	if string(a.Settings().Map) != "Multiplayer.Episode.Mission1.Mission1" || !a.Settings().CollisionDamage {
		t.Fatalf("settings %+v", a.Settings())
	}
	// Alice hears of Bob.
	waitFor(t, a, "0x17 for Bob", func(p []byte) bool {
		e, err := codec.DecodePlayerListEvent(p)
		return err == nil && e.Code == codec.EventNewPlayerInGame && e.PeerID == 3
	})
	// Chat from Alice reaches Alice and Bob unchanged.
	if err := a.Chat("hello", false); err != nil {
		t.Fatal(err)
	}
	want := codec.Chat{Sender: 2, Text: []byte("hello")}.AppendTo(nil)
	isHello := func(p []byte) bool { return bytes.Equal(p, want) }
	waitFor(t, a, "own chat echo", isHello)
	waitFor(t, b, "Alice's chat", isHello)

	// Bob leaves: Alice gets 0x17 (left) and 0x18 "Bob".
	b.Close()
	waitFor(t, a, "0x17 left", func(p []byte) bool {
		e, err := codec.DecodePlayerListEvent(p)
		return err == nil && e.Code == codec.EventPlayerLeft && e.PeerID == 3
	})
	waitFor(t, a, "0x18", func(p []byte) bool {
		d, err := codec.DecodeDeletePlayerAnim(p)
		return err == nil && string(d.Name) == "Bob"
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var n int
	if err := srv.Do(ctx, func(g *engine.Game) { n = g.NumPlayers(false) }); err != nil || n != 1 {
		t.Fatalf("players %d err %v", n, err)
	}
}

// A stranger sprays thousands of malformed datagrams while two clients
// join; both still join and nobody else notices.
func TestUDPMalformedFloodDuringJoin(t *testing.T) {
	srv := startServer(t, nil)
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stop := make(chan struct{})
	var sent int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(7, 7))
		buf := make([]byte, 600)
		for i := 0; i < 5000; i++ {
			select {
			case <-stop:
				return
			default:
			}
			n := rng.IntN(len(buf))
			for k := 0; k < n; k++ {
				buf[k] = byte(rng.IntN(256))
			}
			if n > 0 && i%3 == 0 {
				buf[0] = 0xFF // looks like a connect until parsed
			}
			_, _ = conn.Write(buf[:n])
			sent++
			if i%200 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	a := joinBot(t, srv, "A")
	b := joinBot(t, srv, "B")
	wg.Wait()
	close(stop)
	if a.State() != bot.InGame || b.State() != bot.InGame {
		t.Fatal("a client was disturbed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var st bcnet.HostStats
	var players int
	_ = srv.Do(ctx, func(g *engine.Game) { st = g.TransportStats(); players = g.NumPlayers(false) })
	if players != 2 {
		t.Fatalf("%d players after the flood", players)
	}
	t.Logf("flood: %d datagrams sent; host counted %d strangers, %d malformed, %d queries", sent, st.Strangers, st.Malformed, st.Queries)
}
