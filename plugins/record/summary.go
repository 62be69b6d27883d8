package record

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Summary is what a recording holds in short: the final score table, every
// kill and chat line, the ships that flew. `bcserver replay FILE` prints
// it; the replay viewer draws its kill feed, chat and timeline from it.
type Summary struct {
	Header     Header         `json:"header"`
	Footer     *Footer        `json:"footer"`
	DurationMS uint32         `json:"duration_ms"`
	Damaged    bool           `json:"damaged,omitempty"`
	Players    []*PlayerState `json:"players"`
	Kills      []Kill         `json:"kills"`
	Chat       []ChatLine     `json:"chat"`
	Ships      []ShipInfo     `json:"ships"`
	Records    int            `json:"records"`
	Bytes      int64          `json:"bytes"`
}

// Kill is one ship destroyed.
type Kill struct {
	T            uint32 `json:"t"`
	Victim       string `json:"victim"` // the player, or the host ship's name
	VictimID     byte   `json:"victim_id"`
	VictimShip   int32  `json:"victim_ship"`
	VictimClass  string `json:"victim_class,omitempty"`
	Killer       string `json:"killer,omitempty"`
	KillerID     byte   `json:"killer_id"` // the killing player, 0 for none
	KillerShip   int32  `json:"killer_ship,omitempty"`
	Cause        string `json:"cause"`
	Weapon       string `json:"weapon,omitempty"` // the killer's last weapon kind
	VictimIsHost bool   `json:"victim_host,omitempty"`
}

// ChatLine is one chat line; Player 1 is the host (mission messages).
type ChatLine struct {
	T      uint32 `json:"t"`
	Player byte   `json:"player"`
	Name   string `json:"name"`
	Team   bool   `json:"team,omitempty"`
	Text   string `json:"text"`
}

// ShipInfo is a ship that flew in the match.
type ShipInfo struct {
	ID    int32  `json:"id"`
	Name  string `json:"name"`
	Class string `json:"class,omitempty"`
	Owner byte   `json:"owner_id"`
	Host  bool   `json:"host,omitempty"`
	From  uint32 `json:"from"`
}

// Summarize reads the whole recording.
func Summarize(f *File) (*Summary, error) {
	s := &Summary{Header: f.Header, Footer: f.Footer, DurationMS: f.Duration(), Damaged: f.Damaged,
		Kills: []Kill{}, Chat: []ChatLine{}, Ships: []ShipInfo{}}
	st := NewState()
	var lines []*PlayerState
	cur := map[byte]*PlayerState{}
	known := map[int32]ShipInfo{}
	// name calls a ship even after it was deleted (END_GAME deletes the
	// ships before the handlers after the mission's see the last death).
	name := func(id int32) string {
		if n := st.ShipName(id); n != "" {
			return n
		}
		if k, ok := known[id]; ok {
			if p := cur[k.Owner]; p != nil && k.Owner != 0 {
				return p.Name
			}
			return k.Name
		}
		return ""
	}
	lastWeapon := map[int32]WeaponKind{}
	err := f.All(func(r *Record) bool {
		s.Records++
		st.Apply(r)
		switch r.Kind {
		case KindPlayer:
			p := cur[r.Player]
			if p == nil || p.Left && p.Name != r.Name {
				// A new player (ids are reused after a leave).
				p = &PlayerState{}
				lines = append(lines, p)
				cur[r.Player] = p
			}
			*p = *st.Players[r.Player]
		case KindPlayerLeft:
			if p := cur[r.Player]; p != nil {
				p.Left = true
			}
		case KindObject:
			if _, ok := known[r.Object]; !ok {
				si := ShipInfo{ID: r.Object, Name: st.ShipName(r.Object), Class: r.Class, Owner: r.Owner, Host: r.Flags&ObjHost != 0, From: r.T}
				s.Ships = append(s.Ships, si)
				known[r.Object] = si
			}
		case KindFire:
			lastWeapon[r.Object] = r.Weapons
		case KindDeath:
			k := Kill{T: r.T, VictimShip: r.Object, VictimID: r.Owner, Victim: name(r.Object), KillerID: r.Player, KillerShip: r.Other, Cause: r.Cause.String()}
			if sh, ok := known[r.Object]; ok {
				k.VictimClass, k.VictimIsHost = sh.Class, sh.Host
			}
			switch {
			case r.Other != 0 && r.Other != r.Object:
				k.Killer = name(r.Other)
			case r.Player != 0:
				if p := st.Players[r.Player]; p != nil {
					k.Killer = p.Name
				}
			}
			switch {
			case r.Weapons != WeaponUnknown:
				k.Weapon = r.Weapons.String() // the host's model named it
			case r.Cause == CauseWeapon:
				k.Weapon = lastWeapon[r.Other].String()
			}
			s.Kills = append(s.Kills, k)
		case KindChat:
			c := ChatLine{T: r.T, Player: r.Player, Team: r.Team != 0, Text: r.Text, Name: "host"}
			if p := st.Players[r.Player]; p != nil {
				c.Name = p.Name
			}
			s.Chat = append(s.Chat, c)
		}
		return true
	})
	s.Players = append([]*PlayerState{}, lines...)
	SortPlayers(s.Players)
	if err != nil {
		return s, err
	}
	return s, nil
}

