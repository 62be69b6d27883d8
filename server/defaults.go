package server

import (
	"bytes"
	_ "embed"
	"sync"
)

// The default configuration file, with a comment on every key: the
// server's own sections (default.toml), each plugin's section as the
// plugin writes it, then the notes on [[games]] (default_games.toml).
var (
	//go:embed default.toml
	coreTOML []byte
	//go:embed default_games.toml
	gamesTOML []byte

	// defaultTOML is the whole file (never modified), put together when
	// first needed: a server started with a configuration file (or with
	// none, from the compiled-in defaults) never needs it.
	defaultTOML = sync.OnceValue(func() []byte {
		return bytes.Join([][]byte{
			coreTOML, pluginsTOML(), gamesTOML,
		}, nil)
	})
)

// DefaultTOML returns the default configuration file: what a missing
// configuration file is written as, and what -print-config prints.
func DefaultTOML() []byte { return bytes.Clone(defaultTOML()) }

// pluginsTOML is every plugin's section, in the registry's order.
func pluginsTOML() []byte {
	var b []byte
	for _, pl := range plugins {
		if pl.defaults != nil {
			b = append(b, pl.defaults()...)
		}
	}
	return b
}
