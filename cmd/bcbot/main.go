// Command bcbot is a headless Bridge Commander client: it joins a server
// the way a stock client does (connect, checksum rounds answered from a
// manifest, Settings, NewPlayerInGame), then chats, idles, and for
// play-testing a mission flies a ship (-spawn), fires at another player
// (-fire-at) and self-destructs (-self-destruct). With -discover it lists
// the servers answering on the LAN instead.
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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdout, stderr)
}

// runContext is run until ctx ends (tests cancel it).
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bcbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		addr     = fs.String("addr", "127.0.0.1:22101", "server address")
		name     = fs.String("name", "bcbot", "player name")
		password = fs.String("password", "", "server password, sent in the connect request")
		modem    = fs.Bool("modem", false, "report a dial-up modem in NewPlayerInGame (2A 21)")
		manifest = fs.String("manifest", "", "hash manifest to answer checksum rounds from (default: vanilla 1.1)")
		chat     = fs.String("chat", "", "chat line to send once in the game")
		idle     = fs.Duration("idle", 0, "stay in the game this long, then leave (0 = until interrupted)")
		timeout  = fs.Duration("timeout", 15*time.Second, "give up joining after this long")
		discover = fs.Bool("discover", false, "list the servers answering a LAN \\status\\ sweep and exit")
		targets  = fs.String("targets", "", "with -discover: query this host:port instead of the LAN broadcast sweep")
		verbose  = fs.Bool("v", false, "log every message received")
		nbots    = fs.Int("bots", 0, "load mode: join this many bots, each sending -rate relayed messages a second")
		rate     = fs.Float64("rate", 10, "load mode: messages per second per bot")
		secs     = fs.Float64("secs", 10, "load mode: seconds of load")
		pid      = fs.Int("pid", 0, "load mode: the server's process id, to report its CPU time (Linux)")
		states   = fs.Bool("state", false, "load mode: also send a StateUpdate with every message, as clients do")
		spawn    = fs.String("spawn", "", "once in the game, fly a ship of this class (name, e.g. Sovereign, or species index); respawn after a death")
		pos      = fs.String("pos", "", "where the ship appears: x,y,z in world units (default 0,0,0)")
		fireAt   = fs.Int("fire-at", 0, "fire a forward phaser at this player id's ship every -fire-every")
		every    = fs.Duration("fire-every", time.Second, "time between shots")
		destruct = fs.Duration("self-destruct", 0, "self-destruct this long after joining (0 = never)")
	)
	if err := fs.Parse(args); err != nil {
		return 2
	}
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
	cfg := bot.Config{Server: server, Name: *name, Password: *password, Modem: *modem, Logger: log}
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
	if *nbots > 0 {
		lc := bot.LoadConfig{Server: server, Bots: *nbots, Rate: *rate, Duration: time.Duration(*secs * float64(time.Second)),
			StateUpdates: *states, Password: *password, Manifest: cfg.Manifest, Logger: log}
		if err := runLoad(ctx, lc, *pid, stdout); err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 1
		}
		return 0
	}
	p, err := parsePos(*pos)
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 2
	}
	play := playOptions{Spawn: *spawn, Pos: p, FireAt: *fireAt, FireEvery: *every, SelfDestruct: *destruct}
	if play.FireEvery <= 0 {
		play.FireEvery = time.Second
	}
	if err := join(ctx, cfg, *chat, *idle, *timeout, play, log); err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 1
	}
	return 0
}

func join(ctx context.Context, cfg bot.Config, chat string, idle, timeout time.Duration, play playOptions, log *slog.Logger) error {
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
	log.Info("joined the game", "server", cfg.Server, "id", b.ID(), "name", b.Name(), "renamed", s.NameChanged, "slot", s.Slot, "map", string(s.Map), "game_time", s.GameTime)
	if chat != "" {
		if err := b.Chat(chat, false); err != nil {
			return err
		}
	}
	pl, err := newPlayer(b, play, log)
	if err != nil {
		return err
	}
	if err := pl.spawn(); err != nil {
		return err
	}
	var deadline, destruct <-chan time.Time
	if idle > 0 {
		deadline = time.After(idle)
	}
	if play.SelfDestruct > 0 {
		destruct = time.After(play.SelfDestruct)
	}
	var shots <-chan time.Time
	if play.FireAt > 0 {
		t := time.NewTicker(play.FireEvery)
		defer t.Stop()
		shots = t.C
	}
	for {
		select {
		case <-shots:
			pl.fire()
		case <-destruct:
			log.Info("self-destructing")
			if err := b.Send(bot.SelfDestruct(), true); err != nil {
				return err
			}
		case <-ctx.Done():
			log.Info("leaving")
			return nil
		case <-deadline:
			log.Info("idle time over, leaving")
			return nil
		case m := <-b.Inbox():
			logMessage(log, m.Payload)
			if len(m.Payload) > 0 {
				pl.seen(m.Payload)
			}
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

// runLoad runs the load generator and prints its report, with the server's
// CPU time when its pid is known.
func runLoad(ctx context.Context, lc bot.LoadConfig, pid int, w io.Writer) error {
	var cpu0 time.Duration
	if pid > 0 {
		c, err := processCPU(pid)
		if err != nil {
			return err
		}
		cpu0 = c
	}
	r, err := bot.RunLoad(ctx, lc)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, r)
	if pid > 0 {
		c, err := processCPU(pid)
		if err != nil {
			return err
		}
		used := c - cpu0
		fmt.Fprintf(w, "server CPU: %v over %v (%.1f%% of one core)\n", used, r.Elapsed.Round(time.Millisecond), 100*used.Seconds()/r.Elapsed.Seconds())
	}
	return nil
}

// processCPU reads a process's user+system CPU time from /proc.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("reading the server's CPU time: %w", err)
	}
	// Fields after the parenthesised command name; utime and stime are
	// fields 14 and 15, in clock ticks (100 a second on Linux).
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}
