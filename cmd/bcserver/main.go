// Command bcserver is a dedicated server for Star Trek: Bridge Commander 1.1
// multiplayer. With no arguments it serves a stock deathmatch on UDP port
// 22101; see the README for the configuration file and flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/metrics"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses the command line, starts the server and blocks until
// SIGINT/SIGTERM. It returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bcserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfgPath     = fs.String("config", "", "TOML configuration file (written with the defaults if missing)")
		port        = fs.Int("port", -1, "UDP port (overrides server.port)")
		addr        = fs.String("addr", "", "bind address (overrides server.address)")
		name        = fs.String("name", "", "server name (overrides server.name)")
		maxPlayers  = fs.Int("max-players", 0, "player limit 1..16 (overrides server.max_players)")
		mode        = fs.String("mode", "", "game mode (overrides game.mode)")
		missionsDir = fs.String("missions-dir", "", "folder of missions (overrides game.missions_dir)")
		logLevel    = fs.String("log-level", "", "debug, info, warn or error (overrides server.log_level)")
		validation  = fs.String("validation", "", "strict, verified or off (overrides checksum.validation)")
		manifest    = fs.String("manifest", "", "hash manifest file (overrides checksum.manifest)")
		adminAddr   = fs.String("admin", "", "admin API, console and metrics address, e.g. 127.0.0.1:8080 (overrides admin.listen)")
		printConfig = fs.Bool("print-config", false, "print the default configuration and exit")
		showVersion = fs.Bool("version", false, "print the version and exit")
		copies      = fs.Int("games", 1, "run this many copies of the configured game on consecutive ports from -port (load tests)")
		healthcheck = fs.String("healthcheck", "", "GET this URL (e.g. http://127.0.0.1:8080/healthz) and exit 0 if it answers 200 (container health checks)")
		cpuProfile  = fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file (for `go tool pprof`)")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver [flags]\n       bcserver missions export DIR\n       bcserver test-missions DIR\n       bcserver replay [-json] FILE\n       bcserver import SCRIPTS_DIR OUT_DIR\n\n"+
			"Flags override BCSERVER_* environment variables, which override the configuration file,\nwhich overrides the built-in defaults.\n\n")
		fs.PrintDefaults()
	}
	if len(args) > 0 {
		switch args[0] {
		case "missions":
			return missionsCommand(args[1:], stdout, stderr)
		case "test-missions":
			return testMissionsCommand(args[1:], stdout, stderr)
		case "replay":
			return replayCommand(args[1:], stdout, stderr)
		case "import":
			return importCommand(args[1:], stdout, stderr)
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // asked for: the usage is the answer
		}
		return 2
	}
	if *printConfig {
		stdout.Write(defaultTOML)
		return 0
	}
	if *showVersion {
		fmt.Fprintf(stdout, "bcserver %s\n", versionString())
		return 0
	}
	if *healthcheck != "" {
		return probe(*healthcheck, stderr)
	}
	// No heap profile is ever taken from a running server: sampling
	// start-up's allocations would keep a profile hash table resident.
	runtime.MemProfileRate = 0
	prewarm()
	if *cfgPath == "" {
		*cfgPath = os.Getenv("BCSERVER_CONFIG")
	}
	flags := func(uc *UserConfig) {
		if *port >= 0 {
			uc.Server.Port = *port
		}
		if *addr != "" {
			uc.Server.Address = *addr
		}
		if *name != "" {
			uc.Server.Name = *name
		}
		if *maxPlayers != 0 {
			uc.Server.MaxPlayers = *maxPlayers
		}
		if *mode != "" {
			uc.Game.Mode = *mode
		}
		if *missionsDir != "" {
			uc.Game.MissionsDir = *missionsDir
		}
		if *logLevel != "" {
			uc.Server.LogLevel = *logLevel
		}
		if *validation != "" {
			uc.Checksum.Validation = *validation
		}
		if *manifest != "" {
			uc.Checksum.Manifest = *manifest
		}
		if *adminAddr != "" {
			uc.Admin.Listen = *adminAddr
		}
		uc.copies = *copies
	}
	_, statErr := os.Stat(*cfgPath)
	uc, err := loadLayers(*cfgPath, os.Environ(), flags)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: configuration: %v\n", err)
		return 1
	}
	if *cfgPath != "" && errors.Is(statErr, os.ErrNotExist) {
		fmt.Fprintf(stderr, "bcserver: %s did not exist: wrote the default configuration there\n", *cfgPath)
	}
	rc, err := uc.Runtime()
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: configuration: %v\n", err)
		return 1
	}
	log := newLogger(stderr, uc.Server)
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver: %v\n", err)
			return 1
		}
		defer stopProfile()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first GameSpy query is answered once every game's loop runs:
	// what is not needed for that (collecting start-up's garbage,
	// releasing its pages) waits until then.
	games := 1
	if specs, err := uc.games(); err == nil {
		games = len(specs)
	}
	pct := startupGC()
	afterStart := func(s *served) {
		go func() {
			_ = s.srv.Do(ctx, func(*engine.Game) {})
			runtimeGC(pct, games, log)
		}()
	}
	if err := serveFull(ctx, uc, rc, log, afterStart); err != nil {
		log.Error("server failed", "err", err)
		return 1
	}
	return 0
}

