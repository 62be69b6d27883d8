package server

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/bcserver/bcserver/config"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/bans"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/agones"
	"github.com/bcserver/bcserver/plugins/gamespy"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/plugins/webhook"
)

// Config is the TOML file a host edits: the server's own sections and
// each plugin's (plugins/<name>/setup.go owns its section's keys, defaults
// and checks). Runtime converts it into the engine's Config; New runs it.
type Config struct {
	Server   ServerSection    `toml:"server"`
	Bans     BansSection      `toml:"bans"`
	Game     GameSection      `toml:"game"`
	Mission  MissionSection   `toml:"mission"`
	Lua      LuaSection       `toml:"lua"`
	Checksum ChecksumSection  `toml:"checksum"`
	Limits   LimitsSection    `toml:"limits"`
	Sim      SimSection       `toml:"simulation"`
	FairPlay FairPlaySection  `toml:"fairplay"`
	Plugins  PluginsSection   `toml:"plugins"`
	Admin    admin.Section    `toml:"admin"`
	Store    store.Section    `toml:"store"`
	Agones   agones.Section   `toml:"agones"`
	Record   record.Section   `toml:"record"`
	Spectate spectate.Section `toml:"spectate"`
	// Webhook is [webhook]: announcements (match ends, joins, the server
	// going up and down) posted to a Discord-compatible webhook.
	Webhook webhook.Section `toml:"webhook"`
	// Accounts is [accounts]: !register and !login for stock clients,
	// protected names.
	Accounts accounts.Section `toml:"accounts"`
	// Ratings is [ratings]: Glicko-2 skill ratings per account, seasons,
	// balanced teams.
	Ratings ratings.Section `toml:"ratings"`
	// Mod is [mod]: a modded game's packs, manifest and client scripts
	// (modconfig.go).
	Mod ModSection `toml:"mod"`
	// Rotation is [[rotation]]: the modes and maps the game plays in
	// turn (rotation.go); [[games]] tables may have their own.
	Rotation []RotationStep `toml:"rotation"`
	// baseMission is the [mission] table before the rotation's first step
	// was merged over it (applyRotation).
	baseMission map[string]any

	// Games are [[games]] tables: more games in this process, each on its
	// own port (games.go).
	Games []GameTable `toml:"games"`

	// copies is -games N: N copies of the top-level game on consecutive
	// ports (Copies).
	copies int

	// reload re-reads the layers this configuration came from (SIGHUP);
	// nil for a configuration built in code.
	reload func() (Config, error)

	// dir is the folder of the configuration file: relative paths in it
	// (bans.file) are relative to it.
	dir config.Dir

	// missions, when set (UseMissions), replaces game.missions_dir.
	missions *missionsRoot

	// missionEnv names the BCSERVER_MISSION_* variable of each [mission]
	// key the environment set, for errors.
	missionEnv map[string]string

	// httpConns, when set, is the HTTP listeners' connection pool instead
	// of the one the descriptor limit allows (tests).
	httpConns int
}

// Duration and ByteSize are the value types of the file's durations and
// sizes (package config).
type (
	Duration = config.Duration
	ByteSize = config.ByteSize
)

// Copies makes the configuration run n copies of its top-level game on
// consecutive ports from server.port (the -games flag, for load tests).
func (c *Config) Copies(n int) { c.copies = n }

// BansSection is [bans]: fixed bans, and the ban list file the server
// keeps (bans added or lifted at run time are written there).
type BansSection struct {
	File      string   `toml:"file"`
	Addresses []string `toml:"addresses"`
	Names     []string `toml:"names"`
}

// SimSection is [simulation].
type SimSection struct {
	DataFolders     []string `toml:"data_folders"`
	Integrity       string   `toml:"integrity"`
	ExplosionRadius float32  `toml:"explosion_radius"`
	ExplosionDamage float32  `toml:"explosion_damage"`
	WeaponDamage    bool     `toml:"weapon_damage"`
	// CollisionPowerPlant puts the power plant in every collision
	// contact's hit set (the stock code's reading; simulation.md 15).
	CollisionPowerPlant bool `toml:"collision_power_plant"`
}

// LimitsSection is [limits]: per-player abuse limits.
type LimitsSection struct {
	FlowRate        float64  `toml:"flow_rate"`
	FlowBurst       float64  `toml:"flow_burst"`
	FlowBytes       ByteSize `toml:"flow_bytes"`
	FlowByteBurst   ByteSize `toml:"flow_byte_burst"`
	FlowBoot        Duration `toml:"flow_boot"`
	SpoofLimit      int      `toml:"spoof_limit"`
	JoinsPerAddress int      `toml:"joins_per_address"`
	// AnswerBytes bounds what the whole process sends a second to
	// addresses that are not players (GameSpy replies, refusals).
	AnswerBytes ByteSize `toml:"answer_bytes"`
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
	// Mode is the mission folder to run.
	Mode string `toml:"mode"`
	// MissionsDir holds the mission folders; empty means ./missions when
	// it exists (so edits to the checked-out missions reload live), else
	// the copy built into the binary.
	MissionsDir     string `toml:"missions_dir"`
	CollisionDamage bool   `toml:"collision_damage"`
	JoinInProgress  bool   `toml:"join_in_progress"`
	// Addons are folders under missions_dir/addons loaded into the mode's
	// Lua state after its main.lua, in this order.
	Addons []string `toml:"addons"`
}

