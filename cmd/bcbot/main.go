// Command bcbot is a headless Bridge Commander client: it joins a server
// the way a stock client does (connect, checksum rounds answered from a
// manifest, Settings, NewPlayerInGame), then chats and idles. With
// -discover it lists the servers answering on the LAN instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/bot"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bcbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		addr     = fs.String("addr", "127.0.0.1:22101", "server address")
		name     = fs.String("name", "bcbot", "player name")
		manifest = fs.String("manifest", "", "hash manifest to answer checksum rounds from (default: vanilla 1.1)")
		chat     = fs.String("chat", "", "chat line to send once in the game")
		idle     = fs.Duration("idle", 0, "stay in the game this long, then leave (0 = until interrupted)")
		timeout  = fs.Duration("timeout", 15*time.Second, "give up joining after this long")
		discover = fs.Bool("discover", false, "list the servers answering a LAN \\status\\ sweep and exit")
		targets  = fs.String("targets", "", "with -discover: query this host:port instead of the LAN broadcast sweep")
		verbose  = fs.Bool("v", false, "log every message received")
	)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	if *discover {
		if err := runDiscover(ctx, *targets, stdout); err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 1
		}
		return 0
	}
	server, err := netip.ParseAddrPort(*addr)
	if err != nil {
		ua, rerr := net.ResolveUDPAddr("udp4", *addr)
		if rerr != nil {
			fmt.Fprintf(stderr, "bcbot: -addr %q: %v\n", *addr, rerr)
			return 2
		}
		server = ua.AddrPort()
	}
	cfg := bot.Config{Server: server, Name: *name, Logger: log}
	if server.Addr().IsLoopback() {
		cfg.Local = "127.0.0.1:0"
	} else {
		cfg.Local = "0.0.0.0:0"
	}
	if *manifest != "" {
		m, err := checksum.ParseManifestFile(*manifest)
		if err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 1
		}
		cfg.Manifest = m
	}
	if err := join(ctx, cfg, *chat, *idle, *timeout, log); err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 1
	}
	return 0
}

func join(ctx context.Context, cfg bot.Config, chat string, idle, timeout time.Duration, log *slog.Logger) error {
	b, err := bot.New(cfg)
	if err != nil {
		return err
	}
	b.Start(ctx)
	defer b.Close()
	jctx, cancel := context.WithTimeout(ctx, timeout)
	err = b.WaitState(jctx, bot.InGame)
	cancel()
	if err != nil {
		return fmt.Errorf("joining %s: %w", cfg.Server, err)
	}
	s := b.Settings()
	log.Info("joined the game", "server", cfg.Server, "id", b.ID(), "slot", s.Slot, "map", string(s.Map), "game_time", s.GameTime)
	if chat != "" {
		if err := b.Chat(chat, false); err != nil {
			return err
		}
	}
	var deadline <-chan time.Time
	if idle > 0 {
		deadline = time.After(idle)
	}
	for {
		select {
		case <-ctx.Done():
			log.Info("leaving")
			return nil
		case <-deadline:
			log.Info("idle time over, leaving")
			return nil
		case m := <-b.Inbox():
			logMessage(log, m.Payload)
		case <-time.After(time.Second):
			if b.State() == bot.Closed {
				if err := b.Err(); err != nil && !errors.Is(err, context.Canceled) {
					return fmt.Errorf("connection closed: %w", err)
				}
				return nil
			}
		}
	}
}

func logMessage(log *slog.Logger, p []byte) {
	if len(p) == 0 {
		return
	}
	switch p[0] {
	case codec.OpChat, codec.OpTeamChat:
		if c, err := codec.DecodeChat(p); err == nil {
			log.Info("chat", "from", c.Sender, "team", c.Team, "text", string(c.Text))
			return
		}
	case codec.OpPlayerListEvent:
		if e, err := codec.DecodePlayerListEvent(p); err == nil {
			what := "joined"
			if e.Code == codec.EventPlayerLeft {
				what = "left"
			}
			log.Info("player "+what, "id", e.PeerID)
			return
		}
	}
	log.Debug("message", "opcode", codec.OpcodeName(p[0]), "len", len(p))
}

func runDiscover(ctx context.Context, target string, w io.Writer) error {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{})
	if err != nil {
		return err
	}
	defer conn.Close()
	targets := gamespy.LANTargets()
	if target != "" {
		ap, err := netip.ParseAddrPort(target)
		if err != nil {
			return fmt.Errorf("-targets %q: %w", target, err)
		}
		targets = []netip.AddrPort{ap}
	}
	found, err := gamespy.Discover(ctx, conn, targets, gamespy.DefaultDiscoverWait)
	if err != nil {
		return err
	}
	for _, f := range found {
		fmt.Fprintf(w, "%-21s %-24q %s/%s players, %s, %s\n", f.Addr, f.Info["hostname"], f.Info["numplayers"], f.Info["maxplayers"], f.Info["mapname"], f.Info["gamemode"])
	}
	if len(found) == 0 {
		fmt.Fprintln(w, "no servers found")
	}
	return nil
}
