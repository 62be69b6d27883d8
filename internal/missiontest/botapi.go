package missiontest

import (
	"errors"
	"math"
	"strings"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/internal/bot"
)

// Shots and rams a test may ask for in one call: enough to destroy any
// stock ship many times over, few enough that a mistake ends quickly.
const maxShots = 1000

// botTable is the Lua face of a bot: bot.id, bot.name and the actions.
func (s *suite) botTable(L *glua.LState, w *Match, b *Bot) *glua.LTable {
	t := L.NewTable()
	t.RawSetString("id", glua.LNumber(b.id))
	t.RawSetString("name", glua.LString(b.name))
	t.RawSetString("__bot", glua.LString(b.addr.String()))
	bots := func(L *glua.LState, n int) *Bot {
		o := L.CheckTable(n)
		key := o.RawGetString("__bot").String()
		for _, x := range w.bots {
			if x.addr.String() == key {
				return x
			}
		}
		L.ArgError(n, "not a bot of this game")
		return nil
	}
	vec := func(L *glua.LState, n int, def [3]float32) [3]float32 {
		v, ok := L.Get(n).(*glua.LTable)
		if !ok {
			return def
		}
		var out [3]float32
		for i := range out {
			f, ok := v.RawGetInt(i + 1).(glua.LNumber)
			if !ok || math.IsNaN(float64(f)) || math.Abs(float64(f)) > 1e6 {
				L.ArgError(n, "want {x, y, z} in world units")
			}
			out[i] = float32(f)
		}
		return out
	}
	check := func(L *glua.LState, err error) {
		if err != nil {
			L.RaiseError("%s: %v", b.name, err)
		}
	}
	fn := func(name string, f glua.LGFunction) { t.RawSetString(name, L.NewFunction(f)) }
	fn("spawn", func(L *glua.LState) int {
		species := s.species(L, 2)
		// By default the players line up 60 units apart: in phaser range,
		// clear of each other.
		id, err := b.Spawn(species, vec(L, 3, [3]float32{float32(b.slot) * 60, 0, 0}))
		if errors.Is(err, ErrRefused) {
			// Not a test failure: the rules may mean it. nil and the line
			// the host said.
			L.Push(glua.LNil)
			L.Push(glua.LString(err.Error()))
			return 2
		}
		check(L, err)
		L.Push(glua.LNumber(id))
		return 1
	})
	fn("move", func(L *glua.LState) int {
		check(L, b.Move(vec(L, 2, b.pos), vec(L, 3, [3]float32{0, 1, 0})))
		return 0
	})
	fn("fire", func(L *glua.LState) int {
		n, err := b.Fire(bots(L, 2), weapons(L, 3))
		check(L, err)
		L.Push(glua.LNumber(n))
		return 1
	})
	fn("kill", func(L *glua.LState) int {
		target := bots(L, 2)
		limit := L.OptInt(3, maxShots)
		kinds := weapons(L, 4)
		for shots := 1; shots <= min(limit, maxShots); shots++ {
			// StartFiring again each step, as a stock client's AI re-adds
			// its target (the host ignores a target already listed).
			_, err := b.Fire(target, kinds)
			check(L, err)
			w.Advance(600 * time.Millisecond)
			if !target.alive() {
				L.Push(glua.LNumber(shots))
				return 1
			}
		}
		L.RaiseError("%s: %s's ship still flies after %d shots", b.name, target.name, limit)
		return 0
	})
	fn("stop_firing", func(L *glua.LState) int {
		check(L, b.StopFiring())
		return 0
	})
	fn("team", func(L *glua.LState) int {
		check(L, b.Team(uint8(L.CheckInt(2))))
		return 0
	})
	// fire_at(id [, weapons]) fires at any object (a host ship) and
	// returns what fired (the phaser banks that bear ahead, torpedoes,
	// bolts); attack(id [, max_volleys [, weapons]]) keeps at it, 0.6 s a
	// volley, until it is destroyed.
	fn("fire_at", func(L *glua.LState) int {
		n, err := b.Volley(objectID(L, w, 2), weapons(L, 3))
		check(L, err)
		L.Push(glua.LNumber(n))
		return 1
	})
	fn("attack", func(L *glua.LState) int {
		id := objectID(L, w, 2)
		limit := min(L.OptInt(3, maxShots), maxShots)
		kinds := weapons(L, 4)
		beams := 0
		for v := 0; v < limit; v++ {
			n, err := b.Volley(id, kinds)
			check(L, err)
			beams += n
			w.Advance(600 * time.Millisecond)
			if o := w.Game.Object(id); o == nil || !o.Alive() {
				L.Push(glua.LNumber(beams))
				return 1
			}
		}
		L.RaiseError("%s: object %#x still flies after %d volleys", b.name, id, limit)
		return 0
	})
	fn("ram", func(L *glua.LState) int {
		target := bots(L, 2)
		times := L.OptInt(3, 1)
		n := 0
		for ; n < min(times, maxShots) && target.alive() && b.alive(); n++ {
			check(L, b.Ram(target))
			// The host takes one collision per pair a second.
			w.Advance(1100 * time.Millisecond)
		}
		L.Push(glua.LNumber(n))
		return 1
	})
	fn("self_destruct", func(L *glua.LState) int {
		check(L, b.SelfDestruct())
		return 0
	})
	fn("chat", func(L *glua.LState) int {
		check(L, b.Chat(L.CheckString(2), L.ToBool(3)))
		return 0
	})
	fn("leave", func(L *glua.LState) int {
		check(L, b.Leave())
		return 0
	})
	fn("alive", func(L *glua.LState) int {
		L.Push(glua.LBool(b.alive()))
		return 1
	})
	fn("ship", func(L *glua.LState) int {
		L.Push(glua.LNumber(b.ship))
		return 1
	})
	fn("player", func(L *glua.LState) int {
		p := w.Game.Player(b.id)
		if p == nil || b.gone {
			L.Push(glua.LNil)
			return 1
		}
		pt := L.CreateTable(0, 6)
		pt.RawSetString("id", glua.LNumber(p.ID))
		pt.RawSetString("name", glua.LString(p.Name))
		pt.RawSetString("kills", glua.LNumber(p.Kills))
		pt.RawSetString("deaths", glua.LNumber(p.Deaths))
		pt.RawSetString("score", glua.LNumber(p.Score))
		if p.Team >= 0 {
			pt.RawSetString("team", glua.LNumber(p.Team))
		}
		L.Push(pt)
		return 1
	})
	// messages([type]) lists what the bot received (of one type), oldest
	// first; clear() forgets it all.
	fn("messages", func(L *glua.LState) int {
		typ := L.OptString(2, "")
		out := L.NewTable()
		for _, m := range b.inbox {
			d := decode(L, m)
			if typ == "" || d.RawGetString("type").String() == typ {
				out.Append(d)
			}
		}
		L.Push(out)
		return 1
	})
	fn("last", func(L *glua.LState) int {
		typ := L.CheckString(2)
		for i := len(b.inbox) - 1; i >= 0; i-- {
			if d := decode(L, b.inbox[i]); d.RawGetString("type").String() == typ {
				L.Push(d)
				return 1
			}
		}
		L.Push(glua.LNil)
		return 1
	})
	fn("clear", func(L *glua.LState) int {
		b.inbox = nil
		return 0
	})
	return t
}

