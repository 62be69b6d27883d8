package record

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/names"
)

// Summary is what a recording holds in short: the final score table, every
// kill and chat line, the ships that flew. `bcserver replay FILE` prints
// it; the replay viewer draws its kill feed, chat and timeline from it.
type Summary struct {
	Header     capture.Header         `json:"header"`
	Footer     *capture.Footer        `json:"footer"`
	DurationMS uint32                 `json:"duration_ms"`
	Damaged    bool                   `json:"damaged,omitempty"`
	Players    []*capture.PlayerState `json:"players"`
	Kills      []capture.Kill         `json:"kills"`
	Chat       []capture.ChatLine     `json:"chat"`
	Ships      []ShipInfo             `json:"ships"`
	Records    int                    `json:"records"`
	Bytes      int64                  `json:"bytes"`
	// Public is set for the public view: only what every player
	// received (no team chat, no held-back lines).
	Public bool `json:"public,omitempty"`
	// The lists are bounded (MaxSummaryChat, ...): what they left out.
	ChatOmitted    int `json:"chat_omitted,omitempty"`
	KillsOmitted   int `json:"kills_omitted,omitempty"`
	ShipsOmitted   int `json:"ships_omitted,omitempty"`
	PlayersOmitted int `json:"players_omitted,omitempty"`
}

// Bounds of a summary, whatever the file holds: a chat flood or a
// crafted file makes it no bigger than this (a few MB of JSON).
const (
	// MaxSummaryChat lines are kept: the first half of them and the last
	// half, the lines between counted in ChatOmitted.
	MaxSummaryChat = 2000
	// MaxSummaryKills, MaxSummaryShips and MaxSummaryPlayers are kept
	// from the start, the rest counted.
	MaxSummaryKills   = 5000
	MaxSummaryShips   = 2048
	MaxSummaryPlayers = 512
)