// serve runs the server until ctx ends. started, if set, is called once
// the server takes traffic (tests use it).
func serve(ctx context.Context, uc UserConfig, rc engine.Config, log *slog.Logger, started func(*engine.Server, *lua.Host)) error {
	return serveFull(ctx, uc, rc, log, func(s *served) {
		if started != nil {
			started(s.srv, s.missions.current())
		}
	})
}

// served is a running server as the tests see it: the first game, and
// all of them.
type served struct {
	srv      *engine.Server
	missions *missionSlot
	op       *operator
	games    []*gameUnit
}

func serveFull(ctx context.Context, uc UserConfig, rc engine.Config, log *slog.Logger, started func(*served)) error {
	// The log tail feeds the console; every logger below writes through it.
	tail := admin.NewTail(300)
	log = slog.New(tail.Handler(log.Handler()))
	specs, err := uc.games()
	if err != nil {
		return err
	}
	multi := len(specs) > 1
	p := &process{log: log, answers: bcnet.NewAnswerBudget(int(uc.Limits.AnswerBytes)), watches: newMissionWatches(ctx, log)}
	if multi {
		p.registry = metrics.NewRegistry()
	}
	var units []*gameUnit
	defer func() {
		if err != nil {
			for _, u := range units {
				u.srv.Close()
			}
		}
	}()
	for i, g := range specs {
		grc := rc
		if multi {
			if grc, err = g.Runtime(); err != nil {
				return fmt.Errorf("game on port %d: %w", g.Server.Port, err)
			}
		}
		grc.TickPhase = time.Duration(i) * grc.TickInterval / time.Duration(len(specs))
		label := strconv.Itoa(g.Server.Port)
		if g.Server.Port == 0 {
			label = "game" + strconv.Itoa(i)
		}
		var u *gameUnit
		if u, err = startGame(p, g, grc, label, multi); err != nil {
			return fmt.Errorf("game %s: %w", label, err)
		}
		units = append(units, u)
	}
	if multi {
		log.Info("games in this process", "games", len(units))
	}
	op, err := startOperator(uc, units, tail, log)
	if err != nil {
		return err
	}
	defer op.stop()
	stopHUP := watchHUP(ctx, units, log)
	defer stopHUP()
	op.ready()
	if started != nil {
		started(&served{srv: units[0].srv, missions: units[0].missions, op: op, games: units})
	}
	return runGames(ctx, units, log)
}

// ids gives players uids that are stable for the life of the process,
// across every game it runs.
var ids = lua.NewIdentities()

// startMission loads the configured mission on the game (before it runs)
// and reloads it when its files change, until ctx ends.
func startMission(watches *missionWatches, uc UserConfig, g *engine.Game, log *slog.Logger, m *metrics.Metrics) (*missionSlot, error) {
	fsys, where, err := uc.MissionsFS()
	if err != nil {
		return nil, err
	}
	opts, err := uc.Lua.options()
	if err != nil {
		return nil, err
	}
	opts.Mode, opts.FS, opts.Config, opts.Logger, opts.Addons = uc.Game.Mode, fsys, uc.Mission, log, uc.Game.Addons
	opts.Identities = ids
	opts.Stats = careerLookup(g)
	if where != builtinMissions {
		// A host's own folder still reaches the built-in lib/ (the stock
		// rules the tutorial builds on) for modules it does not have.
		opts.LibFS = missions.FS()
	}
	ms := newMissionSlot(g, fsys, where, opts, log)
	budget := opts.Budget
	if budget <= 0 {
		budget = lua.DefaultBudget
	}
	ms.wrap = func(g *engine.Game, mode string) lua.Engine {
		return timedGame{Game: g, m: m, mode: mode, budget: budget}
	}
	ms.reloaded = m.Reloaded
	if err := g.AddPlugin(ms); err != nil {
		return nil, err
	}
	if ms.Failure() == "" {
		log.Info("mission running", "component", "lua", "mission", uc.Game.Mode, "from", where)
	}
	reload := func(why string) {
		h := ms.current()
		if h == nil {
			// The game has no mission (it failed to start): any change
			// in the folder is another try.
			log.Info("starting the mission again", "component", "lua", "why", why)
			g.Post(func() { _ = ms.retry() })
			return
		}
		log.Info("reloading the mission", "component", "lua", "mission", h.Mode(), "why", why)
		h.Reload(func(err error) { m.Reloaded(h.Mode(), err) })
	}
	if where != builtinMissions && uc.Lua.Watch != "off" {
		wo := lua.WatchOptions{Dir: where, Logger: log}
		if uc.Lua.Watch == "poll" {
			wo.Poll = time.Duration(uc.Lua.PollInterval)
			if wo.Poll <= 0 {
				wo.Poll = lua.DefaultPollInterval
			}
		}
		err := watches.subscribe(wo, func(paths []string) {
			for _, p := range paths {
				if h := ms.current(); h == nil || h.Affects(p) {
					reload("changed " + p)
					return
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return ms, nil
}

func newLogger(w io.Writer, s ServerSection) *slog.Logger {
	lvl, _ := parseLevel(s.LogLevel)
	opts := &slog.HandlerOptions{Level: lvl}
	if s.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func netListenUDP() (*net.UDPConn, error) {
	return net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
}
