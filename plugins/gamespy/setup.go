package gamespy

import (
	_ "embed"
	"slices"
)

// The plugin's section of the server's configuration file is
// [gamespy]: Config, with its keys in the struct tags and its
// defaults in DefaultConfig and DefaultTOML.

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [gamespy] section of the default
// configuration file, with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Setup returns the plugin for cfg, announcing opts.GamePort; the server
// adds it to its game (engine.Game.AddPlugin).
func Setup(cfg Config, opts PluginOptions) *Plugin { return NewPlugin(cfg, opts) }