// MissionSection is [mission]: options for the game mode, handed to the
// mission as bc.config. The keys below are checked here; any other key is
// the mission's business.
type MissionSection map[string]any

// ChecksumSection is [checksum].
type ChecksumSection struct {
	Validation   string   `toml:"validation"`
	Manifest     string   `toml:"manifest"`
	RoundTimeout Duration `toml:"round_timeout"`
	// RequireFiles also fails a client that lacks a manifest file
	// (stricter than stock, which fails only differing content).
	RequireFiles bool `toml:"require_files"`
}

// PluginsSection is [plugins.*].
type PluginsSection struct {
	Gamespy gamespy.Config `toml:"gamespy"`
}

// DefaultConfig returns the default configuration (DefaultTOML), a new
// copy each call. It is DefaultTOML decoded ahead of time (defaults_gen.go,
// kept current by TestDefaultsGenerated): decoding the file cost every
// start about 0.6 ms before the server could answer its first query.
func DefaultConfig() Config { return generatedDefaults() }

func decodeStrict(b []byte, c *Config) error {
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

// ErrNoConfig is LoadConfig's error for a configuration file that does
// not exist: a mistyped -config must not start an open server with the
// defaults. WriteDefaultConfig writes one to start from.
var ErrNoConfig = errors.New("no such configuration file (bcserver -init-config -config FILE writes one with the commented defaults)")

// WriteDefaultConfig writes the commented defaults to path, which must
// not exist: a host's first configuration, to edit.
func WriteDefaultConfig(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("writing the default configuration: %w", err)
	}
	if _, err := f.Write(defaultTOML()); err != nil {
		f.Close()
		return fmt.Errorf("writing the default configuration to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the default configuration to %s: %w", path, err)
	}
	return nil
}

// LoadConfig reads path over the defaults (path "": the defaults alone).
// A file that does not exist is an error (ErrNoConfig).
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, fmt.Errorf("%s: %w", path, ErrNoConfig)
	}
	if err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := decodeStrict(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	c.dir = config.Dir(filepath.Dir(path))
	// A relative missions_dir (or storage_dir) is the config file's
	// neighbour, wherever the server is started from.
	if d := c.Game.MissionsDir; d != "" && !filepath.IsAbs(d) {
		c.Game.MissionsDir = filepath.Join(filepath.Dir(path), d)
	}
	if d := c.Lua.StorageDir; d != "" && !filepath.IsAbs(d) {
		c.Lua.StorageDir = filepath.Join(filepath.Dir(path), d)
	}
	return c, nil
}

