package server

import (
	"fmt"
	"time"

	"github.com/bcserver/bcserver/engine/fairplay"
)

// FairPlaySection is [fairplay]: the fair-play rules (README, "Fair
// play"). The escalation keys at the top apply to every rule; a table
// named after a rule ([fairplay.teleport]) overrides them for that rule.
type FairPlaySection struct {
	Enabled  bool     `toml:"enabled"`
	HalfLife Duration `toml:"half_life"`
	// The escalation every rule starts from.
	Weight float64  `toml:"weight"`
	Drop   float64  `toml:"drop"`
	Notify float64  `toml:"notify"`
	Kick   float64  `toml:"kick"`
	Ban    float64  `toml:"ban"`
	BanFor Duration `toml:"ban_for"`
	// Tolerances (fairplay.Tolerances).
	SpeedSlack     float64  `toml:"speed_slack"`
	PositionSlack  float64  `toml:"position_slack"`
	Jitter         Duration `toml:"jitter"`
	TeleportSlack  float64  `toml:"teleport_slack"`
	WarpGrace      Duration `toml:"warp_grace"`
	CollisionGrace Duration `toml:"collision_grace"`
	TractorGrace   Duration `toml:"tractor_grace"`
	FireLag        Duration `toml:"fire_lag"`
	FireHold       Duration `toml:"fire_hold"`
	ArcSlack       float64  `toml:"arc_slack"`
	RateScale      float64  `toml:"rate_scale"`
	// Per-rule escalations.
	Speed    *FairRuleSection `toml:"speed"`
	Teleport *FairRuleSection `toml:"teleport"`
	Charge   *FairRuleSection `toml:"charge"`
	Reload   *FairRuleSection `toml:"reload"`
	Ammo     *FairRuleSection `toml:"ammo"`
	Arc      *FairRuleSection `toml:"arc"`
	Rate     *FairRuleSection `toml:"rate"`
}

// FairRuleSection is one rule's table: the keys it sets replace
// [fairplay]'s for that rule.
type FairRuleSection struct {
	Weight *float64  `toml:"weight"`
	Drop   *float64  `toml:"drop"`
	Notify *float64  `toml:"notify"`
	Kick   *float64  `toml:"kick"`
	Ban    *float64  `toml:"ban"`
	BanFor *Duration `toml:"ban_for"`
}

// runtime converts the section into the engine's fair-play configuration.
func (s FairPlaySection) runtime() (fairplay.Config, error) {
	c := fairplay.DefaultConfig()
	c.Off = !s.Enabled
	c.Policy.HalfLife = time.Duration(s.HalfLife)
	t := &c.Tolerances
	t.SpeedSlack, t.PositionSlack, t.TeleportSlack, t.ArcSlack = s.SpeedSlack, s.PositionSlack, s.TeleportSlack, s.ArcSlack
	t.Jitter, t.WarpGrace = time.Duration(s.Jitter), time.Duration(s.WarpGrace)
	t.CollisionGrace, t.TractorGrace, t.FireLag = time.Duration(s.CollisionGrace), time.Duration(s.TractorGrace), time.Duration(s.FireLag)
	t.FireHold = time.Duration(s.FireHold)
	c.RateScale = s.RateScale
	base := fairplay.Thresholds{Weight: s.Weight, Drop: s.Drop, Notify: s.Notify, Kick: s.Kick, Ban: s.Ban, BanFor: time.Duration(s.BanFor)}
	for _, r := range []struct {
		rule fairplay.Rule
		sec  *FairRuleSection
	}{{fairplay.Speed, s.Speed}, {fairplay.Teleport, s.Teleport}, {fairplay.Charge, s.Charge}, {fairplay.Reload, s.Reload},
		{fairplay.Ammo, s.Ammo}, {fairplay.Arc, s.Arc}, {fairplay.Rate, s.Rate}} {
		th := base
		if o := r.sec; o != nil {
			set := func(dst *float64, v *float64) {
				if v != nil {
					*dst = *v
				}
			}
			set(&th.Weight, o.Weight)
			set(&th.Drop, o.Drop)
			set(&th.Notify, o.Notify)
			set(&th.Kick, o.Kick)
			set(&th.Ban, o.Ban)
			if o.BanFor != nil {
				th.BanFor = time.Duration(*o.BanFor)
			}
		}
		c.Policy.Rules[r.rule] = th
	}
	if c.Off {
		return c, nil
	}
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("fairplay: %w", err)
	}
	return c, nil
}