// fmtT formats a match time.
func fmtT(ms uint32) string {
	d := time.Duration(ms) * time.Millisecond
	return fmt.Sprintf("%d:%02d.%d", int(d.Minutes()), int(d.Seconds())%60, (ms%1000)/100)
}

// Print writes the summary for a person.
func (s *Summary) Print(w io.Writer) {
	h := s.Header
	fmt.Fprintf(w, "%s — %s on %s (%s), started %s, %s long\n", h.Server, h.Mode, h.Map, h.Script, h.Started.Format(time.RFC3339), fmtT(s.DurationMS))
	switch {
	case s.Footer == nil:
		fmt.Fprintln(w, "unfinished recording (the server stopped before the match ended)")
	default:
		fmt.Fprintf(w, "ended: %s", s.Footer.Reason)
		if o := s.Footer.Outcome; o != nil {
			if o.Team != nil {
				fmt.Fprintf(w, ", team %d won", *o.Team)
			}
			if o.Player != 0 {
				fmt.Fprintf(w, ", %s won", o.PlayerName)
			}
			if o.Why != "" {
				fmt.Fprintf(w, " (%s)", o.Why)
			}
			for _, t := range o.Teams {
				fmt.Fprintf(w, "; team %d: %d kills, %d points", t.Team, t.Kills, t.Score)
			}
		}
		if s.Footer.Truncated {
			fmt.Fprint(w, " (truncated at the size limit)")
		}
		if s.Footer.DroppedBlocks > 0 || s.Footer.DroppedRecords > 0 {
			fmt.Fprintf(w, " (dropped: %d blocks, %d records)", s.Footer.DroppedBlocks, s.Footer.DroppedRecords)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%-24s %5s %6s %6s %8s\n", "player", "team", "kills", "deaths", "score")
	for _, p := range s.Players {
		team := "-"
		if p.Team >= 0 {
			team = fmt.Sprint(p.Team)
		}
		name := p.Name
		if p.Left {
			name += " (left)"
		}
		fmt.Fprintf(w, "%-24s %5s %6d %6d %8d\n", name, team, p.Kills, p.Deaths, p.Score)
	}
	fmt.Fprintf(w, "\nkills (%d):\n", len(s.Kills))
	for _, k := range s.Kills {
		by := k.Cause
		if k.Killer != "" {
			by = k.Killer
			if k.Weapon != "" && k.Weapon != "unknown" {
				by += " (" + k.Weapon + ")"
			}
		}
		fmt.Fprintf(w, "  %s  %s destroyed by %s\n", fmtT(k.T), k.Victim, by)
	}
	if len(s.Chat) > 0 {
		fmt.Fprintf(w, "\nchat (%d):\n", len(s.Chat))
		for _, c := range s.Chat {
			fmt.Fprintf(w, "  %s  %s: %s\n", fmtT(c.T), c.Name, strings.ToValidUTF8(c.Text, "?"))
		}
	}
	fmt.Fprintf(w, "\n%d ships, %d records", len(s.Ships), s.Records)
	if s.Bytes > 0 {
		fmt.Fprintf(w, ", %d bytes", s.Bytes)
	}
	fmt.Fprintln(w)
}
