package webhook

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Message is one announcement: plain data copied off the game loop, so
// the sender renders it on its own goroutine.
type Message struct {
	Kind   string    `json:"event"`
	Server string    `json:"server"`
	Game   string    `json:"game,omitempty"` // the game's label with several games
	Time   time.Time `json:"time"`

	// Match end.
	Mode       string        `json:"mode,omitempty"`
	System     string        `json:"system,omitempty"`
	Reason     string        `json:"reason,omitempty"`
	WinnerTeam *int          `json:"winner_team,omitempty"`
	Winner     string        `json:"winner,omitempty"`
	Why        string        `json:"why,omitempty"`
	Teams      []TeamLine    `json:"teams,omitempty"`
	Scoreboard []PlayerLine  `json:"scoreboard,omitempty"`
	Duration   time.Duration `json:"-"`
	Seconds    int64         `json:"duration_seconds,omitempty"`
	Replay     string        `json:"replay,omitempty"`

	// Join and leave.
	Player      string `json:"player,omitempty"`
	LeaveReason string `json:"leave_reason,omitempty"`
	Players     int    `json:"players"`
	MaxPlayers  int    `json:"max_players,omitempty"`

	// A fair-play violation: the rule, what was measured, and the step
	// taken (notify, kick, ban).
	Rule   string `json:"rule,omitempty"`
	Detail string `json:"detail,omitempty"`
	Action string `json:"action,omitempty"`
}

// TeamLine is a team's score at the end.
type TeamLine struct {
	Team  int `json:"team"`
	Kills int `json:"kills"`
	Score int `json:"score"`
}

// PlayerLine is one player's line of the scoreboard.
type PlayerLine struct {
	Name   string `json:"name"`
	Team   *int   `json:"team,omitempty"`
	Kills  int    `json:"kills"`
	Deaths int    `json:"deaths"`
	Score  int    `json:"score"`
}

// Render encodes a message in the format ("discord" or "json").
func Render(m Message, format string) ([]byte, error) {
	m.Seconds = int64(m.Duration / time.Second)
	if format == FormatJSON {
		return json.Marshal(m)
	}
	return json.Marshal(discord(m))
}

// Discord's webhook body (discord.com/developers/docs/resources/webhook,
// "Execute Webhook") and its limits.
type discordBody struct {
	Username string         `json:"username,omitempty"`
	Content  string         `json:"content,omitempty"`
	Embeds   []discordEmbed `json:"embeds,omitempty"`
	// AllowedMentions with no parse list: a player named "@everyone"
	// pings nobody.
	AllowedMentions struct {
		Parse []string `json:"parse"`
	} `json:"allowed_mentions"`
}

type discordEmbed struct {
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	URL         string         `json:"url,omitempty"`
	Timestamp   string         `json:"timestamp,omitempty"`
	Fields      []discordField `json:"fields,omitempty"`
}

type discordField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

const (
	discordUsername = 80
	discordTitle    = 256
	discordDesc     = 4096
	discordFieldMax = 1024
	discordFields   = 25
	scoreboardLines = 16
)

func discord(m Message) discordBody {
	var b discordBody
	b.AllowedMentions.Parse = []string{}
	b.Username = cut(m.Server, discordUsername)
	e := discordEmbed{Timestamp: m.Time.UTC().Format(time.RFC3339)}
	where := esc(m.Server)
	if m.Game != "" {
		where += " (game " + esc(m.Game) + ")"
	}
	switch m.Kind {
	case EventMatchEnd:
		e.Title = cut(fmt.Sprintf("Match over: %s on %s", m.Mode, m.System), discordTitle)
		var d strings.Builder
		switch {
		case m.Winner != "":
			fmt.Fprintf(&d, "**Winner: %s**", esc(m.Winner))
		case m.WinnerTeam != nil:
			fmt.Fprintf(&d, "**Winner: team %d**", *m.WinnerTeam)
		default:
			d.WriteString("No winner")
		}
		if m.Why != "" {
			d.WriteString(" — " + esc(m.Why))
		}
		fmt.Fprintf(&d, "\n%s · %s · %s", where, esc(m.Reason), m.Duration.Round(time.Second))
		e.Description = cut(d.String(), discordDesc)
		for _, t := range m.Teams {
			if len(e.Fields) < discordFields-1 {
				e.Fields = append(e.Fields, discordField{Name: fmt.Sprintf("Team %d", t.Team), Value: fmt.Sprintf("%d points, %d kills", t.Score, t.Kills), Inline: true})
			}
		}
		if len(m.Scoreboard) > 0 {
			e.Fields = append(e.Fields, discordField{Name: "Scoreboard", Value: scoreboard(m.Scoreboard)})
		}
		if m.Replay != "" {
			e.URL = m.Replay
		}
	case EventJoin:
		e.Title = cut(m.Player+" joined", discordTitle)
		e.Description = fmt.Sprintf("%s · %d/%d players", where, m.Players, m.MaxPlayers)
	case EventLeave:
		e.Title = cut(m.Player+" left", discordTitle)
		e.Description = fmt.Sprintf("%s · %s · %d/%d players", where, esc(m.LeaveReason), m.Players, m.MaxPlayers)
	case EventViolation:
		e.Title = cut("Fair play: "+m.Player+" ("+m.Rule+")", discordTitle)
		e.Description = cut(fmt.Sprintf("%s · %s · %s", where, esc(m.Detail), esc(m.Action)), discordDesc)
	case EventServerUp:
		e.Title = "Server up"
		e.Description = where
	case EventServerDown:
		e.Title = "Server down"
		e.Description = where
	default:
		e.Title = cut(m.Kind, discordTitle)
	}
	b.Embeds = []discordEmbed{e}
	return b
}

// scoreboard is a code block (no markdown inside it) of the best lines.
func scoreboard(ls []PlayerLine) string {
	var sb strings.Builder
	sb.WriteString("```\n")
	for i, l := range ls {
		if i == scoreboardLines {
			fmt.Fprintf(&sb, "+%d more\n", len(ls)-i)
			break
		}
		name := cut(strings.ReplaceAll(l.Name, "`", "'"), 20)
		team := ""
		if l.Team != nil {
			team = fmt.Sprintf("[%d] ", *l.Team)
		}
		fmt.Fprintf(&sb, "%2d. %s%-20s %6d  %d/%d\n", i+1, team, name, l.Score, l.Kills, l.Deaths)
	}
	sb.WriteString("```")
	return cut(sb.String(), discordFieldMax)
}

// esc escapes Discord markdown in text that came from players or the
// host (names, reasons), so it shows as typed.
func esc(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '>', '#', '-', '[', ']', '(', ')', '<', '@', ':':
			sb.WriteByte('\\')
		case '\n', '\r':
			r = ' '
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// cut shortens s to at most n runes.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
