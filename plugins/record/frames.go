package record

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
)

// Window is what the viewer fetches to play a stretch of a match: the
// state every Step milliseconds from From to To, and the events between
// (fire, hits, deaths, explosions, chat) to draw.
type Window struct {
	From   uint32           `json:"from"`
	To     uint32           `json:"to"`
	Step   uint32           `json:"step"`
	Frames []capture.Frame  `json:"frames"`
	Events []map[string]any `json:"events"`
	// Truncated is set when the window was cut short (To moved back) to
	// stay within MaxWindowShips, or events were left out past
	// MaxWindowEvents (EventsOmitted): a viewer asks for the next window
	// from To.
	Truncated     bool `json:"truncated,omitempty"`
	EventsOmitted int  `json:"events_omitted,omitempty"`
}

// Limits of a window: at most MaxWindow long, frames at least MinStep
// apart, at most MaxWindowShips ship states over all its frames and
// MaxWindowEvents events. A real match stays far inside them (16 ships at
// 10 frames a second make 4,800 ship states in 30 s); a crafted file with
// thousands of ships gets a shorter window, not gigabytes.
const (
	MaxWindow       = 30 * time.Second
	MinStep         = 50 * time.Millisecond
	MaxWindowShips  = 40_000
	MaxWindowEvents = 10_000
)

// Frames computes a window, starting from the keyframe at or before from
// (the admin's view: FramesView).
func Frames(f *File, from, to, step uint32) (*Window, error) {
	return FramesView(f, from, to, step, View{})
}

// FramesView computes a window showing v.
func FramesView(f *File, from, to, step uint32, v View) (*Window, error) {
	if step < uint32(MinStep/time.Millisecond) {
		step = uint32(MinStep / time.Millisecond)
	}
	if to < from {
		to = from
	}
	if max := uint32(MaxWindow / time.Millisecond); to-from > max {
		to = from + max
	}
	w := &Window{From: from, To: to, Step: step, Frames: []capture.Frame{}, Events: []map[string]any{}}
	st := capture.NewState()
	next := from
	// emit writes the frames before time upto: the state then holds every
	// record up to each frame's time.
	ships := 0
	emit := func(upto uint32) {
		for next <= to && next < upto {
			if ships+len(st.Ships) > MaxWindowShips && len(w.Frames) > 0 {
				// Cut the window here: the viewer asks again from To.
				w.Truncated, to = true, next-step
				w.To = to
				return
			}
			ships += len(st.Ships)
			st.T = next
			w.Frames = append(w.Frames, st.Frame())
			if next > math.MaxUint32-step {
				next = to + 1
				return
			}
			next += step
		}
	}
	err := f.Each(f.BlockAt(from), len(f.Blocks), func(r *capture.Record) bool {
		if r.T > to {
			return false
		}
		emit(r.T)
		st.Apply(r)
		if r.T > from || from == 0 {
			switch r.Kind {
			case capture.KindFire, capture.KindHit, capture.KindDeath, capture.KindExplosion, capture.KindChat:
				switch {
				case v.Public && !r.Public():
				case len(w.Events) >= MaxWindowEvents:
					w.EventsOmitted++
					w.Truncated = true
				default:
					w.Events = append(w.Events, r.Map())
				}
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if end := min(to, f.Duration()); end < math.MaxUint32 {
		emit(end + 1)
	} else {
		emit(end)
	}
	return w, nil
}
