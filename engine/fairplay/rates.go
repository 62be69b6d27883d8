package fairplay

import "time"

// Every message type a client drives has a rate no stock client comes near
// (classes of opcodes that share one; opcodes.md 2): a token bucket per
// player and class, deep enough for the burst a lost reliable message
// releases when it finally arrives with everything queued behind it.

// RateClass groups the message types that share a rate.
type RateClass uint8

// The classes.
const (
	ClassState     RateClass = iota // StateUpdate 0x1C
	ClassFire                       // StartFiring 0x07, StopFiring 0x08, StopFiringAtTarget 0x09
	ClassBolt                       // PulseFire 0x1A
	ClassTorpedo                    // TorpedoFire 0x19
	ClassControl                    // subsystem, repair, cloak, warp, phaser level, torpedo type, targeting events
	ClassCollision                  // CollisionEffect 0x15
	ClassCreate                     // ObjCreate 0x02, ObjCreateTeam 0x03
	ClassHostMsg                    // self-destruct 0x13
	ClassRequest                    // RequestObject 0x1E
	ClassChat                       // chat 0x2C, team chat 0x2D
	ClassScript                     // other script messages (>= 0x2B): missions' and mods'
	ClassOther                      // everything else a client may send
	numClasses
)

var classNames = [numClasses]string{"state", "fire", "bolt", "torpedo", "control", "collision", "create", "host_msg", "request", "chat", "script", "other"}

// String names the class.
func (c RateClass) String() string {
	if c < numClasses {
		return classNames[c]
	}
	return "unknown"
}

// RateLimit is a class's sustained rate (messages a second) and burst.
type RateLimit struct{ PerSecond, Burst float64 }

// DefaultRates are the rates by class: several times what a stock client
// sends (StateUpdates at about 10 a second, a Bird of Prey's two cannons
// five bolts a second each at most, a few events a second), with bursts
// for a backlog of 5-20 s.
func DefaultRates() [numClasses]RateLimit {
	return [numClasses]RateLimit{
		ClassState:     {40, 200},
		ClassFire:      {20, 200},
		ClassBolt:      {40, 200},
		ClassTorpedo:   {10, 50},
		ClassControl:   {20, 100},
		ClassCollision: {10, 50},
		ClassCreate:    {1, 10},
		ClassHostMsg:   {2, 10},
		ClassRequest:   {20, 100},
		ClassChat:      {10, 30},
		ClassScript:    {50, 200},
		ClassOther:     {20, 100},
	}
}

// ClassOf returns the rate class of a client message's opcode.
func ClassOf(op byte) RateClass {
	switch op {
	case 0x1C:
		return ClassState
	case 0x07, 0x08, 0x09:
		return ClassFire
	case 0x1A:
		return ClassBolt
	case 0x19:
		return ClassTorpedo
	case 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x1B:
		return ClassControl
	case 0x15:
		return ClassCollision
	case 0x02, 0x03:
		return ClassCreate
	case 0x13:
		return ClassHostMsg
	case 0x1E:
		return ClassRequest
	case 0x2C, 0x2D:
		return ClassChat
	}
	if op >= 0x2B {
		return ClassScript
	}
	return ClassOther
}

// Rates is one player's buckets. Its zero value is full; it is
// fixed-size.
type Rates struct {
	b [numClasses]bucket
}

type bucket struct {
	used float64 // tokens taken, not yet refilled (0 = full)
	at   time.Time
}

// Allow takes one message of opcode op at now from the buckets, the rates
// scaled by scale; it returns a Rate verdict (Value the class's rate,
// Limit its burst) when the class's bucket is empty. A refused message
// takes no token.
func (r *Rates) Allow(limits *[numClasses]RateLimit, scale float64, op byte, now time.Time) Verdict {
	c := ClassOf(op)
	l := limits[c]
	if !(l.PerSecond > 0) {
		return Verdict{}
	}
	rate, burst := l.PerSecond*scale, l.Burst*scale
	b := &r.b[c]
	if !b.at.IsZero() {
		if dt := now.Sub(b.at).Seconds(); dt > 0 {
			b.used = max(0, b.used-dt*rate)
		}
	}
	b.at = now
	if b.used+1 > burst {
		return Verdict{Rule: Rate, Value: rate, Limit: burst}
	}
	b.used++
	return Verdict{}
}
