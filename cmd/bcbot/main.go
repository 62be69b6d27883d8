// Command bcbot is a headless Bridge Commander client: it joins a server
// the way a stock client does (connect, checksum rounds answered from a
// manifest, Settings, NewPlayerInGame), then chats (-chat, again and again
// with -chat-every), idles, and for play-testing a mission flies a ship
// (-spawn, on a -team, moving with -move-to, again after a death or a
// restart), fires phasers, torpedoes or pulse (-weapons) at a player, an
// object or a named ship (-fire-at) and self-destructs (-self-destruct),
// logging the game's messages (scores, teams, END_GAME) as a stock client
// would show them, and says in one line why when the server refuses it or
// goes away. With -discover it lists the servers answering on the LAN
// instead.
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
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/browse"
	"github.com/bcserver/bcserver/internal/loadgen"
	bcnet "github.com/bcserver/bcserver/net"
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
		idle     = fs.Duration("idle", 0, "stay in the game this long, then leave (0 = until interrupted)")
		timeout  = fs.Duration("timeout", 15*time.Second, "give up joining after this long")
		discover = fs.Bool("discover", false, "list the servers answering a LAN \\status\\ sweep and exit")
		targets  = fs.String("targets", "", "with -discover: query this host:port instead of the LAN broadcast sweep")
		verbose  = fs.Bool("v", false, "log every message received")
		nbots    = fs.Int("bots", 0, "load mode: join this many bots to every game, each sending -rate relayed messages a second")
		games    = fs.Int("games", 1, "load mode: the games are on this many consecutive ports from -addr (or list them in -addr, comma-separated)")
		rate     = fs.Float64("rate", 10, "load mode: messages per second per bot")
		secs     = fs.Float64("secs", 10, "load mode: seconds of load")
		pids     = fs.String("pid", "", "load mode: the server's process ids, comma-separated, to report their CPU time and memory (Linux)")
		states   = fs.Bool("state", false, "load mode: also send a StateUpdate with every message, as clients do")
		chatLoad = fs.Bool("chat-load", false, "load mode: send chat lines instead of StartFiring events")
		loss     = fs.Float64("loss", 0, "load mode: drop this fraction of datagrams each way (through a lossy proxy per game)")
		blackout = fs.Duration("blackout", 0, "load mode: cut every link for this long ...")
		blackAt  = fs.Duration("blackout-at", 2*time.Second, "load mode: ... this long into the sending")
		blackDn  = fs.Bool("blackout-down", false, "load mode: the blackout cuts only server-to-client datagrams (the server holds the backlog)")
		flood    = fs.String("flood", "", "load mode: also flood the first game: connect (one address, new ports), spoof (connects from -flood-sources addresses), junk (random datagrams)")
		floodR   = fs.Float64("flood-rate", 1000, "load mode: flood datagrams a second")
		floodSrc = fs.Int("flood-sources", 100, "load mode: spoofed source addresses of the flood")
		joiners  = fs.Int("joiners", 0, "load mode: real clients that try to join the flooded game during the flood")
		cpuProf  = fs.String("cpuprofile", "", "load mode: write the generator's CPU profile to this file")
		ackDelay = fs.Duration("ack-delay", 20*time.Millisecond, "load mode: the longest a bot holds its ACKs (a stock client sends once per frame)")
		compare  = fs.String("compare", "", "side-by-side mode: NAME=BCSERVER,NAME=BCSERVER... server binaries started fresh for every load, alternately, and compared (ratios to the first)")
		rounds   = fs.Int("rounds", 3, "side-by-side mode: rounds (each runs every side once)")
		profiles = fs.String("profiles", "1x6x10x4,1x8x10x3", "side-by-side mode: loads, GAMESxBOTSxRATExSECS, comma-separated")
		starts   = fs.Int("starts", 5, "side-by-side mode: more starts of each side a round, for the start-up figures alone (0: none)")
		idleFor  = fs.Duration("idle-for", 5*time.Second, "side-by-side mode: how long to watch each idle server")
		spawn    = fs.String("spawn", "", "once in the game, fly a ship of this class (name, e.g. Sovereign, or species index); respawn after a death")
		pos      = fs.String("pos", "", "where the ship appears: x,y,z in world units (default 0,0,0)")
		fireAt   = fs.String("fire-at", "", "fire at this every -fire-every: a player id (his current ship), an object id (a host ship's; decimal or 0x hex) or a name (a player's, or a host ship's)")
		every    = fs.Duration("fire-every", time.Second, "time between volleys")
		weapons  = fs.String("weapons", "phaser", "what a volley fires: phaser, torpedo, pulse, comma-separated (or all); each through its stock message, tubes only once reloaded")
		team     = fs.Int("team", -1, "announce this team (TEAM 0x41: 0 or 1, the client's Team 1 or 2) before each spawn, as a stock client does in the team modes (-1: none)")
		respawn  = fs.Bool("respawn", true, "fly a new ship after a death (once the explosion is over) and after a restart of the game")
		destruct = fs.Duration("self-destruct", 0, "self-destruct this long after joining (0 = never)")
		moveTo   = fs.String("move-to", "", "fly from -pos to this point x,y,z and back, for ever (play-testing)")
		cheatArg = fs.String("cheat", "", "fly the -spawn ship as a modified client would: speed, teleport, firerate, ammo or arc (at -fire-at's ship; the host's fair-play rules should catch it, README \"Fair play\")")
		speed    = fs.Float64("speed", 0, "with -move-to: world units a second (0: the -spawn class's max_speed; beyond 1.25 times it the host's fair-play rules drop the updates)")
		chatEach = fs.Duration("chat-every", 0, "say the -chat lines one at a time, in turn, this often (0: each once, at join)")
		chat     chatLines
	)
	fs.Var(&chat, "chat", "chat line to send once in the game; repeat the flag for more lines (see -chat-every)")
	mod := addModFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
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
	if *compare != "" {
		return runCompare(ctx, *compare, *rounds, *starts, *profiles, *idleFor, *addr, stdout, stderr)
	}
	if *nbots > 0 {
		lc := loadgen.Config{Bots: *nbots, Rate: *rate, Duration: time.Duration(*secs * float64(time.Second)),
			StateUpdates: *states, Chat: *chatLoad, Loss: *loss, Blackout: *blackout, BlackoutAt: *blackAt, BlackoutDown: *blackDn,
			AckDelay: *ackDelay, Password: *password, Logger: log}
		if *flood != "" {
			switch *flood {
			case loadgen.FloodConnect, loadgen.FloodSpoof, loadgen.FloodJunk:
			default:
				fmt.Fprintf(stderr, "bcbot: -flood %q: want connect, spoof or junk\n", *flood)
				return 2
			}
			lc.Flood = &loadgen.Flood{Kind: *flood, Rate: *floodR, Sources: *floodSrc, Joiners: *joiners}
		}
		var err error
		if lc.Servers, err = serverList(*addr, *games); err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 2
		}
		if lc.Pids, err = pidList(*pids); err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 2
		}
		if *manifest != "" {
			if lc.Manifest, err = checksum.ParseManifestFile(*manifest); err != nil {
				fmt.Fprintf(stderr, "bcbot: %v\n", err)
				return 1
			}
		}
		if *cpuProf != "" {
			f, err := os.Create(*cpuProf)
			if err != nil {
				fmt.Fprintf(stderr, "bcbot: %v\n", err)
				return 1
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				fmt.Fprintf(stderr, "bcbot: %v\n", err)
				return 1
			}
			defer pprof.StopCPUProfile()
		}
		r, err := loadgen.Run(ctx, lc)
		if err != nil {
			fmt.Fprintf(stderr, "bcbot: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, r)
		return 0
	}
	server, err := resolve(*addr)
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 2
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
	p, err := parsePos(*pos)
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 2
	}
	tgt, err := parseTarget(*fireAt)
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 2
	}
	kinds, err := bot.ParseWeapons(*weapons)
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: -%v\n", err)
		return 2
	}
	if *team < -1 || *team > 255 {
		fmt.Fprintf(stderr, "bcbot: -team %d: want 0..255 (stock teams: 0 and 1), or -1 for none\n", *team)
		return 2
	}
	play := playOptions{Spawn: *spawn, Pos: p, Team: *team, FireAt: tgt, FireEvery: *every, Weapons: kinds, Respawn: *respawn,
		SelfDestruct: *destruct, Chat: chatter{lines: chat, every: *chatEach}}
	if play.FireEvery <= 0 {
		play.FireEvery = time.Second
	}
	if *cheatArg != "" {
		if play.Cheat, err = bot.ParseCheat(*cheatArg); err != nil || *spawn == "" {
			if err == nil {
				err = errors.New("needs -spawn (the class to cheat with)")
			}
			fmt.Fprintf(stderr, "bcbot: -cheat: %v\n", err)
			return 2
		}
	}
	if err := mod.apply(&cfg, &play, log); err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 2
	}
	if *moveTo != "" {
		to, err := parsePos(*moveTo)
		if err != nil {
			fmt.Fprintf(stderr, "bcbot: -move-to: %v\n", err)
			return 2
		}
		play.Patrol = &patrol{from: p, to: to, speed: float32(*speed)}
	}
	if err := join(ctx, cfg, *idle, *timeout, play, log); err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 1
	}
	return 0
}

