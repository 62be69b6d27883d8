package fairplay

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Action is a step of the escalation a violation can reach. The steps are
// cumulative: each includes the ones before it (a kick also drops and
// tells the host, a ban also kicks).
type Action uint8

// The steps, in order.
const (
	// ActLog counts the violation and logs it (throttled per player and
	// rule); the message goes through.
	ActLog Action = iota
	// ActDrop also drops the offending message: it is neither relayed nor
	// used by the host.
	ActDrop
	// ActNotify also tells the host: a warning in the log (and so the
	// console), and the violation event marked for webhooks.
	ActNotify
	// ActKick also boots the player.
	ActKick
	// ActBan also bans the player's address for the rule's BanFor.
	ActBan
	numActions
)

var actionNames = [numActions]string{"log", "drop", "notify", "kick", "ban"}

// String returns the step's name.
func (a Action) String() string {
	if a < numActions {
		return actionNames[a]
	}
	return "unknown"
}

// ParseAction reads a step's name (any case).
func ParseAction(s string) (Action, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for a := ActLog; a < numActions; a++ {
		if actionNames[a] == s {
			return a, true
		}
	}
	return ActLog, false
}

// Thresholds are one rule's escalation: each violation adds Weight to the
// player's score for the rule (which decays with the policy's half-life),
// and each step is taken from the score given for it; 0 never takes it.
type Thresholds struct {
	Weight                  float64
	Drop, Notify, Kick, Ban float64
	// BanFor is how long a ban keeps the player's address out.
	BanFor time.Duration
}

// Action returns the highest step the score reaches.
func (t *Thresholds) Action(score float64) Action {
	a := ActLog
	for _, s := range []struct {
		at  float64
		act Action
	}{{t.Drop, ActDrop}, {t.Notify, ActNotify}, {t.Kick, ActKick}, {t.Ban, ActBan}} {
		if s.at > 0 && score >= s.at {
			a = max(a, s.act)
		}
	}
	return a
}

// Policy is the escalation of every rule and how fast scores decay.
type Policy struct {
	// HalfLife halves a player's score for a rule in this much time
	// without violations; 0 never forgets.
	HalfLife time.Duration
	// Rules are the thresholds by rule (index RuleNone unused).
	Rules [numRules]Thresholds
}

// DefaultPolicy logs and drops every violation and never notifies, kicks
// or bans: a host turns those on per rule.
func DefaultPolicy() Policy {
	p := Policy{HalfLife: time.Minute}
	for r := Speed; r < numRules; r++ {
		p.Rules[r] = Thresholds{Weight: 1, Drop: 1, BanFor: time.Hour}
	}
	return p
}

// For returns the thresholds of a rule.
func (p *Policy) For(r Rule) *Thresholds {
	if r >= numRules {
		r = RuleNone
	}
	return &p.Rules[r]
}

// Validate checks the policy.
func (p *Policy) Validate() error {
	if p.HalfLife < 0 {
		return fmt.Errorf("half_life %v: must not be negative", p.HalfLife)
	}
	for r := Speed; r < numRules; r++ {
		t := &p.Rules[r]
		for _, v := range []float64{t.Weight, t.Drop, t.Notify, t.Kick, t.Ban} {
			if !(v >= 0) || v > 1e9 {
				return fmt.Errorf("%s: thresholds and weight want 0 up to 1e9, got %v", r, v)
			}
		}
		if t.BanFor < 0 {
			return fmt.Errorf("%s: ban_for %v must not be negative", r, t.BanFor)
		}
		if t.Ban > 0 && t.BanFor == 0 {
			return fmt.Errorf("%s: ban = %v needs a ban_for", r, t.Ban)
		}
	}
	return nil
}

// Ledger is one player's record: a decaying score and a count per rule,
// and when each rule was last logged. Its zero value is empty; it is
// fixed-size, so keeping one per player allocates nothing.
type Ledger struct {
	rules [numRules]entry
}

type entry struct {
	score      float64
	at         time.Time // when score was last decayed
	count      uint64
	loggedAt   time.Time
	suppressed uint32
}

// Add books one violation of r at now and returns the rule's new score.
func (l *Ledger) Add(p *Policy, r Rule, now time.Time) float64 {
	if r >= numRules {
		return 0
	}
	e := &l.rules[r]
	e.decay(now, p.HalfLife)
	e.score += p.Rules[r].Weight
	e.count++
	return e.score
}

// Score returns the player's score for r at now.
func (l *Ledger) Score(r Rule, now time.Time, halfLife time.Duration) float64 {
	if r >= numRules {
		return 0
	}
	e := l.rules[r]
	e.decay(now, halfLife)
	return e.score
}

// Count returns the violations of r booked so far.
func (l *Ledger) Count(r Rule) uint64 {
	if r >= numRules {
		return 0
	}
	return l.rules[r].count
}

// Total returns the violations of every rule booked so far.
func (l *Ledger) Total() uint64 {
	var n uint64
	for i := range l.rules {
		n += l.rules[i].count
	}
	return n
}

// Log reports whether a violation of r at now should be logged: the first
// one, then at most one every interval; the ones in between are counted
// and their number returned with the next line that is logged.
func (l *Ledger) Log(r Rule, now time.Time, every time.Duration) (ok bool, suppressed uint32) {
	if r >= numRules {
		return false, 0
	}
	e := &l.rules[r]
	if !e.loggedAt.IsZero() && now.Sub(e.loggedAt) < every {
		e.suppressed++
		return false, 0
	}
	e.loggedAt, suppressed, e.suppressed = now, e.suppressed, 0
	return true, suppressed
}

func (e *entry) decay(now time.Time, halfLife time.Duration) {
	if halfLife > 0 && !e.at.IsZero() && e.score > 0 {
		if dt := now.Sub(e.at); dt > 0 {
			e.score *= math.Exp2(-float64(dt) / float64(halfLife))
		}
	}
	e.at = now
}
