package fairplay

import (
	"fmt"
	"time"
)

// Tolerances are every allowance the rules make, in one place. Each says
// what honest play it covers; README "Fair play" lists them with their
// defaults.
type Tolerances struct {
	// Overdrive is the share of its class's max_speed a ship can fly at:
	// players and AI can run the impulse engines at 125 % power, which
	// moves a ship at 1.25 × MaxSpeed [measured].
	Overdrive float64
	// SpeedSlack is a further share of that speed allowed on top (float
	// rounding, engine physics overshoot).
	SpeedSlack float64
	// PositionSlack (world units) is added to every distance allowed:
	// the Dir3+CF16 rounding of a delta and the drift of a stopped ship.
	PositionSlack float64
	// Jitter is how much later one StateUpdate may arrive than the next
	// one relative to when they were sent: time the host must add to the
	// interval it measured between two positions, since a late first
	// update shortens it.
	Jitter time.Duration
	// TeleportSlack (world units): a position further from the last one
	// than the speed allows by more than this is a teleport, not speeding.
	TeleportSlack float64
	// WarpSpeed (world units a second) is the fastest a ship moves while
	// warping: in-system warp steps to 75 GU/s and set-to-set warp streaks
	// at 700 GU/s [measured]. It applies for WarpGrace after the owner's
	// StartWarp 0x10 when the ship's warp engines work.
	WarpSpeed float64
	WarpGrace time.Duration
	// CollisionGrace and TractorGrace exempt a ship's movement after a
	// collision report names it or a tractor held it: a ram pushes a ship,
	// a tractor tows it at the tower's speed.
	CollisionGrace time.Duration
	TractorGrace   time.Duration
	// Reanchor: a ship whose updates have been refused this long is taken
	// where it now says it is (the refusal is still counted), so a false
	// alarm can never freeze a ship for good.
	Reanchor time.Duration
	// FireLag is how much sooner than when it was sent a shot may reach
	// the host compared with the shot before it (a lost reliable message
	// holds back the ones behind it): a cannon may fire on the recharge of
	// this much more time, a tube this much before its reload ends.
	FireLag time.Duration
	// FireHold bounds how long before its delivery a shot may be taken
	// to have been sent: a reliable message lost and resent again and
	// again arrives that late (six losses in a row on the stock resend
	// schedule, 21 s), and its shot counts from when it could have
	// arrived (net.Conn.DeliveredAt: as soon as the message before it).
	// A cannon that sat full, or a tube that sat loaded, meanwhile is
	// credited the recharge or reload it could not take.
	FireHold time.Duration
	// ArcSlack (radians) widens every cannon's firing arc; on top of it, a
	// ship may have turned at its class's max_angular_velocity ×
	// Overdrive since the orientation the host holds (its age plus
	// Jitter).
	ArcSlack float64
}

// DefaultTolerances returns the defaults: enough for a 30 % lossy link
// with 200 ms of jitter, at 1 and 10 StateUpdates a second.
func DefaultTolerances() Tolerances {
	return Tolerances{
		Overdrive:      1.25,
		SpeedSlack:     0.10,
		PositionSlack:  2,
		Jitter:         time.Second,
		TeleportSlack:  50,
		WarpSpeed:      700,
		WarpGrace:      30 * time.Second,
		CollisionGrace: 3 * time.Second,
		TractorGrace:   3 * time.Second,
		Reanchor:       2 * time.Second,
		FireLag:        5 * time.Second,
		FireHold:       20 * time.Second,
		ArcSlack:       0.15,
	}
}

// SpeedLimit is the fastest a ship of a class whose max_speed is maxSpeed
// may move: overdrive and slack included.
func (t *Tolerances) SpeedLimit(maxSpeed float64) float64 {
	return maxSpeed * t.Overdrive * (1 + t.SpeedSlack)
}

// Validate checks the tolerances are usable.
func (t *Tolerances) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"overdrive", t.Overdrive}, {"speed_slack", t.SpeedSlack}, {"position_slack", t.PositionSlack},
		{"teleport_slack", t.TeleportSlack}, {"warp_speed", t.WarpSpeed}, {"arc_slack", t.ArcSlack}} {
		if !(f.v >= 0) || f.v > 1e6 {
			return fmt.Errorf("%s %v: want 0 up to 1e6", f.name, f.v)
		}
	}
	if t.Overdrive < 1 {
		return fmt.Errorf("overdrive %v: want at least 1 (a ship flies at its max_speed)", t.Overdrive)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"jitter", t.Jitter}, {"warp_grace", t.WarpGrace}, {"collision_grace", t.CollisionGrace},
		{"tractor_grace", t.TractorGrace}, {"reanchor", t.Reanchor}, {"fire_lag", t.FireLag}, {"fire_hold", t.FireHold}} {
		if d.v < 0 || d.v > time.Hour {
			return fmt.Errorf("%s %v: want 0 up to 1h", d.name, d.v)
		}
	}
	return nil
}
