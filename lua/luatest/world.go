package luatest

import (
	"time"

	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// World implements lua.Engine: a real world with the vanilla ship data,
// holding the ships a test spawns (without models) and the mission's host
// ships; what it sends reliably is recorded like the mission's messages.
func (e *Engine) World() *world.World {
	if e.world == nil {
		reg, err := ships.Vanilla()
		if err != nil {
			panic(err) // the embedded data set always loads
		}
		e.world = world.New(world.Options{Env: (*worldEnv)(e), Ships: reg, Epoch: e.Epoch})
	}
	return e.world
}

// worldEnv is the fake as the world's Env.
type worldEnv Engine

func (h *worldEnv) Emit(ev world.Event) { (*Engine)(h).Emit(ev) }

func (h *worldEnv) Broadcast(payload []byte) { (*Engine)(h).SendInGame(payload, nil) }

func (h *worldEnv) Viewers(dst []*world.Owner) []*world.Owner {
	for _, p := range (*Engine)(h).Players() {
		if p.InGame() {
			dst = append(dst, &p.Owner)
		}
	}
	return dst
}

// Send records reliable messages only: StateUpdates would drown the rest.
func (h *worldEnv) Send(to *world.Owner, payload []byte, reliable bool) {
	if reliable {
		h.Out = append(h.Out, Sent{To: to.ID, Payload: append([]byte(nil), payload...)})
	}
}

func (h *worldEnv) Now() time.Time { return h.Clock }

func (h *worldEnv) After(d time.Duration, fn func(now time.Time)) func() {
	e := (*Engine)(h)
	return e.After(d, func() { fn(e.Clock) })
}
