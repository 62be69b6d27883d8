package capture

import (
	"cmp"
	"slices"
)

// State is the game as a recording shows it at one time: what a viewer
// draws. Apply the records of a block from its keyframe to get the state
// at any time in it.
type State struct {
	T         uint32
	GameOver  bool
	EndReason int32
	Players   map[byte]*PlayerState
	Ships     map[int32]*ShipState
}

// PlayerState is a player's line.
type PlayerState struct {
	ID     byte   `json:"id"`
	Slot   byte   `json:"slot"`
	Name   string `json:"name"`
	Team   int32  `json:"team"`
	Kills  int32  `json:"kills"`
	Deaths int32  `json:"deaths"`
	Score  int32  `json:"score"`
	// Left is set once the player has left (a summary keeps its line).
	Left bool `json:"left,omitempty"`
}

// ShipState is a ship.
type ShipState struct {
	ID      int32      `json:"id"`
	OwnerID byte       `json:"owner_id"` // 0: the host's
	Owner   string     `json:"owner,omitempty"`
	Host    bool       `json:"host,omitempty"`
	Species int32      `json:"species"`
	Team    int32      `json:"team"`
	Name    string     `json:"name"`
	Class   string     `json:"class,omitempty"`
	Pos     [3]float32 `json:"pos"`
	Fwd     [3]float32 `json:"fwd"`
	Up      [3]float32 `json:"up"`
	Speed   float32    `json:"speed"`
	Hull    float32    `json:"hull"`
	Shields [6]float32 `json:"shields"`
	Alive   bool       `json:"alive"`
	// Subsystems are the conditions by subsystem index.
	Subsystems map[int]float32 `json:"-"`
}

// Bounds of a State, whatever a file holds: a real game has a few dozen
// ships with a few dozen subsystems each; a crafted file's millions of
// objects must not become millions of ships in every frame.
const (
	// MaxStateShips is the most ships a state holds; more are ignored
	// until some are gone.
	MaxStateShips = 1024
	// maxStateSubs is the most subsystem conditions kept per ship.
	maxStateSubs = 256
)

// NewState returns an empty state.
func NewState() *State {
	return &State{Players: make(map[byte]*PlayerState), Ships: make(map[int32]*ShipState)}
}

// Apply advances the state by one record.
func (s *State) Apply(r *Record) {
	s.T = r.T
	switch r.Kind {
	case KindKeyframe:
		clear(s.Players)
		clear(s.Ships)
		s.GameOver = r.Flags&1 != 0
	case KindPlayer:
		p := s.Players[r.Player]
		if p == nil {
			p = &PlayerState{ID: r.Player}
			s.Players[r.Player] = p
		}
		p.Slot, p.Name, p.Team, p.Kills, p.Deaths, p.Score = r.Slot, r.Name, r.Team, r.Kills, r.Deaths, r.Score
	case KindPlayerLeft:
		delete(s.Players, r.Player)
	case KindObject:
		sh := s.Ships[r.Object]
		if sh == nil {
			if len(s.Ships) >= MaxStateShips {
				return
			}
			sh = &ShipState{ID: r.Object, Hull: 1, Alive: true, Subsystems: map[int]float32{}}
			s.Ships[r.Object] = sh
		}
		sh.OwnerID, sh.Host, sh.Species, sh.Team, sh.Name, sh.Class = r.Owner, r.Flags&ObjHost != 0, r.Species, r.Team, r.Name, r.Class
	case KindObjectGone:
		delete(s.Ships, r.Object)
	case KindMotion:
		if sh := s.Ships[r.Object]; sh != nil {
			sh.Pos, sh.Fwd, sh.Up, sh.Speed = r.Pos, r.Fwd, r.Up, r.Speed
		}
	case KindStatus:
		if sh := s.Ships[r.Object]; sh != nil {
			sh.Hull, sh.Shields = r.Hull, r.Shields
		}
	case KindSubsystems:
		if sh := s.Ships[r.Object]; sh != nil {
			for _, x := range r.Subs {
				if _, ok := sh.Subsystems[x.Index]; ok || len(sh.Subsystems) < maxStateSubs {
					sh.Subsystems[x.Index] = x.Cond
				}
			}
		}
	case KindDeath:
		if sh := s.Ships[r.Object]; sh != nil {
			sh.Alive = false
		}
	case KindGameEnd:
		s.GameOver, s.EndReason = true, r.Reason
	case KindGameRestart:
		s.GameOver = false
	}
}

// ShipName is how a ship is called: its owner's name for a player's ship,
// its own for a host ship.
func (s *State) ShipName(id int32) string {
	sh := s.Ships[id]
	if sh == nil {
		return ""
	}
	if p := s.Players[sh.OwnerID]; p != nil && sh.OwnerID != 0 {
		return p.Name
	}
	return sh.Name
}

// Frame is the state as the viewer draws it: players by score, ships by id.
type Frame struct {
	T        uint32         `json:"t"`
	GameOver bool           `json:"game_over"`
	Players  []*PlayerState `json:"players"`
	Ships    []ShipState    `json:"ships"`
}

// Frame returns a copy of the state for the viewer.
func (s *State) Frame() Frame {
	f := Frame{T: s.T, GameOver: s.GameOver, Players: make([]*PlayerState, 0, len(s.Players)), Ships: make([]ShipState, 0, len(s.Ships))}
	for _, p := range s.Players {
		cp := *p
		f.Players = append(f.Players, &cp)
	}
	SortPlayers(f.Players)
	for _, sh := range s.Ships {
		v := *sh
		if p := s.Players[sh.OwnerID]; p != nil && sh.OwnerID != 0 {
			v.Owner = p.Name
		}
		f.Ships = append(f.Ships, v)
	}
	slices.SortFunc(f.Ships, func(a, b ShipState) int { return cmp.Compare(a.ID, b.ID) })
	return f
}

// SortPlayers orders a score table: score, then kills, then fewer deaths,
// then name.
func SortPlayers(ps []*PlayerState) {
	slices.SortFunc(ps, func(a, b *PlayerState) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Kills, a.Kills); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Deaths, b.Deaths); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
