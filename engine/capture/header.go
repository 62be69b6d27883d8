package capture

import (
	"time"

	"github.com/bcserver/bcserver/engine"
)

// The header's format values (docs/replay-format.md): a capture writes
// them into every Header, and the recording files carry them.
const (
	// FormatName is the header's "format" value.
	FormatName = "bcserver-replay"
	// FormatVersion is the format version a capture's records are in. A
	// reader refuses files of a newer major version.
	FormatVersion = 1
	// TextUTF8 is Header.Text of files whose chat is UTF-8.
	TextUTF8 = "utf-8"
)

// Header is the JSON header of a recording.
type Header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Text is "utf-8" when the file's chat lines are UTF-8 (decoded from
	// the client's code page when they were recorded); files without it
	// hold them as the client sent them (Windows-1252), and the reader
	// decodes them.
	Text       string    `json:"text,omitempty"`
	Server     string    `json:"server"`
	Game       string    `json:"game,omitempty"` // the game's label in a process of several (its port)
	Mode       string    `json:"mode"`
	Script     string    `json:"script,omitempty"`
	Map        string    `json:"map"`
	MapName    string    `json:"map_name,omitempty"`
	TimeLimit  int       `json:"time_limit"`
	FragLimit  int       `json:"frag_limit"`
	Started    time.Time `json:"started"`
	KeyframeMS int       `json:"keyframe_ms"`
	Writer     string    `json:"writer,omitempty"` // the bcserver version
}

// Footer is the JSON footer of a finished recording: a file without one
// was cut short (the server stopped) and is still readable to its last
// whole block.
type Footer struct {
	Ended          time.Time `json:"ended"`
	DurationMS     uint32    `json:"duration_ms"`
	Reason         string    `json:"reason"`
	Blocks         int       `json:"blocks"`
	DroppedBlocks  uint64    `json:"dropped_blocks"`
	DroppedRecords uint64    `json:"dropped_records"`
	// Truncated is set when the file reached the size limit: the blocks
	// after that were not written.
	Truncated bool `json:"truncated"`
	// ChatDropped counts the players' chat lines not recorded because
	// they were over their player's allowance (ChatRate, ChatBurst): a
	// flood costs the recording a bounded share, never the match.
	ChatDropped uint64 `json:"chat_dropped,omitempty"`
	// The outcome the mission gave at END_GAME (bc.end_game): winner_team,
	// winner (the player id), winner_name, why, teams; absent when it gave
	// none (and in files written before it was added).
	*engine.Outcome
}
