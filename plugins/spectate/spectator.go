// Package spectate shows running matches to anyone with a browser, on a
// read-only page of its own ([spectate] listen), a configurable delay
// behind the game (30 s by default, so a spectator cannot call out
// positions to a player). A Spectator is a capture.Sink of one game's
// capture: it holds the game's records until they are older than the
// delay, plays them into a view, and publishes that view for the HTTP
// side to send. Nothing a spectator does reaches the game: the HTTP side
// only reads the published bytes.
package spectate

import (
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
)

// DefaultDelay is how far behind the game spectators see it.
const DefaultDelay = 30 * time.Second

// maxPending bounds the records a Spectator holds for its delay: a minute
// of a busy 16-player game is far less; a flood beyond it loses the oldest.
const maxPending = 200_000

// publishEvery is how often (game time) the view is published.
const publishEvery = 250 * time.Millisecond

// Spectator is one game's delayed view.
type Spectator struct {
	label string
	delay time.Duration

	// game goroutine
	inStart time.Time // the start of the match being handed in
	inMatch bool
	pending []item
	head    int
	header  *capture.Header
	start   time.Time // the delayed match's start
	live    bool
	state   *capture.State
	kills   []capture.Kill
	chat    []capture.ChatLine
	events  []map[string]any
	names   map[int32]shipName
	lastPub time.Time
	dropped uint64

	view atomic.Pointer[[]byte]
	// hide, if set, says on the game goroutine whether the game is hidden
	// from spectators now ([spectate] show_locked, hide); hidden mirrors it
	// for the HTTP side.
	hide   func() bool
	hidden atomic.Bool
}

type item struct {
	at     time.Time
	rec    capture.Record
	begin  *capture.Header
	end    bool
	footer *capture.Footer
}

type shipName struct {
	owner byte
	name  string
	class string
	host  bool
}

// View is what a spectator's page receives.
type View struct {
	Game    string             `json:"game"`
	Server  string             `json:"server"`
	Mode    string             `json:"mode"`
	Map     string             `json:"map"`
	DelayS  float64            `json:"delay_s"`
	Live    bool               `json:"live"` // a match is running at the delayed time
	T       uint32             `json:"t"`    // ms into that match
	Frame   capture.Frame      `json:"frame"`
	Kills   []capture.Kill     `json:"kills"`
	Chat    []capture.ChatLine `json:"chat"`
	Events  []map[string]any   `json:"events"`
	Reason  string             `json:"reason,omitempty"`
	Dropped uint64             `json:"dropped,omitempty"`
}

// NewSpectator returns the view of the game labelled label, delay behind.
func NewSpectator(label string, delay time.Duration) *Spectator {
	if delay < 0 {
		delay = 0
	}
	s := &Spectator{label: label, delay: delay, state: capture.NewState(), names: map[int32]shipName{}}
	s.publish(time.Time{})
	return s
}

// Label names the game.
func (s *Spectator) Label() string { return s.label }

// SetHide sets what says, on the game goroutine at every tick, whether the
// game is hidden from spectators (a password set, [spectate] hide); call
// it before the game runs (it is asked once then). A hidden game is not
// listed and its view is not served.
func (s *Spectator) SetHide(hide func() bool) {
	s.hide = hide
	s.hidden.Store(hide != nil && hide())
}

// Hidden reports whether the game is hidden from spectators (any
// goroutine).
func (s *Spectator) Hidden() bool { return s.hidden.Load() }

// Latest returns the last published view as JSON.
func (s *Spectator) Latest() []byte { return *s.view.Load() }

func (s *Spectator) push(it item) {
	if len(s.pending)-s.head >= maxPending {
		s.head++
		s.dropped++
	}
	if s.head > 4096 && s.head*2 > len(s.pending) {
		s.pending = append(s.pending[:0], s.pending[s.head:]...)
		s.head = 0
	}
	s.pending = append(s.pending, it)
}

// BeginMatch implements capture.Sink.
func (s *Spectator) BeginMatch(h *capture.Header) {
	hc := *h
	s.inStart, s.inMatch = h.Started, true
	s.push(item{at: h.Started, begin: &hc})
}

