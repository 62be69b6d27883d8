package fairplay

import "strings"

// Rule names one plausibility rule.
type Rule uint8

// The rules. RuleNone is the verdict "plausible".
const (
	RuleNone Rule = iota
	// Speed: a ship moved (or said it moved) faster than its class can,
	// impulse overdrive included.
	Speed
	// Teleport: a ship's position jumped further than its class could fly
	// since the last position the host took.
	Teleport
	// Charge: a pulse cannon fired a bolt its charge does not cover.
	Charge
	// Reload: a torpedo tube fired before it could have reloaded.
	Reload
	// Ammo: a torpedo of a type the ship has none of left.
	Ammo
	// Arc: a bolt fired outside its cannon's firing arc.
	Arc
	// Rate: a message type sent faster than any stock client sends it.
	Rate
	numRules
)

// NumRules is the number of rules (RuleNone excluded); rules are 1..NumRules.
const NumRules = int(numRules) - 1

var ruleNames = [numRules]string{"", "speed", "teleport", "charge", "reload", "ammo", "arc", "rate"}

// ruleUnits is what a verdict's Value and Limit measure, per rule.
var ruleUnits = [numRules]string{"", "GU/s", "GU", "charge", "s", "torpedoes", "rad", "msg/s"}

// String returns the rule's name as configuration and events spell it.
func (r Rule) String() string {
	if r < numRules {
		return ruleNames[r]
	}
	return "unknown"
}

// Unit is what the rule's verdicts measure.
func (r Rule) Unit() string {
	if r < numRules {
		return ruleUnits[r]
	}
	return ""
}

// Rules returns every rule, in order.
func Rules() []Rule {
	out := make([]Rule, 0, NumRules)
	for r := Speed; r < numRules; r++ {
		out = append(out, r)
	}
	return out
}

// ParseRule reads a rule name (any case).
func ParseRule(s string) (Rule, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for r := Speed; r < numRules; r++ {
		if ruleNames[r] == s {
			return r, true
		}
	}
	return RuleNone, false
}

// Verdict is the judgement of one message: RuleNone when plausible, else
// the rule it breaks with what was measured (Value) against what the rule
// allows (Limit), both in the rule's Unit. For Charge the Value is the
// charge there was and the Limit the least that would have paid; for
// Reload the seconds the tube still needed and the tolerance.
type Verdict struct {
	Rule         Rule
	Value, Limit float64
}

// OK reports whether the verdict finds nothing wrong.
func (v Verdict) OK() bool { return v.Rule == RuleNone }