// Runtime converts the user configuration into the engine's.
func (c Config) Runtime() (engine.Config, error) {
	rc := engine.DefaultConfig()
	var errs []error
	rc.ServerName = c.Server.Name
	rc.MaxPlayers = c.Server.MaxPlayers
	if n := c.Server.MaxPlayers; n < 1 || n > engine.MaxSlots {
		errs = append(errs, fmt.Errorf("server.max_players %d: want 1..%d (stock menus offer 2..%d)", n, engine.MaxSlots, engine.StockMaxPlayers))
	}
	rc.Password = c.Server.Password
	rc.BanFile = c.BanFile()
	for _, a := range c.Bans.Addresses {
		if e, err := bans.Parse(a); err != nil || e.IsName() {
			errs = append(errs, fmt.Errorf("bans.addresses: %q is not an IPv4 address (255 = any octet)", a))
		}
		rc.Bans = append(rc.Bans, a)
	}
	for _, n := range c.Bans.Names {
		if _, err := bans.Parse(bans.NamePrefix + n); err != nil {
			errs = append(errs, fmt.Errorf("bans.names: %q: %w", n, err))
		}
		rc.Bans = append(rc.Bans, bans.NamePrefix+n)
	}
	if fsys, where, err := c.MissionsFS(); err != nil {
		errs = append(errs, err)
	} else {
		if err := lua.CheckMode(fsys, c.Game.Mode); err != nil {
			errs = append(errs, fmt.Errorf("game.mode: %s: %w", where, err))
		}
		for _, a := range c.Game.Addons {
			if err := lua.CheckAddon(fsys, a); err != nil {
				errs = append(errs, fmt.Errorf("game.addons: %s: %w", where, err))
			}
		}
		if err := checkMissionKeys(c.Mission, fsys, c.missionLib(), c.Game.Mode, c.Game.Addons, c.missionEnv); err != nil {
			errs = append(errs, err)
		}
	}
	m, err := c.Mission.check()
	if err != nil {
		errs = append(errs, err)
	}
	// The mission announces its own script and map name when it loads;
	// until then the stock deathmatch's stand in.
	rc.Mission.System, rc.Mission.TimeLimit, rc.Mission.FragLimit = m.System, m.TimeLimit, m.FragLimit
	if _, err := c.Lua.options(); err != nil {
		errs = append(errs, err)
	}
	rc.CollisionDamage = c.Game.CollisionDamage
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
	rc.RequireFiles = c.Checksum.RequireFiles
	if c.Limits.FlowRate < 0 || c.Limits.FlowBurst < 0 || c.Limits.FlowBoot < 0 || c.Limits.SpoofLimit < 0 ||
		c.Limits.FlowBytes < 0 || c.Limits.FlowByteBurst < 0 || c.Limits.JoinsPerAddress < 0 || c.Limits.AnswerBytes < 0 {
		errs = append(errs, fmt.Errorf("limits: values must not be negative"))
	}
	if c.Limits.FlowRate > 0 && c.Limits.FlowBurst < 1 {
		errs = append(errs, fmt.Errorf("limits.flow_burst must be at least 1 when flow_rate is set"))
	}
	rc.FlowRate, rc.FlowBurst, rc.FlowBoot = c.Limits.FlowRate, c.Limits.FlowBurst, time.Duration(c.Limits.FlowBoot)
	rc.SpoofLimit = c.Limits.SpoofLimit
	if c.Limits.FlowBytes > 0 && c.Limits.FlowByteBurst < 512 {
		errs = append(errs, fmt.Errorf("limits.flow_byte_burst must be at least 512 (one datagram) when flow_bytes is set"))
	}
	rc.FlowBytes, rc.FlowByteBurst = float64(c.Limits.FlowBytes), float64(c.Limits.FlowByteBurst)
	rc.JoinsPerAddress = c.Limits.JoinsPerAddress
	if pol, err := engine.ParseIntegrityPolicy(c.Sim.Integrity); err != nil {
		errs = append(errs, fmt.Errorf("simulation.integrity: %w", err))
	} else {
		rc.Integrity = pol
	}
	if !(c.Sim.ExplosionRadius >= 0 && c.Sim.ExplosionRadius < 10000) || !(c.Sim.ExplosionDamage >= 0 && c.Sim.ExplosionDamage < 10000) {
		errs = append(errs, fmt.Errorf("simulation.explosion_radius/explosion_damage: want 0 up to 10000 (the CF16 range)"))
	}
	rc.ExplosionRadius, rc.ExplosionDamage = c.Sim.ExplosionRadius, c.Sim.ExplosionDamage
	rc.NoWeaponDamage = !c.Sim.WeaponDamage
	rc.CollisionPowerPlant = c.Sim.CollisionPowerPlant
	if fp, err := c.FairPlay.runtime(); err != nil {
		errs = append(errs, err)
	} else {
		rc.FairPlay = fp
	}
	if len(c.Sim.DataFolders) > 0 {
		reg, err := ships.Vanilla()
		for _, dir := range c.Sim.DataFolders {
			if err != nil {
				break
			}
			if st, serr := os.Stat(dir); serr != nil || !st.IsDir() {
				err = fmt.Errorf("%s is not a folder", dir)
				break
			}
			reg, err = reg.Overlay(os.DirFS(dir), ".")
			if err != nil {
				err = fmt.Errorf("%s: %w", dir, err)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("simulation.data_folders: %w", err))
		}
		rc.Ships = reg
	}
	if c.Server.Port < 0 || c.Server.Port > 65535 {
		errs = append(errs, fmt.Errorf("server.port %d: want 0..65535", c.Server.Port))
	}
	if _, err := parseLevel(c.Server.LogLevel); err != nil {
		errs = append(errs, fmt.Errorf("server.log_level: %w", err))
	}
	if f := c.Server.LogFormat; f != "text" && f != "json" {
		errs = append(errs, fmt.Errorf("server.log_format %q: want text or json", f))
	}
	for _, err := range []error{c.Admin.Validate(c.dir), c.Store.Validate(), c.Agones.Validate(), c.Record.Validate(), c.Spectate.Validate(c.Admin.Listen), c.Webhook.Validate(), c.Accounts.Validate(c.Store.Path != ""), c.Ratings.Validate(c.Accounts.Enabled)} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.Plugins.Gamespy.Validate(); err != nil {
		// The plugin names each bad key ("masters: ..."): say it as the
		// file's key path, without the plugin's own prefix on top.
		if j, ok := errors.Unwrap(err).(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				errs = append(errs, fmt.Errorf("plugins.gamespy.%w", e))
			}
		} else {
			errs = append(errs, fmt.Errorf("plugins.gamespy: %w", err))
		}
	}
	if err := c.checkRotation(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, c.applyMod(&rc)...)
	if len(errs) == 0 {
		if err := rc.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return rc, errors.Join(errs...)
}

// BanFile returns bans.file resolved against the configuration file's
// folder ("" for none).
func (c Config) BanFile() string { return c.dir.Resolve(c.Bans.File) }

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}