// objectID reads an object id, a table with an id (g:ships() rows) or a
// bot (its current ship).
func objectID(L *glua.LState, w *Match, n int) int32 {
	switch v := L.Get(n).(type) {
	case glua.LNumber:
		return int32(v)
	case *glua.LTable:
		if key, ok := v.RawGetString("__bot").(glua.LString); ok {
			for _, x := range w.bots {
				if x.addr.String() == string(key) {
					return x.ship
				}
			}
			L.ArgError(n, "not a bot of this game")
		}
		if id, ok := v.RawGetString("id").(glua.LNumber); ok {
			return int32(id)
		}
	}
	L.ArgError(n, "want an object id, a ship table or a bot")
	return 0
}

// weapons reads the weapons a volley fires: "phaser" (the default),
// "torpedo", "pulse", a comma-separated list of them or "all", or a list
// table {"torpedo", "pulse"}.
func weapons(L *glua.LState, n int) bot.Kinds {
	var spec string
	switch v := L.Get(n).(type) {
	case *glua.LNilType:
		return bot.Phasers
	case glua.LString:
		spec = string(v)
	case *glua.LTable:
		var parts []string
		for i := 1; i <= min(v.Len(), 8); i++ {
			parts = append(parts, v.RawGetInt(i).String())
		}
		spec = strings.Join(parts, ",")
	default:
		L.ArgError(n, "weapons: want \"phaser\", \"torpedo\", \"pulse\" (comma-separated, or a list) or \"all\"")
	}
	k, err := bot.ParseWeapons(spec)
	if err != nil {
		L.ArgError(n, err.Error())
	}
	return k
}

// species reads a species index or a class name ("Sovereign", any case).
func (s *suite) species(L *glua.LState, n int) int {
	switch v := L.Get(n).(type) {
	case glua.LNumber:
		return int(v)
	case glua.LString:
		for _, c := range s.r.ships.Classes() {
			if strings.EqualFold(c.Name, string(v)) {
				return c.SpeciesID
			}
		}
		L.ArgError(n, "no ship class named "+string(v))
	}
	L.ArgError(n, "want a species index or a ship class name")
	return 0
}
