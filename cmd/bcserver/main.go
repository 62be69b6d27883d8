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
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/server"

	// Loads the built-in data during initialization (see its doc).
	_ "github.com/bcserver/bcserver/cmd/bcserver/internal/prewarm"
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
		cfgPath     = fs.String("config", "", "TOML configuration file (it must exist; see -init-config)")
		initConfig  = fs.Bool("init-config", false, "with -config: write the commented defaults to that file first if it does not exist")
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
		fmt.Fprintf(stderr, "usage: bcserver [flags]\n       bcserver missions export DIR\n       bcserver test-missions DIR\n       bcserver replay [-json] [-all] FILE\n       bcserver import SCRIPTS_DIR OUT_DIR\n       bcserver backup [-config FILE | -db FILE] OUT\n\n"+
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
		case "backup":
			return backupCommand(args[1:], stdout, stderr)
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // asked for: the usage is the answer
		}
		return 2
	}
	if *printConfig {
		stdout.Write(server.DefaultTOML())
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
	if *cfgPath == "" {
		*cfgPath = os.Getenv("BCSERVER_CONFIG")
	}
	flags := func(uc *server.Config) {
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
		uc.Copies(*copies)
	}
	if *initConfig {
		if *cfgPath == "" {
			fmt.Fprintln(stderr, "bcserver: -init-config needs -config FILE")
			return 2
		}
		if _, err := os.Stat(*cfgPath); errors.Is(err, os.ErrNotExist) {
			if err := server.WriteDefaultConfig(*cfgPath); err != nil {
				fmt.Fprintf(stderr, "bcserver: %v\n", err)
				return 1
			}
			fmt.Fprintf(stderr, "bcserver: wrote the default configuration to %s\n", *cfgPath)
		}
	}
	uc, err := server.Load(*cfgPath, os.Environ(), flags)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: configuration: %v\n", err)
		return 1
	}
	if _, err := uc.Runtime(); err != nil {
		fmt.Fprintf(stderr, "bcserver: configuration: %v\n", err)
		return 1
	}
	log := server.NewLogger(stderr, uc.Server)
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver: %v\n", err)
			return 1
		}
		defer stopProfile()
	}

	ctx, stop, _ := notifyContext(os.Interrupt, syscall.SIGTERM)
	defer stop()
	pct := startupGC()
	srv, err := server.New(ctx, uc, server.Options{Logger: log, Version: versionString()})
	if err == nil {
		// The first GameSpy query is answered once every game's loop runs:
		// what is not needed for that (collecting start-up's garbage,
		// releasing its pages) waits until then.
		go func() {
			select {
			case <-srv.Ready():
			case <-ctx.Done():
				return
			}
			_ = srv.Games()[0].Do(ctx, func(*engine.Game) {})
			runtimeGC(pct, len(srv.Games()), log)
			releaseSettled(ctx, log, settleDelay, func() bool { return anyPlayers(ctx, srv) })
		}()
		err = srv.Run(ctx)
	}
	if err != nil {
		log.Error("server failed", "err", err)
		return 1
	}
	return 0
}

// anyPlayers reports whether any running game has a player connected (or
// it cannot say: ctx ended). A game that stopped (it failed) has none.
func anyPlayers(ctx context.Context, srv *server.Server) bool {
	for _, g := range srv.Games() {
		n := 0
		err := g.Do(ctx, func(e *engine.Game) { n = e.NumPlayers(false) })
		if ctx.Err() != nil || err == nil && n > 0 {
			return true
		}
	}
	return false
}

// probe is -healthcheck: a container health check without curl in the
// image.
func probe(url string, stderr io.Writer) int {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: health check: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "bcserver: health check: %s\n", resp.Status)
		return 1
	}
	return 0
}

// notifyContext is signal.NotifyContext(context.Background(), sigs...),
// except that the signals are registered on a goroutine of their own: the
// process's first registration starts the runtime's signal thread and
// waits for it (half a millisecond on a small VM), which the games' first
// answers need not wait for. A signal in the moment before has its
// default effect (SIGTERM ends the process, as before main ran);
// registered is closed once they are caught.
func notifyContext(sigs ...os.Signal) (ctx context.Context, stop func(), registered <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	done, reg := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		signal.Notify(ch, sigs...)
		close(reg)
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		cancel()
		<-done
		signal.Stop(ch)
	}, reg
}
