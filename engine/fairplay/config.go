package fairplay

import (
	"errors"
	"fmt"
)

// Config is the fair-play configuration of a game.
type Config struct {
	// Off turns every rule off: nothing is judged, counted or dropped.
	Off        bool
	Tolerances Tolerances
	Policy     Policy
	// Rates are the message rates by class; RateScale multiplies every
	// one (a load test's generator, say, needs more than a player).
	Rates     [numClasses]RateLimit
	RateScale float64
}

// DefaultConfig returns the defaults: every rule on, violations logged
// and dropped, nobody kicked.
func DefaultConfig() Config {
	return Config{Tolerances: DefaultTolerances(), Policy: DefaultPolicy(), Rates: DefaultRates(), RateScale: 1}
}

// Validate checks the configuration (nothing when the rules are off).
func (c *Config) Validate() error {
	if c.Off {
		return nil
	}
	var errs []error
	if err := c.Tolerances.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Policy.Validate(); err != nil {
		errs = append(errs, err)
	}
	if !(c.RateScale > 0) || c.RateScale > 1e9 {
		errs = append(errs, fmt.Errorf("rate_scale %v: want more than 0", c.RateScale))
	}
	return errors.Join(errs...)
}
