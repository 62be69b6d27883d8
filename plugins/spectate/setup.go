package spectate

import (
	_ "embed"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/bcserver/bcserver/config"
	"github.com/bcserver/bcserver/internal/httpserve"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [spectate] section of the default configuration
// file, with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [spectate]: the public, delayed, read-only view of the games.
type Section struct {
	Listen     string          `toml:"listen"`
	Delay      config.Duration `toml:"delay"`
	MaxViewers int             `toml:"max_viewers"`
	PerAddress int             `toml:"per_address"`
	Rate       float64         `toml:"rate"`
	Burst      int             `toml:"burst"`
	// ConnectionsPerAddress caps the connections one address (an IPv6
	// /64) holds open; more are answered 503 and closed.
	ConnectionsPerAddress int `toml:"connections_per_address"`
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the viewer (addresses or networks).
	TrustedProxies []string `toml:"trusted_proxies"`
	// ShowLocked shows games that have a password too; by default they
	// are hidden (their players chose a private game).
	ShowLocked bool `toml:"show_locked"`
	// Hide lists games (by their configured port) never shown.
	Hide []int `toml:"hide"`
}

// Hidden reports whether the game on port with password password is
// hidden from spectators.
func (s Section) Hidden(port int, password string) bool {
	return slices.Contains(s.Hide, port) || !s.ShowLocked && password != ""
}

// Validate reports bad values, naming their keys; adminListen is the
// admin API's address, which the public page must not share.
func (s Section) Validate(adminListen string) error {
	var errs []error
	if s.Listen != "" {
		if _, _, err := net.SplitHostPort(s.Listen); err != nil {
			errs = append(errs, fmt.Errorf("spectate.listen %q: want host:port", s.Listen))
		}
		if _, port, _ := net.SplitHostPort(s.Listen); s.Listen == adminListen && port != "0" { // port 0: each its own
			errs = append(errs, errors.New("spectate.listen: the same address as admin.listen; the spectator page is public and has its own"))
		}
	}
	if d := time.Duration(s.Delay); d < 0 || d > time.Hour {
		errs = append(errs, fmt.Errorf("spectate.delay %v: want 0..1h", d))
	}
	if s.MaxViewers < 0 || s.PerAddress < 0 || s.Rate < 0 || s.Burst < 0 || s.ConnectionsPerAddress < 0 {
		errs = append(errs, errors.New("spectate: max_viewers, per_address, rate, burst and connections_per_address must not be negative"))
	}
	if s.ConnectionsPerAddress > 0 && s.ConnectionsPerAddress < s.PerAddress {
		errs = append(errs, fmt.Errorf("spectate.connections_per_address %d: at least per_address (%d), each stream holds a connection", s.ConnectionsPerAddress, s.PerAddress))
	}
	for _, p := range s.Hide {
		if p < 0 || p > 65535 {
			errs = append(errs, fmt.Errorf("spectate.hide: %d is not a port", p))
		}
	}
	if _, err := httpserve.ParseProxies("spectate.trusted_proxies", s.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Proxies returns the trusted proxies (Validate checked them).
func (s Section) Proxies() httpserve.Proxies {
	ps, _ := httpserve.ParseProxies("spectate.trusted_proxies", s.TrustedProxies)
	return ps
}

// DefaultConnectionsPerAddress is connections_per_address when 0: a
// browser opens up to six to one site, and a household may have a few.
const DefaultConnectionsPerAddress = 16

// Connections returns connections_per_address, or its default.
func (s Section) Connections() int {
	if s.ConnectionsPerAddress > 0 {
		return s.ConnectionsPerAddress
	}
	return DefaultConnectionsPerAddress
}

// Options converts the section for New, showing spectators.
func (s Section) Options(spectators []*Spectator) Options {
	return Options{Spectators: spectators, MaxViewers: s.MaxViewers, PerAddress: s.PerAddress, Rate: s.Rate, Burst: s.Burst}
}
