package main

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/bcserver/bcserver/internal/loadgen"
)

// runCompare is the side-by-side mode behind `make loadtest
// PROFILE=compare`: server binaries started fresh for every load, run
// alternately with the same bots, and the table of medians and
// ratios.
func runCompare(ctx context.Context, sides string, rounds, starts int, profiles string, idle time.Duration, addr string, stdout, stderr io.Writer) int {
	var cfg loadgen.CompareConfig
	for _, f := range strings.Split(sides, ",") {
		name, bin, ok := strings.Cut(f, "=")
		if !ok || name == "" || bin == "" {
			fmt.Fprintf(stderr, "bcbot: -compare %q: want NAME=BINARY,NAME=BINARY\n", sides)
			return 2
		}
		cfg.Sides = append(cfg.Sides, loadgen.Side{Name: name, Bin: bin})
	}
	var err error
	if cfg.Profiles, err = loadgen.ParseProfiles(profiles); err != nil {
		fmt.Fprintf(stderr, "bcbot: -profiles: %v\n", err)
		return 2
	}
	if ap, err := netip.ParseAddrPort(addr); err == nil && ap.Port() != 22101 {
		cfg.Port = int(ap.Port())
	}
	cfg.Rounds, cfg.Idle, cfg.Out = rounds, idle, stdout
	cfg.Starts = starts
	if starts == 0 {
		cfg.Starts = -1 // none (the config's zero is the default)
	}
	c, err := loadgen.Compare(ctx, cfg)
	if c != nil {
		fmt.Fprint(stdout, c)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bcbot: %v\n", err)
		return 1
	}
	return 0
}
