package agones

import (
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/bcserver/bcserver/config"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [agones] section of the default configuration file,
// with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [agones]: used when AGONES_SDK_HTTP_PORT is set.
type Section struct {
	HealthInterval     config.Duration `toml:"health_interval"`
	ShutdownAfterMatch bool            `toml:"shutdown_after_match"`
	// StartOnAllocation starts a fresh match when Agones allocates the
	// game server (Options.StartOnAllocation).
	StartOnAllocation bool `toml:"start_on_allocation"`
}

// Validate reports bad values, naming their keys.
func (s Section) Validate() error {
	if s.HealthInterval < 0 {
		return errors.New("agones.health_interval: must not be negative")
	}
	return nil
}

// Setup adds the plugin to g when the process runs under Agones (the SDK
// sidecar's port is in the environment, FromEnv); otherwise it returns
// nil. One sidecar serves a process: add it to one game.
func Setup(s Section, log *slog.Logger) (*Plugin, error) {
	url, ok, err := FromEnv()
	if err != nil {
		return nil, fmt.Errorf("plugin/agones: %w", err)
	}
	if !ok {
		return nil, nil
	}
	p := New(Options{BaseURL: url, HealthInterval: time.Duration(s.HealthInterval), ShutdownAfterMatch: s.ShutdownAfterMatch,
		StartOnAllocation: s.StartOnAllocation, Logger: log})
	log.Info("talking to the Agones SDK sidecar", "component", "plugin/agones", "url", url)
	return p, nil
}
