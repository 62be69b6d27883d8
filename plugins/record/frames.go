package record

import (
	"math"
	"time"
)

// Window is what the viewer fetches to play a stretch of a match: the
// state every Step milliseconds from From to To, and the events between
// (fire, hits, deaths, explosions, chat) to draw.
type Window struct {
	From   uint32           `json:"from"`
	To     uint32           `json:"to"`
	Step   uint32           `json:"step"`
	Frames []Frame          `json:"frames"`
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
	w := &Window{From: from, To: to, Step: step, Frames: []Frame{}, Events: []map[string]any{}}
	st := NewState()
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
	err := f.Each(f.BlockAt(from), len(f.Blocks), func(r *Record) bool {
		if r.T > to {
			return false
		}
		emit(r.T)
		st.Apply(r)
		if r.T > from || from == 0 {
			switch r.Kind {
			case KindFire, KindHit, KindDeath, KindExplosion, KindChat:
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

// Map is the record as JSON for tools (`bcserver replay -json`) and the
// viewer: "t" and "kind", then the fields of its kind.
func (r *Record) Map() map[string]any {
	m := map[string]any{"t": r.T, "kind": r.Kind.String()}
	switch r.Kind {
	case KindKeyframe:
		m["game_over"] = r.Flags&1 != 0
	case KindPlayer:
		m["player"], m["slot"], m["name"], m["team"], m["kills"], m["deaths"], m["score"] = r.Player, r.Slot, r.Name, r.Team, r.Kills, r.Deaths, r.Score
	case KindPlayerLeft:
		m["player"], m["reason"] = r.Player, r.Text
	case KindObject:
		m["object"], m["owner"], m["species"], m["team"], m["name"], m["class"], m["host"] = r.Object, r.Owner, r.Species, r.Team, r.Name, r.Class, r.Flags&ObjHost != 0
	case KindObjectGone:
		m["object"] = r.Object
	case KindMotion:
		m["object"], m["pos"], m["fwd"], m["up"], m["speed"] = r.Object, r.Pos, r.Fwd, r.Up, r.Speed
	case KindStatus:
		m["object"], m["hull"], m["shields"] = r.Object, r.Hull, r.Shields
	case KindSubsystems:
		subs := make([][2]float32, len(r.Subs))
		for i, s := range r.Subs {
			subs[i] = [2]float32{float32(s.Index), s.Cond}
		}
		m["object"], m["subsystems"] = r.Object, subs
	case KindFire:
		m["object"], m["target"], m["weapon"], m["player"], m["opcode"], m["weapon_kind"] = r.Object, r.Other, r.Weapon, r.Player, r.Opcode, r.Weapons.String()
	case KindHit, KindDamage:
		m["object"], m["attacker"], m["player"], m["damage"], m["hull_hit"], m["cause"] = r.Object, r.Other, r.Player, r.Damage, r.HullHit, r.Cause.String()
		m["weapon_kind"] = r.Weapons.String()
	case KindDeath:
		m["object"], m["killer"], m["player"], m["owner"], m["cause"] = r.Object, r.Other, r.Player, r.Owner, r.Cause.String()
	case KindChat:
		m["player"], m["team"], m["text"] = r.Player, r.Team != 0 || r.Flags&ChatTeam != 0, r.Text
		if r.Flags&ChatMuted != 0 {
			m["muted"] = true
		}
		if r.Flags&ChatCancelled != 0 {
			m["cancelled"] = true
		}
	case KindMessage:
		m["opcode"], m["payload"] = r.Opcode, r.Payload
	case KindGameEnd:
		m["reason"] = r.Reason
		if r.Team >= 0 {
			m["winner_team"] = r.Team
		}
		if r.Player != 0 {
			m["winner"], m["winner_name"] = r.Player, r.Name
		}
		if r.Text != "" {
			m["why"] = r.Text
		}
		if len(r.TeamScores) > 0 {
			m["teams"] = r.TeamScores
		}
	case KindExplosion:
		m["object"], m["pos"], m["radius"], m["damage"] = r.Object, r.Pos, r.Radius, r.Damage
	default:
		m["payload"] = r.Payload
	}
	return m
}