func join(ctx context.Context, cfg bot.Config, idle, timeout time.Duration, play playOptions, log *slog.Logger) error {
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
		if b.State() == bot.Closed {
			return fmt.Errorf("joining %s: %s", cfg.Server, goneLine(b))
		}
		return fmt.Errorf("joining %s: %w", cfg.Server, err)
	}
	s := b.Settings()
	log.Info("joined the game", "server", cfg.Server, "id", b.ID(), "name", b.Name(), "renamed", s.NameChanged, "slot", s.Slot, "map", string(s.Map), "game_time", s.GameTime)
	chat := play.Chat
	if chat.every <= 0 {
		for line, ok := chat.say(); ok; line, ok = chat.say() {
			if err := b.Chat(line, false); err != nil {
				return err
			}
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
	var shots, lines <-chan time.Time
	if play.FireAt.set() {
		t := time.NewTicker(play.FireEvery)
		defer t.Stop()
		shots = t.C
	}
	if chat.every > 0 && len(chat.lines) > 0 {
		t := time.NewTicker(chat.every)
		defer t.Stop()
		lines = t.C
	}
	health := &healthWatch{log: log}
	// Ten position updates a second, as a stock client sends them; the
	// respawn after an explosion waits on the same beat.
	ticks := time.NewTicker(100 * time.Millisecond)
	defer ticks.Stop()
	for {
		select {
		case now := <-shots:
			if pl.pilot == nil {
				pl.fire(now)
			}
		case <-lines:
			if line, ok := chat.say(); ok {
				if err := b.Chat(line, false); err != nil {
					return err
				}
			}
		case now := <-ticks.C:
			health.tick(now, pl.ship, pl.species, pl.spawnedAt)
			pl.respawn(now)
			switch {
			case pl.pilot != nil:
				pl.flyPilot(now)
			case play.Patrol != nil:
				// Each ship starts its patrol where it appears: a new
				// ship that began mid-way would jump there.
				pl.move(*play.Patrol, now.Sub(pl.spawnedAt))
			}
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
				pl.seen(m.Payload, m.At)
				health.seen(pl.ship, pl.species, m.Payload)
			}
		case <-b.Done():
			// The server went away (shut down, timed out) or booted us:
			// say so plainly and stop, rather than play on alone.
			if ctx.Err() != nil {
				return nil
			}
			for more := true; more; {
				select {
				case m := <-b.Inbox():
					logMessage(log, m.Payload)
				default:
					more = false
				}
			}
			return errors.New(goneLine(b))
		}
	}
}