// Record implements capture.Sink. What not every player received (team
// chat, a muted player's or a line the mission held back) never enters
// the spectators' view.
func (s *Spectator) Record(r *capture.Record) {
	if !s.inMatch || !r.Public() {
		return
	}
	var it item
	it.rec = *r
	it.rec.Subs = append([]capture.Sub(nil), r.Subs...)
	it.rec.Payload = nil // mission messages are not shown
	it.at = s.inStart.Add(time.Duration(r.T) * time.Millisecond)
	s.push(it)
}

// EndMatch implements capture.Sink.
func (s *Spectator) EndMatch(f *capture.Footer) {
	fc := *f
	s.inMatch = false
	s.push(item{at: s.inStart.Add(time.Duration(f.DurationMS) * time.Millisecond), end: true, footer: &fc})
}

// Tick implements capture.Ticker: what is older than the delay goes into
// the view.
func (s *Spectator) Tick(now time.Time) {
	if s.hide != nil {
		s.hidden.Store(s.hide())
	}
	cut := now.Add(-s.delay)
	for s.head < len(s.pending) && !s.pending[s.head].at.After(cut) {
		it := &s.pending[s.head]
		s.apply(it)
		*it = item{}
		s.head++
	}
	if s.head == len(s.pending) {
		s.pending, s.head = s.pending[:0], 0
	}
	if now.Sub(s.lastPub) >= publishEvery {
		s.lastPub = now
		s.publish(cut)
	}
}

func (s *Spectator) apply(it *item) {
	switch {
	case it.begin != nil:
		s.header, s.start, s.live = it.begin, it.begin.Started, true
		s.state = capture.NewState()
		s.kills, s.chat, s.events = nil, nil, nil
		clear(s.names)
		return
	case it.end:
		s.live = false
		return
	}
	r := &it.rec
	st := s.state
	switch r.Kind {
	case capture.KindObject:
		s.names[r.Object] = shipName{owner: r.Owner, name: r.Name, class: r.Class, host: r.Flags&capture.ObjHost != 0}
	case capture.KindDeath:
		k := capture.Kill{T: r.T, VictimShip: r.Object, VictimID: r.Owner, Victim: s.name(r.Object), KillerID: r.Player, KillerShip: r.Other, Cause: r.Cause.String()}
		if n, ok := s.names[r.Object]; ok {
			k.VictimClass, k.VictimIsHost = n.class, n.host
		}
		if r.Other != 0 && r.Other != r.Object {
			k.Killer = s.name(r.Other)
		}
		s.kills = appendLast(s.kills, k, 8)
	case capture.KindChat:
		s.chat = appendLast(s.chat, capture.ChatOf(r, st), 10)
	}
	switch r.Kind {
	case capture.KindFire, capture.KindDeath, capture.KindExplosion:
		s.events = appendLast(s.events, r.Map(), 64)
	}
	st.Apply(r)
}

func (s *Spectator) name(id int32) string {
	if n := s.state.ShipName(id); n != "" {
		return n
	}
	if n, ok := s.names[id]; ok {
		if p := s.state.Players[n.owner]; p != nil && n.owner != 0 {
			return p.Name
		}
		return n.name
	}
	return ""
}

func appendLast[T any](s []T, v T, n int) []T {
	s = append(s, v)
	if len(s) > n {
		s = append(s[:0], s[len(s)-n:]...)
	}
	return s
}

// publish builds the view at the delayed time cut.
func (s *Spectator) publish(cut time.Time) {
	v := View{Game: s.label, DelayS: s.delay.Seconds(), Live: s.live, Kills: s.kills, Chat: s.chat, Dropped: s.dropped}
	if v.Kills == nil {
		v.Kills = []capture.Kill{}
	}
	if v.Chat == nil {
		v.Chat = []capture.ChatLine{}
	}
	v.Events = []map[string]any{}
	if h := s.header; h != nil {
		v.Server, v.Mode, v.Map = h.Server, h.Mode, h.Map
		if s.live && cut.After(s.start) {
			v.T = uint32(cut.Sub(s.start) / time.Millisecond)
		}
		for _, e := range s.events {
			if t, ok := e["t"].(uint32); ok && t+1500 >= v.T {
				v.Events = append(v.Events, e)
			}
		}
	}
	s.state.T = v.T
	v.Frame = s.state.Frame()
	if !s.live {
		v.Frame.Ships = []capture.ShipState{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"error":"view"}`)
	}
	s.view.Store(&b)
}
