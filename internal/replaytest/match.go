// Package replaytest plays one recorded match for the tests of the
// recorder, the replay viewer and `bcserver replay`: the survival mission
// (Lua) on the real engine with scripted players on a fake clock, with a
// host ship, kills of three kinds, and chat. It returns what the game
// itself said, so a test can compare the recording with it.
package replaytest

import (
	"fmt"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
)

// Kill is a ship destroyed, as the engine raised it.
type Kill struct {
	T          uint32 // ms since the match started
	VictimShip int32
	KillerShip int32
	KillerID   byte
	Cause      string
	// Weapon is the kind of weapon the host's model says killed
	// ("phaser", "pulse", "torpedo", "self_destruct", …).
	Weapon string
}

// Line is a player's final line as the engine reported it.
type Line struct {
	ID                   byte
	Name                 string
	Team                 int
	Kills, Deaths, Score int
}

// Match is what the played match left.
type Match struct {
	Started time.Time
	Kills   []Kill
	Lines   []Line
	Chat    []string // player chat texts, in order
	Raider  int32    // the host ship Alice destroyed
}

// Play plays the match with sinks attached (a FileSink, say) and ends it
// with END_GAME. The match, at game time 0 (missiontest.Epoch):
// Alice (Sovereign) and Bob (Akira) join and chat; the first raider (a host
// ship of the survival mission) comes, destroys Bob's ship with its
// pulse weapons and is destroyed by Alice; Bob respawns and Alice destroys
// him with phasers; Bob respawns and self-destructs; then both
// self-destruct and the mission ends the game.
func Play(sinks ...capture.Sink) (*Match, error) {
	w, err := missiontest.NewMatch(missiontest.Options{Mode: "survival", FS: missions.FS(),
		Config: map[string]any{"wave_delay": int64(5), "restart_after": int64(-1)}})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	m := &Match{Started: w.Now}
	capture := capture.NewCapture(capture.CaptureOptions{Game: "22101", Mode: func() string { return "survival" }, Writer: "test"}, sinks...)
	if err := w.Game.AddPlugin(capture); err != nil {
		return nil, err
	}
	w.Game.On(engine.EvShipDestroyed, func(ev engine.Event) {
		e := ev.(*engine.ShipDestroyed)
		k := Kill{T: uint32(w.Game.Now().Sub(m.Started) / time.Millisecond), VictimShip: e.Victim.ID, KillerID: byte(e.KillerID), Cause: string(e.Cause),
			Weapon: e.Kind.String()}
		if e.Killer != nil {
			k.KillerShip = e.Killer.ID
		}
		m.Kills = append(m.Kills, k)
	})
	w.Game.On(engine.EvGameEnded, func(engine.Event) {
		for _, p := range w.Game.Players() {
			m.Lines = append(m.Lines, Line{ID: p.ID, Name: p.Name, Team: p.Team, Kills: p.Kills, Deaths: p.Deaths, Score: p.Score})
		}
	})
	alice, err := w.Join("Alice")
	if err != nil {
		return nil, err
	}
	bob, err := w.Join("Bob")
	if err != nil {
		return nil, err
	}
	say := func(b *missiontest.Bot, text string, team bool) error {
		m.Chat = append(m.Chat, text)
		return b.Chat(text, team)
	}
	if err := say(alice, "good luck, Bob", false); err != nil {
		return nil, err
	}
	if _, err := alice.Spawn(5, [3]float32{0, 0, 0}); err != nil { // Sovereign
		return nil, err
	}
	if _, err := bob.Spawn(1, [3]float32{0, 60, 0}); err != nil { // Akira
		return nil, err
	}
	w.Advance(6 * time.Second)
	for _, o := range w.Game.Objects() {
		if o.HostOwned() && o.Alive() {
			m.Raider = o.ID
		}
	}
	if m.Raider == 0 {
		return nil, fmt.Errorf("no raider came")
	}
	// Bob flies at the raider, worn down (hull at 5 %, shields gone), so
	// the raider, picking the nearest enemy, destroys him first; then
	// Alice destroys the raider, also worn down (the stock weapon model
	// takes minutes to wear down a full-health ship, simulation.md 5.5).
	if o := w.Game.Object(m.Raider); o != nil {
		p, _ := o.Position()
		if err := bob.Move([3]float32{p[0], p[1] - 40, p[2]}, [3]float32{0, 1, 0}); err != nil {
			return nil, err
		}
	}
	wear(w, bob.Ship(), 0.05)
	w.Advance(40 * time.Second)
	wear(w, m.Raider, 0.02)
	if err := say(bob, "<b>raider</b> on us & closing", true); err != nil {
		return nil, err
	}
	for v := 0; ; v++ {
		if o := w.Game.Object(m.Raider); o == nil || !o.Alive() {
			break
		}
		if v == 300 {
			return nil, fmt.Errorf("the raider survived 300 volleys")
		}
		if _, err := alice.Volley(m.Raider, bot.Phasers); err != nil {
			return nil, err
		}
		w.Advance(600 * time.Millisecond)
	}
	w.Advance(2 * time.Second)
	if bob.Ship() != 0 && w.Game.Object(bob.Ship()).Alive() {
		return nil, fmt.Errorf("the raider was to destroy Bob first")
	}
	if err := say(bob, "gg", false); err != nil {
		return nil, err
	}
	if _, err := bob.Spawn(1, [3]float32{40, 60, 0}); err != nil {
		return nil, err
	}
	w.Advance(2 * time.Second)
	// Alice turns on Bob, worn down again.
	wear(w, bob.Ship(), 0.05)
	for shot := 0; w.Game.Object(bob.Ship()).Alive(); shot++ {
		if shot == 300 {
			return nil, fmt.Errorf("the Akira survived 300 shots")
		}
		if _, err := alice.Fire(bob, bot.Phasers); err != nil {
			return nil, err
		}
		w.Advance(600 * time.Millisecond)
	}
	w.Advance(3 * time.Second)
	if _, err := bob.Spawn(1, [3]float32{-40, 60, 0}); err != nil {
		return nil, err
	}
	w.Advance(2 * time.Second)
	if err := bob.SelfDestruct(); err != nil {
		return nil, err
	}
	w.Advance(3 * time.Second)
	if _, err := bob.Spawn(1, [3]float32{0, 80, 0}); err != nil {
		return nil, err
	}
	w.Advance(2 * time.Second)
	// The end: every player ship dead at once ends the game.
	if err := alice.SelfDestruct(); err != nil {
		return nil, err
	}
	if err := bob.SelfDestruct(); err != nil {
		return nil, err
	}
	w.Advance(time.Second)
	if !w.Game.GameOver() {
		return nil, fmt.Errorf("the game did not end")
	}
	if errs := w.MissionErrors(); len(errs) > 0 {
		return nil, fmt.Errorf("mission errors: %v", errs)
	}
	return m, nil
}

// wear takes a ship down to frac of its hull and destroys its shield
// generator, so a test's weapons finish it in seconds.
func wear(w *missiontest.Match, id int32, frac float32) {
	o := w.Game.Object(id)
	if o == nil || o.Model == nil {
		return
	}
	c := o.Model.Class()
	o.Model.SetHull(frac * c.Subsystems[c.Hull].MaxCondition)
	if c.ShieldGenerator >= 0 {
		o.Model.SetCondition(c.ShieldGenerator, 0)
	}
}
