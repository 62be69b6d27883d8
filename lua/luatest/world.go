package luatest

import (
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// World implements lua.Engine: a real world with the vanilla ship data,
// whose host ships live beside the objects a test adds; what it sends
// reliably is recorded like the mission's messages.
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

// PrepareHostShip implements lua.Engine.
func (e *Engine) PrepareHostShip(spec engine.HostShipSpec) (*engine.Object, error) {
	return e.World().PrepareHostShip(spec, func(slot int) bool {
		for _, p := range e.players {
			if p.Slot == slot {
				return true
			}
		}
		return false
	})
}

// AddHostShip implements lua.Engine.
func (e *Engine) AddHostShip(o *engine.Object) error { return e.World().AddHostShip(e.Clock, o) }

// RemoveHostShip implements lua.Engine.
func (e *Engine) RemoveHostShip(o *engine.Object) { e.World().RemoveHostShip(e.Clock, o) }

// DestroyHostShip implements lua.Engine.
func (e *Engine) DestroyHostShip(o *engine.Object) { e.World().DestroyHostShip(e.Clock, o) }

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

func (h *worldEnv) After(d time.Duration, fn func(now time.Time)) func() {
	e := (*Engine)(h)
	return e.After(d, func() { fn(e.Clock) })
}
