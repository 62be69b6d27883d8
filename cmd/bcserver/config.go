package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

//go:embed default.toml
var defaultTOML []byte

// UserConfig is the TOML file a host edits. It is converted into the
// engine's runtime Config by Runtime.
type UserConfig struct {
	Server   ServerSection   `toml:"server"`
	Game     GameSection     `toml:"game"`
	Mission  MissionSection  `toml:"mission"`
	Checksum ChecksumSection `toml:"checksum"`
	Limits   LimitsSection   `toml:"limits"`
	Plugins  PluginsSection  `toml:"plugins"`
}

// LimitsSection is [limits]: per-player abuse limits.
type LimitsSection struct {
	FlowRate   float64  `toml:"flow_rate"`
	FlowBurst  float64  `toml:"flow_burst"`
	FlowBoot   Duration `toml:"flow_boot"`
	SpoofLimit int      `toml:"spoof_limit"`
}

// ServerSection is [server].
type ServerSection struct {
	Name       string `toml:"name"`
	Address    string `toml:"address"`
	Port       int    `toml:"port"`
	MaxPlayers int    `toml:"max_players"`
	Password   string `toml:"password"`
	LogLevel   string `toml:"log_level"`
	LogFormat  string `toml:"log_format"`
}

// GameSection is [game].
type GameSection struct {
	Mode            string `toml:"mode"`
	CollisionDamage bool   `toml:"collision_damage"`
	FriendlyFire    bool   `toml:"friendly_fire"`
	JoinInProgress  bool   `toml:"join_in_progress"`
}

// MissionSection is [mission]: options for the game mode.
type MissionSection struct {
	System    string `toml:"system"`
	TimeLimit int    `toml:"time_limit"`
	FragLimit int    `toml:"frag_limit"`
}

// ChecksumSection is [checksum].
type ChecksumSection struct {
	Validation   string   `toml:"validation"`
	Manifest     string   `toml:"manifest"`
	RoundTimeout Duration `toml:"round_timeout"`
}

// PluginsSection is [plugins.*].
type PluginsSection struct {
	Gamespy GamespyConfig `toml:"gamespy"`
}

// GamespyConfig mirrors gamespy.Config with durations as TOML strings.
type GamespyConfig struct {
	Enabled          bool     `toml:"enabled"`
	Masters          []string `toml:"masters"`
	Heartbeat        Duration `toml:"heartbeat"`
	HeartbeatRepeats int      `toml:"heartbeat_repeats"`
	HeartbeatIdle    Duration `toml:"heartbeat_idle"`
	HostEntry        string   `toml:"host_entry"`
	NoHostEntry      bool     `toml:"no_host_entry"`
	RateLimit        bool     `toml:"rate_limit"`
	RateBurst        int      `toml:"rate_burst"`
	RatePerSecond    float64  `toml:"rate_per_second"`
	RateSources      int      `toml:"rate_sources"`
	MaxDatagrams     int      `toml:"max_datagrams"`
}

// Duration is a time.Duration written as a string ("30s") in TOML.
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// DefaultUserConfig returns the embedded default configuration.
func DefaultUserConfig() UserConfig {
	var c UserConfig
	gs := gamespy.DefaultConfig()
	c.Plugins.Gamespy = GamespyConfig{
		Enabled: gs.Enabled, Heartbeat: Duration(gs.Heartbeat), HeartbeatRepeats: gs.HeartbeatRepeats,
		HostEntry: gs.HostEntry, RateLimit: gs.RateLimit, RateBurst: gs.RateBurst,
		RatePerSecond: gs.RatePerSecond, RateSources: gs.RateSources, MaxDatagrams: gs.MaxDatagrams,
	}
	if err := decodeStrict(defaultTOML, &c); err != nil {
		panic(fmt.Sprintf("embedded default.toml: %v", err)) // a build defect, caught by the tests
	}
	return c
}

func decodeStrict(b []byte, c *UserConfig) error {
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		var sme *toml.StrictMissingError
		if errors.As(err, &sme) {
			var keys []string
			for _, e := range sme.Errors {
				keys = append(keys, strings.Join(e.Key(), "."))
			}
			return fmt.Errorf("unknown key(s) %s", strings.Join(keys, ", "))
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			if k := de.Key(); len(k) > 0 {
				return fmt.Errorf("line %d column %d: %s: %s", row, col, strings.Join(k, "."), de.Error())
			}
			return fmt.Errorf("line %d column %d: %s", row, col, de.Error())
		}
		return err
	}
	return nil
}

