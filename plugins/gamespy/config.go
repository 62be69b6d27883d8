package gamespy

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bcserver/bcserver/config"
)

// Config is the host-editable configuration of the plugin (the README's
// Syntax section lists the keys). [DefaultConfig] gives the stock
// behaviour; the struct tags name the keys in the server's TOML file.
type Config struct {
	// Enabled turns query answering and heartbeats on.
	Enabled bool `toml:"enabled"`
	// Masters lists master servers as "host" or "host:port" (port 27900
	// by default). Empty means LAN only: no heartbeats.
	Masters []string `toml:"masters"`
	// Heartbeat is the time between repeated heartbeats (30s).
	Heartbeat config.Duration `toml:"heartbeat"`
	// HeartbeatRepeats is how many repeats follow the first heartbeat or a
	// state change before they stop (10; negative: never stop).
	HeartbeatRepeats int `toml:"heartbeat_repeats"`
	// HeartbeatIdle, when positive, keeps heartbeats going at this pace
	// after the repeats instead of stopping (0; the GameSpy SDK uses 5m).
	HeartbeatIdle config.Duration `toml:"heartbeat_idle"`
	// HostEntry is the `player_0` name the server lists for itself
	// ("Dedicated Server"); NoHostEntry leaves that entry out.
	HostEntry   string `toml:"host_entry"`
	NoHostEntry bool   `toml:"no_host_entry"`
	// RateLimit enables the per-source query limit (true).
	RateLimit bool `toml:"rate_limit"`
	// RateBurst, RatePerSecond and RateSources tune it (8, 4, 4096).
	RateBurst     int     `toml:"rate_burst"`
	RatePerSecond float64 `toml:"rate_per_second"`
	RateSources   int     `toml:"rate_sources"`
	// MaxDatagrams caps the datagrams one query can produce (8).
	MaxDatagrams int `toml:"max_datagrams"`
}

// DefaultConfig returns the stock-compatible configuration.
func DefaultConfig() Config {
	return Config{
		Enabled:          true,
		Heartbeat:        config.Duration(DefaultHeartbeatInterval),
		HeartbeatRepeats: DefaultHeartbeatRepeats,
		HostEntry:        DefaultHostEntry,
		RateLimit:        true,
		RateBurst:        DefaultRateBurst,
		RatePerSecond:    DefaultRatePerSecond,
		RateSources:      DefaultRateMaxSources,
		MaxDatagrams:     DefaultMaxDatagrams,
	}
}

// Validate reports every bad value, naming its key.
func (c Config) Validate() error {
	var errs []error
	if c.Heartbeat < 0 {
		errs = append(errs, fmt.Errorf("heartbeat: %v is negative", time.Duration(c.Heartbeat)))
	}
	if c.HeartbeatIdle < 0 {
		errs = append(errs, fmt.Errorf("heartbeat_idle: %v is negative", time.Duration(c.HeartbeatIdle)))
	}
	if c.RateBurst < 0 {
		errs = append(errs, fmt.Errorf("rate_burst: %d is negative", c.RateBurst))
	}
	if c.RatePerSecond < 0 {
		errs = append(errs, fmt.Errorf("rate_per_second: %v is negative", c.RatePerSecond))
	}
	if c.RateSources < 0 {
		errs = append(errs, fmt.Errorf("rate_sources: %d is negative", c.RateSources))
	}
	if c.MaxDatagrams < 0 {
		errs = append(errs, fmt.Errorf("max_datagrams: %d is negative", c.MaxDatagrams))
	}
	for _, m := range c.Masters {
		if _, err := parseMaster(m); err != nil {
			errs = append(errs, fmt.Errorf("masters: %q: %w", m, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("plugin/gamespy: config: %w", err)
	}
	return nil
}

// ResponderOptions converts the configuration into [Options].
func (c Config) ResponderOptions(info func() ServerInfo, log *slog.Logger) Options {
	return Options{
		Info: info,
		RateLimit: RateLimit{
			Disabled:   !c.RateLimit,
			Burst:      c.RateBurst,
			PerSecond:  c.RatePerSecond,
			MaxSources: c.RateSources,
		},
		MaxDatagrams: c.MaxDatagrams,
		HostEntry:    c.HostEntry,
		NoHostEntry:  c.NoHostEntry,
		Logger:       log,
	}
}

// HeartbeatOptions converts the configuration into [HeartbeatOptions] for
// the game on gamePort; resolve may be nil for the system resolver.
func (c Config) HeartbeatOptions(gamePort int, resolve Resolver, log *slog.Logger) HeartbeatOptions {
	return HeartbeatOptions{
		Masters:      c.Masters,
		GamePort:     gamePort,
		Interval:     time.Duration(c.Heartbeat),
		MaxRepeats:   c.HeartbeatRepeats,
		IdleInterval: time.Duration(c.HeartbeatIdle),
		Resolve:      resolve,
		Logger:       log,
	}
}
