package server

import (
	"fmt"
	"os"
)

// Load builds the configuration from its layers, lowest first: the
// built-in defaults, the file at path ("" for none; a missing one is
// written with the defaults), the BCSERVER_* variables of environ, then
// flags (nil for none). The result remembers how to do it again: a SIGHUP
// re-reads the file and the process's environment and applies the same
// flags.
func Load(path string, environ []string, flags func(*Config)) (Config, error) {
	uc, err := LoadConfig(path)
	if err != nil {
		return uc, err
	}
	if err := applyEnv(&uc, environ); err != nil {
		return uc, fmt.Errorf("environment: %w", err)
	}
	if flags != nil {
		flags(&uc)
	}
	uc.reload = func() (Config, error) { return Load(path, os.Environ(), flags) }
	return uc, nil
}

// StoreFile is the match history's database file ([store] path, relative
// to the configuration file's folder), "" when the history is off.
func (c Config) StoreFile() string {
	if c.Store.Path == "" {
		return ""
	}
	return c.dir.Resolve(c.Store.Path)
}
