package lua

import (
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Identities gives every player a uid that is stable for the life of the
// process: never reused, and kept across a rejoin. The wire id (2, 3, …)
// is reused as soon as a player leaves and changes when he comes back, so
// a mission that keys its tables by it credits the next player with the
// last one's scores.
//
// The rule: a player who leaves and connects again with the same name from
// the same IP address (any port) within Grace gets his old uid back;
// anyone else gets a new one. One Identities may serve every game of a
// process (it locks); each Runtime makes its own if none is given.
type Identities struct {
	// Grace is how long a departed player's uid waits for him (default
	// DefaultIdentityGrace).
	Grace time.Duration

	mu   sync.Mutex
	next int64
	live map[*engine.Player]int64
	left map[string]departed
}

// DefaultIdentityGrace is how long a uid waits for its player to rejoin.
const DefaultIdentityGrace = 5 * time.Minute

// maxDeparted bounds the uids waiting for a rejoin; the oldest go first.
const maxDeparted = 4096

type departed struct {
	uid int64
	at  time.Time
}

// NewIdentities returns an empty registry.
func NewIdentities() *Identities { return &Identities{} }

func identityKey(p *engine.Player) string {
	return p.Name + "\x00" + p.Addr.Addr().String()
}

// Of returns p's uid, assigning one on first sight.
func (r *Identities) Of(p *engine.Player, now time.Time) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live == nil {
		r.live = make(map[*engine.Player]int64)
		r.left = make(map[string]departed)
	}
	if uid, ok := r.live[p]; ok {
		return uid
	}
	key := identityKey(p)
	if d, ok := r.left[key]; ok && now.Sub(d.at) <= r.grace() {
		delete(r.left, key)
		r.live[p] = d.uid
		return d.uid
	}
	r.next++
	r.live[p] = r.next
	return r.next
}

func (r *Identities) grace() time.Duration {
	if r.Grace > 0 {
		return r.Grace
	}
	return DefaultIdentityGrace
}

// Left records that p is gone; his uid waits Grace for him.
func (r *Identities) Left(p *engine.Player, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	uid, ok := r.live[p]
	if !ok {
		return
	}
	delete(r.live, p)
	for k, d := range r.left {
		if now.Sub(d.at) > r.grace() {
			delete(r.left, k)
		}
	}
	if len(r.left) >= maxDeparted {
		oldest := ""
		for k, d := range r.left {
			if oldest == "" || d.at.Before(r.left[oldest].at) {
				oldest = k
			}
		}
		delete(r.left, oldest)
	}
	r.left[identityKey(p)] = departed{uid, now}
}

// Player returns the connected player with uid, if any.
func (r *Identities) Player(uid int64) *engine.Player {
	r.mu.Lock()
	defer r.mu.Unlock()
	for p, u := range r.live {
		if u == uid {
			return p
		}
	}
	return nil
}