// LoadConfig reads path over the defaults. A missing file is written out
// with the commented defaults first, so a host has something to edit.
func LoadConfig(path string) (UserConfig, error) {
	c := DefaultUserConfig()
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(path, defaultTOML, 0o644); err != nil {
			return c, fmt.Errorf("writing the default configuration to %s: %w", path, err)
		}
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := decodeStrict(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// modes maps [game] mode to the stock mission script and its short name
// (missions.md 3.1). "DM" is the short name captured from a stock server.
var modes = map[string]engine.Mission{
	"deathmatch":          {Script: "Multiplayer.Episode.Mission1.Mission1", MapName: "DM"},
	"team-deathmatch":     {Script: "Multiplayer.Episode.Mission2.Mission2", MapName: "TDM"},
	"fed-vs-nonfed":       {Script: "Multiplayer.Episode.Mission3.Mission3", MapName: "FvN"},
	"defend-the-starbase": {Script: "Multiplayer.Episode.Mission5.Mission5", MapName: "DTS"},
}

// systems are the stock star systems (missions.md 6.2).
var systems = []string{"Multi1", "Multi2", "Multi3", "Multi4", "Multi5", "Multi6", "Multi7", "Albirea", "Poseidon"}

// Runtime converts the user configuration into the engine's.
func (c UserConfig) Runtime() (engine.Config, error) {
	rc := engine.DefaultConfig()
	var errs []error
	rc.ServerName = c.Server.Name
	rc.MaxPlayers = c.Server.MaxPlayers
	rc.Password = c.Server.Password
	m, ok := modes[c.Game.Mode]
	if !ok {
		errs = append(errs, fmt.Errorf("game.mode %q: want one of deathmatch, team-deathmatch, fed-vs-nonfed, defend-the-starbase", c.Game.Mode))
	}
	if !validSystem(c.Mission.System) {
		errs = append(errs, fmt.Errorf("mission.system %q: want one of %s", c.Mission.System, strings.Join(systems, ", ")))
	}
	m.System = c.Mission.System
	m.TimeLimit = c.Mission.TimeLimit
	m.FragLimit = c.Mission.FragLimit
	rc.Mission = m
	rc.CollisionDamage = c.Game.CollisionDamage
	rc.FriendlyFire = c.Game.FriendlyFire
	rc.JoinInProgress = c.Game.JoinInProgress
	mode, err := checksum.ParseMode(c.Checksum.Validation)
	if err != nil {
		errs = append(errs, fmt.Errorf("checksum.validation: %w", err))
	}
	rc.Validation = mode
	if c.Checksum.Manifest != "" {
		man, err := checksum.ParseManifestFile(c.Checksum.Manifest)
		if err != nil {
			errs = append(errs, fmt.Errorf("checksum.manifest: %w", err))
		}
		rc.Manifest = man
	}
	if c.Checksum.RoundTimeout > 0 {
		rc.RoundTimeout = time.Duration(c.Checksum.RoundTimeout)
	}
	if c.Limits.FlowRate < 0 || c.Limits.FlowBurst < 0 || c.Limits.FlowBoot < 0 || c.Limits.SpoofLimit < 0 {
		errs = append(errs, fmt.Errorf("limits: values must not be negative"))
	}
	if c.Limits.FlowRate > 0 && c.Limits.FlowBurst < 1 {
		errs = append(errs, fmt.Errorf("limits.flow_burst must be at least 1 when flow_rate is set"))
	}
	rc.FlowRate, rc.FlowBurst, rc.FlowBoot = c.Limits.FlowRate, c.Limits.FlowBurst, time.Duration(c.Limits.FlowBoot)
	rc.SpoofLimit = c.Limits.SpoofLimit
	if c.Server.Port < 0 || c.Server.Port > 65535 {
		errs = append(errs, fmt.Errorf("server.port %d: want 0..65535", c.Server.Port))
	}
	if _, err := parseLevel(c.Server.LogLevel); err != nil {
		errs = append(errs, fmt.Errorf("server.log_level: %w", err))
	}
	if f := c.Server.LogFormat; f != "text" && f != "json" {
		errs = append(errs, fmt.Errorf("server.log_format %q: want text or json", f))
	}
	if err := c.Plugins.Gamespy.Runtime().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("plugins.gamespy: %w", err))
	}
	if len(errs) == 0 {
		if err := rc.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return rc, errors.Join(errs...)
}

// Runtime converts the TOML form into gamespy.Config.
func (g GamespyConfig) Runtime() gamespy.Config {
	return gamespy.Config{
		Enabled: g.Enabled, Masters: g.Masters, Heartbeat: time.Duration(g.Heartbeat),
		HeartbeatRepeats: g.HeartbeatRepeats, HeartbeatIdle: time.Duration(g.HeartbeatIdle),
		HostEntry: g.HostEntry, NoHostEntry: g.NoHostEntry, RateLimit: g.RateLimit,
		RateBurst: g.RateBurst, RatePerSecond: g.RatePerSecond, RateSources: g.RateSources,
		MaxDatagrams: g.MaxDatagrams,
	}
}

func validSystem(s string) bool {
	for _, v := range systems {
		if v == s {
			return true
		}
	}
	return false
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}
