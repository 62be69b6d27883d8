package spectate

import (
	_ "embed"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/bcserver/bcserver/config"
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
}

// Validate reports bad values, naming their keys; adminListen is the
// admin API's address, which the public page must not share.
func (s Section) Validate(adminListen string) error {
	var errs []error
	if s.Listen != "" {
		if _, _, err := net.SplitHostPort(s.Listen); err != nil {
			errs = append(errs, fmt.Errorf("spectate.listen %q: want host:port", s.Listen))
		}
		if s.Listen == adminListen {
			errs = append(errs, errors.New("spectate.listen: the same address as admin.listen; the spectator page is public and has its own"))
		}
	}
	if d := time.Duration(s.Delay); d < 0 || d > time.Hour {
		errs = append(errs, fmt.Errorf("spectate.delay %v: want 0..1h", d))
	}
	if s.MaxViewers < 0 || s.PerAddress < 0 || s.Rate < 0 || s.Burst < 0 {
		errs = append(errs, errors.New("spectate: max_viewers, per_address, rate and burst must not be negative"))
	}
	return errors.Join(errs...)
}

// Options converts the section for New, showing spectators.
func (s Section) Options(spectators []*Spectator) Options {
	return Options{Spectators: spectators, MaxViewers: s.MaxViewers, PerAddress: s.PerAddress, Rate: s.Rate, Burst: s.Burst}
}