// goneLine says in a line why the bot's connection ended: the server shut
// down, refused or booted it (with the stock reason in words), or stopped
// answering.
func goneLine(b *bot.Bot) string {
	if b.ServerShutDown() {
		return "the server shut down"
	}
	switch r := b.BootReason(); r {
	case bcnet.BootNone:
	case bcnet.BootRefused:
		return "refused by the server: a wrong -password, or the game is not taking players now (between matches, or it has no mission); try again in a moment"
	case bcnet.BootFull:
		return "refused by the server: it is full"
	case bcnet.BootBanned:
		return "refused by the server: banned"
	case bcnet.BootKicked:
		return "kicked by the host"
	case bcnet.BootTimedOut:
		return "dropped by the server: timed out"
	default:
		return fmt.Sprintf("booted by the server (reason %d)", r)
	}
	if err := b.Err(); err != nil {
		if errors.Is(err, bcnet.ErrTimedOut) || errors.Is(err, bcnet.ErrUnacked) {
			return "the server went away: it stopped answering (" + err.Error() + ")"
		}
		return "the connection ended: " + err.Error()
	}
	return "the connection ended"
}

func logMessage(log *slog.Logger, p []byte) {
	if len(p) == 0 || logGame(log, p) {
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
	targets := browse.LANTargets()
	if target != "" {
		ap, err := netip.ParseAddrPort(target)
		if err != nil {
			return fmt.Errorf("-targets %q: %w", target, err)
		}
		targets = []netip.AddrPort{ap}
	}
	found, err := browse.Discover(ctx, conn, targets, browse.DefaultDiscoverWait)
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

// resolve turns host:port into an address.
func resolve(addr string) (netip.AddrPort, error) {
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		return ap, nil
	}
	ua, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("-addr %q: %w", addr, err)
	}
	return ua.AddrPort(), nil
}

// serverList reads -addr as a comma-separated list, or as the first of n
// games on consecutive ports.
func serverList(addrs string, n int) ([]netip.AddrPort, error) {
	var out []netip.AddrPort
	for _, a := range strings.Split(addrs, ",") {
		ap, err := resolve(strings.TrimSpace(a))
		if err != nil {
			return nil, err
		}
		out = append(out, ap)
	}
	if n > 1 {
		if len(out) != 1 {
			return nil, errors.New("-games takes one -addr, the first game's")
		}
		for i := 1; i < n; i++ {
			p := int(out[0].Port()) + i
			if p > 65535 {
				return nil, fmt.Errorf("-games %d from port %d runs past 65535", n, out[0].Port())
			}
			out = append(out, netip.AddrPortFrom(out[0].Addr(), uint16(p)))
		}
	}
	return out, nil
}

// pidList reads a comma-separated list of process ids.
func pidList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		p, err := strconv.Atoi(f)
		if err != nil || p <= 0 {
			return nil, fmt.Errorf("-pid %q: not a process id", f)
		}
		out = append(out, p)
	}
	return out, nil
}