// View chooses what a reader shows of a recording.
type View struct {
	// Public leaves out what not every player received: team chat, and
	// lines held back by a mute or the mission. The spectator page and
	// anything shown without the admin token are public.
	Public bool
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

// Summarize reads the whole recording: the admin's view (SummarizeView).
func Summarize(f *File) (*Summary, error) { return SummarizeView(f, View{}) }

// SummarizeView reads the whole recording, a block at a time, into a
// summary of bounded size (MaxSummaryChat, ...) showing v.
func SummarizeView(f *File, v View) (*Summary, error) {
	s := &Summary{Header: f.Header, Footer: f.Footer, DurationMS: f.Duration(), Damaged: f.Damaged, Public: v.Public,
		Kills: []capture.Kill{}, Chat: []capture.ChatLine{}, Ships: []ShipInfo{}}
	// The chat's last half is a ring: tail[next] is the oldest.
	var tail []capture.ChatLine
	next := 0
	st := capture.NewState()
	var lines []*capture.PlayerState
	cur := map[byte]*capture.PlayerState{}
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
	lastWeapon := map[int32]capture.WeaponKind{}
	err := f.All(func(r *capture.Record) bool {
		s.Records++
		st.Apply(r)
		switch r.Kind {
		case capture.KindPlayer:
			p := cur[r.Player]
			if p == nil || p.Left && p.Name != r.Name {
				// A new player (ids are reused after a leave).
				if len(lines) >= MaxSummaryPlayers {
					s.PlayersOmitted++
					delete(cur, r.Player)
					break
				}
				p = &capture.PlayerState{}
				lines = append(lines, p)
				cur[r.Player] = p
			}
			if sp := st.Players[r.Player]; sp != nil {
				*p = *sp
			}
		case capture.KindPlayerLeft:
			if p := cur[r.Player]; p != nil {
				p.Left = true
			}
		case capture.KindObject:
			if _, ok := known[r.Object]; !ok {
				if len(known) >= MaxSummaryShips {
					s.ShipsOmitted++
					break
				}
				si := ShipInfo{ID: r.Object, Name: st.ShipName(r.Object), Class: r.Class, Owner: r.Owner, Host: r.Flags&capture.ObjHost != 0, From: r.T}
				s.Ships = append(s.Ships, si)
				known[r.Object] = si
			}
		case capture.KindFire:
			lastWeapon[r.Object] = r.Weapons
		case capture.KindDeath:
			k := capture.Kill{T: r.T, VictimShip: r.Object, VictimID: r.Owner, Victim: name(r.Object), KillerID: r.Player, KillerShip: r.Other, Cause: r.Cause.String()}
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
			case r.Weapons != capture.WeaponUnknown:
				k.Weapon = r.Weapons.String() // the host's model named it
			case r.Cause == capture.CauseWeapon:
				k.Weapon = lastWeapon[r.Other].String()
			}
			if len(s.Kills) >= MaxSummaryKills {
				s.KillsOmitted++
				break
			}
			s.Kills = append(s.Kills, k)
		case capture.KindChat:
			if v.Public && !r.Public() {
				break
			}
			c := capture.ChatOf(r, st)
			switch {
			case len(s.Chat) < MaxSummaryChat/2:
				s.Chat = append(s.Chat, c)
			case len(tail) < MaxSummaryChat/2:
				tail = append(tail, c)
			default:
				tail[next] = c
				next = (next + 1) % len(tail)
				s.ChatOmitted++
			}
		}
		return true
	})
	s.Chat = append(s.Chat, tail[next:]...)
	s.Chat = append(s.Chat, tail[:next]...)
	s.Players = append([]*capture.PlayerState{}, lines...)
	capture.SortPlayers(s.Players)
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
	fmt.Fprintf(w, "%s — %s on %s (%s), started %s, %s long\n", Term(h.Server), Term(h.Mode), Term(h.Map), Term(h.Script), h.Started.Format(time.RFC3339), fmtT(s.DurationMS))
	switch {
	case s.Footer == nil:
		fmt.Fprintln(w, "unfinished recording (the server stopped before the match ended)")
	default:
		fmt.Fprintf(w, "ended: %s", Term(s.Footer.Reason))
		if o := s.Footer.Outcome; o != nil {
			if o.Team != nil {
				fmt.Fprintf(w, ", team %d won", *o.Team)
			}
			if o.Player != 0 {
				fmt.Fprintf(w, ", %s won", Term(o.PlayerName))
			}
			if o.Why != "" {
				fmt.Fprintf(w, " (%s)", Term(o.Why))
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
		name := names.Ellipsis(Term(p.Name), 24)
		if p.Left {
			name = names.Ellipsis(Term(p.Name), 17) + " (left)"
		}
		fmt.Fprintf(w, "%s %5s %6d %6d %8d\n", pad(name, 24), team, p.Kills, p.Deaths, p.Score)
	}
	fmt.Fprintf(w, "\nkills (%d):\n", len(s.Kills))
	for _, k := range s.Kills {
		by := k.Cause
		if k.Killer != "" {
			by = names.Ellipsis(k.Killer, 40)
			if k.Weapon != "" && k.Weapon != "unknown" {
				by += " (" + k.Weapon + ")"
			}
		}
		fmt.Fprintf(w, "  %s  %s destroyed by %s\n", fmtT(k.T), Term(names.Ellipsis(k.Victim, 40)), Term(by))
	}
	if s.KillsOmitted > 0 {
		fmt.Fprintf(w, "  (%d more kills not listed)\n", s.KillsOmitted)
	}
	if len(s.Chat) > 0 {
		fmt.Fprintf(w, "\nchat (%d):\n", len(s.Chat)+s.ChatOmitted)
		for i, c := range s.Chat {
			if s.ChatOmitted > 0 && i == MaxSummaryChat/2 {
				fmt.Fprintf(w, "  (%d lines not listed)\n", s.ChatOmitted)
			}
			label := ""
			switch {
			case c.Muted:
				label = " [muted: only the sender saw it]"
			case c.Cancelled:
				label = " [held back by the mission]"
			case c.Team:
				label = " [team]"
			}
			fmt.Fprintf(w, "  %s  %s%s: %s\n", fmtT(c.T), Term(names.Ellipsis(c.Name, 24)), label, Term(c.Text))
		}
	}
	fmt.Fprintf(w, "\n%d ships, %d records", len(s.Ships), s.Records)
	if s.Bytes > 0 {
		fmt.Fprintf(w, ", %d bytes", s.Bytes)
	}
	fmt.Fprintln(w)
}

// Term returns s safe to print to a terminal: control characters (ESC,
// CR, NUL, C1), line and paragraph separators, bidi controls and invalid
// UTF-8 are written as Go escapes (\x1b, \u202e), the rest as is. A name
// or a line of chat is a stranger's text; a terminal must not run it.
func Term(s string) string {
	ok := true
	for _, r := range s {
		if termUnsafe(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case termUnsafe(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
	}
	return b.String()
}

func termUnsafe(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// pad writes s left-aligned in n columns (fmt's %-24s counts bytes,
// which puts the columns of a table with "Ärger" in it out of line).
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
