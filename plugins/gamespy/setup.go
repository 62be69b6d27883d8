package gamespy

import (
	_ "embed"
	"slices"

	"github.com/bcserver/bcserver/engine"
)

// The plugin's section of the server's configuration file is
// [gamespy]: Config, with its keys in the struct tags and its
// defaults in DefaultConfig and DefaultTOML.

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [gamespy] section of the default
// configuration file, with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Setup adds the plugin for cfg to game g, announcing opts.GamePort.
func Setup(g *engine.Game, cfg Config, opts PluginOptions) (*Plugin, error) {
	p := NewPlugin(cfg, opts)
	if err := g.AddPlugin(p); err != nil {
		return nil, err
	}
	return p, nil
}
