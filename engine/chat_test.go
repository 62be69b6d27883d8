package engine

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/bcserver/bcserver/codec"
)

// Team chat goes only to players whose ship is on the sender's side
// (missions.md 2.2); plain chat to everyone, the sender included.
func TestTeamChatRouting(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B", "C", "D")
	l.g.SetTeamMode(true)
	teams := []int{0, 1, 0, 0}
	for i, c := range l.cs {
		p := l.g.Player(c.ev.accepted)
		l.g.SetTeam(p, teams[i])
		if i < 3 { // D has no ship
			l.send(c, retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), i, 1, 7), true)
		}
	}
	recipients := func(from int, team bool) []int {
		c := l.cs[from]
		msg := codec.Chat{Team: team, Sender: int32(c.ev.accepted), Text: []byte("x")}.AppendTo(nil)
		got := l.send(c, msg, true)
		var who []int
		for i := range got {
			for _, m := range got[i] {
				if bytes.Equal(m, msg) {
					who = append(who, i)
				}
			}
		}
		return who
	}
	tests := []struct {
		from int
		team bool
		want []int
	}{
		{0, true, []int{0, 2}},        // team 0 with a ship: team-0 ships, sender included
		{1, true, []int{1}},           // team 1: only team-1 ships
		{3, true, []int{0, 1, 2}},     // no ship: every player with a ship
		{3, false, []int{0, 1, 2, 3}}, // plain chat: everyone
	}
	for _, tt := range tests {
		if got := recipients(tt.from, tt.team); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("from %d team=%v: got %v, want %v", tt.from, tt.team, got, tt.want)
		}
	}
	// Without teams every ship is in the enemy group: team chat reaches
	// every player with a ship.
	l.g.SetTeamMode(false)
	if got := recipients(0, true); fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("no-team mode: %v", got)
	}
	// A chat line claiming another sender, or too long, is dropped.
	spoof := codec.Chat{Sender: 3, Text: []byte("x")}.AppendTo(nil)
	if got := l.send(l.cs[0], spoof, true); len(got[1]) != 0 || l.g.Stats.ChatDropped.Load() != 1 {
		t.Fatalf("spoofed chat relayed")
	}
	long := codec.Chat{Sender: 2, Text: bytes.Repeat([]byte("y"), 250)}.AppendTo(nil)
	if got := l.send(l.cs[0], long, true); len(got[1]) != 0 || l.g.Stats.ChatDropped.Load() != 2 {
		t.Fatalf("over-long chat relayed")
	}
}

// A chat line is decoded from the client's code page and cleaned to one
// line once, where it enters; after its relay is decided the plugins hear
// who received it: everyone, a team, or no one (a veto, a mute).
func TestChatDecodedOnceAndDeliveryReported(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	var lines []string
	var got []ChatDelivered
	l.g.On(EvChat, func(ev Event) {
		c := ev.(*Chat)
		lines = append(lines, c.Line)
		switch string(c.Text) {
		case "veto":
			c.Cancel = true
		case "mute":
			c.Cancel, c.Muted = true, true
		}
	})
	l.g.On(EvChatDelivered, func(ev Event) { got = append(got, *ev.(*ChatDelivered)) })
	c := l.cs[0]
	for _, tc := range []struct {
		text string
		team bool
	}{{"gr\xfc\xdfe\r\nhost: x", false}, {"veto", false}, {"mute", false}, {"t", true}} {
		l.send(c, codec.Chat{Team: tc.team, Sender: int32(c.ev.accepted), Text: []byte(tc.text)}.AppendTo(nil), true)
	}
	if fmt.Sprint(lines) != "[grüße host: x veto mute t]" {
		t.Errorf("lines %q", lines)
	}
	want := []ChatDelivered{{Line: "grüße host: x"}, {Line: "veto", Cancelled: true}, {Line: "mute", Cancelled: true, Muted: true}, {Line: "t", Team: true}}
	if len(got) != len(want) {
		t.Fatalf("delivered %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.From == nil || g.Line != w.Line || g.Team != w.Team || g.Cancelled != w.Cancelled || g.Muted != w.Muted {
			t.Errorf("line %d: %+v, want %+v", i, g, w)
		}
	}
}
