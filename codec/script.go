package codec

// Mission script messages 0x2C..0x41 (missions.md 2). The stock scripts
// write them with WriteChar (u8), WriteInt/WriteLong (i32 LE) and
// WriteShort (u16 LE); no packed bits, no padding. Player ids here are
// network player ids (host 1, clients 2, 3, ...; 0 = none), never slots or
// object ids.

// MaxChatText is the longest chat text a stock client can send: its 256-byte
// stream buffer minus opcode, sender id and length (missions.md 1.2). The
// decoder accepts any length that fits the message; a relay should drop
// longer texts (missions.md 1.4 hardening).
const MaxChatText = 256 - 1 - 4 - 2

// Wire value for "no limit" / "no team" (missions.md 2.0, 2.3, 2.8).
const (
	NoLimit     = 255 // MissionInit time and frag limits
	InvalidTeam = 255 // ScoreInit team not known yet
)

// End-game reasons (missions.md 2.6).
const (
	EndItsJustOver       = 0
	EndTimeUp            = 1
	EndNumFragsReached   = 2 // Mission5 only
	EndScoreLimitReached = 3 // Mission1/2/3
	EndStarbaseDead      = 4
	EndBorgDead          = 5
	EndEnterpriseDead    = 6
)

// Chat is CHAT_MESSAGE 0x2C or, with Team set, TEAM_CHAT_MESSAGE 0x2D
// (missions.md 2.1-2.2): same layout, the host routes them differently.
type Chat struct {
	Team   bool   // 0x2D
	Sender int32  // the sending client's own player id
	Text   []byte // 8-bit characters, no terminator
}

// AppendTo appends the encoded message to b (text cut to 65535 bytes; keep
// it to MaxChatText for stock clients).
func (m Chat) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	if m.Team {
		w.U8(OpTeamChat)
	} else {
		w.U8(OpChat)
	}
	w.I32(m.Sender)
	w.rawStr16(m.Text)
	return w.buf
}

// DecodeChat parses an opcode-0x2C or 0x2D payload; Text is a sub-slice of
// payload. Texts longer than MaxChatText are accepted (the caller decides).
func DecodeChat(payload []byte) (Chat, error) {
	var m Chat
	d := newDecoder(payload, "chat")
	op := d.at("opcode").U8()
	if d.err == nil && op != OpChat && op != OpTeamChat {
		d.fail("opcode", "opcode 0x%02X, want 0x2C or 0x2D", op)
	}
	m.Team = op == OpTeamChat
	m.Sender = d.at("sender").I32()
	m.Text = d.at("text").Str16()
	d.end()
	return m, d.result()
}

// MissionInit is MISSION_INIT_MESSAGE 0x35, the first message of a join
// sync (missions.md 2.3): 5 bytes without a time limit, 9 with.
type MissionInit struct {
	PlayerLimit uint8 // 2..8; stock dedicated servers send 8
	System      uint8 // star-system index 1..9
	TimeLimit   uint8 // minutes, or NoLimit
	// EndTime is on the wire only when TimeLimit != NoLimit: seconds left
	// plus the truncated host game time.
	EndTime   int32
	FragLimit uint8 // 1..10, or NoLimit
}

// AppendTo appends the encoded message to b.
func (m MissionInit) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpMissionInit)
	w.U8(m.PlayerLimit)
	w.U8(m.System)
	w.U8(m.TimeLimit)
	if m.TimeLimit != NoLimit {
		w.I32(m.EndTime)
	}
	w.U8(m.FragLimit)
	return w.buf
}

// DecodeMissionInit parses an opcode-0x35 payload.
func DecodeMissionInit(payload []byte) (MissionInit, error) {
	var m MissionInit
	d := newDecoder(payload, "mission init")
	d.opcode(OpMissionInit)
	m.PlayerLimit = d.at("player limit").U8()
	m.System = d.at("system").U8()
	m.TimeLimit = d.at("time limit").U8()
	if m.TimeLimit != NoLimit {
		m.EndTime = d.at("end time").I32()
	}
	m.FragLimit = d.at("frag limit").U8()
	d.end()
	return m, d.result()
}

// ScoreChange is SCORE_CHANGE_MESSAGE 0x36, sent once per qualifying death
// (missions.md 2.4). All values are totals, not deltas.
type ScoreChange struct {
	Killer       int32 // 0 = none
	KillerKills  int32 // on the wire only when Killer != 0
	KillerScore  int32 // on the wire only when Killer != 0
	Victim       int32 // 0 in Mission5 for the starbase
	VictimDeaths int32
	// Extras holds the other damage contributors' new score totals as
	// verbatim 8-byte {i32 player id, i32 score} entries; see Extra and
	// AppendScoreEntry.
	Extras []byte
}

const scoreEntryLen = 8

// NumExtras returns the number of whole extra entries.
func (m ScoreChange) NumExtras() int { return len(m.Extras) / scoreEntryLen }

// Extra returns extra entry i (0 <= i < NumExtras).
func (m ScoreChange) Extra(i int) (player, score int32) {
	r := NewReader(m.Extras[i*scoreEntryLen : i*scoreEntryLen+scoreEntryLen])
	return r.I32(), r.I32()
}

// AppendScoreEntry appends one {player, score} extra entry in wire form to
// extras (for building a ScoreChange).
func AppendScoreEntry(extras []byte, player, score int32) []byte {
	w := Writer{buf: extras}
	w.I32(player)
	w.I32(score)
	return w.buf
}

// AppendTo appends the encoded message to b. Extra entries with player id
// 0 are left out: a stock receiver reading id 0 skips the score field, so
// such an entry would desynchronise it (missions.md 2.4). At most 255
// entries are written (u8 count).
func (m ScoreChange) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpScoreChange)
	w.I32(m.Killer)
	if m.Killer != 0 {
		w.I32(m.KillerKills)
		w.I32(m.KillerScore)
	}
	w.I32(m.Victim)
	w.I32(m.VictimDeaths)
	countAt := w.Len()
	w.U8(0)
	n := 0
	for i := 0; i < m.NumExtras() && n < 255; i++ {
		e := m.Extras[i*scoreEntryLen : i*scoreEntryLen+scoreEntryLen]
		if e[0]|e[1]|e[2]|e[3] == 0 {
			continue
		}
		w.Raw(e)
		n++
	}
	w.buf[countAt] = uint8(n)
	return w.buf
}

// DecodeScoreChange parses an opcode-0x36 payload. The entry count is
// checked against the bytes left; an entry with player id 0 is an error
// (stock receivers would read it differently from how it was written).
func DecodeScoreChange(payload []byte) (ScoreChange, error) {
	var m ScoreChange
	d := newDecoder(payload, "score change")
	d.opcode(OpScoreChange)
	m.Killer = d.at("killer").I32()
	if m.Killer != 0 {
		m.KillerKills = d.at("killer kills").I32()
		m.KillerScore = d.at("killer score").I32()
	}
	m.Victim = d.at("victim").I32()
	m.VictimDeaths = d.at("victim deaths").I32()
	n := int(d.at("extra count").U8())
	m.Extras = d.at("extras").Raw(n * scoreEntryLen)
	for i := 0; i < n && d.err == nil; i++ {
		if p, _ := m.Extra(i); p == 0 {
			d.fail("extras", "entry %d has player id 0", i)
		}
	}
	d.end()
	return m, d.result()
}

// Score is SCORE_MESSAGE 0x37 (Mission1 join sync, missions.md 2.5).
type Score struct {
	Player int32
	Kills  int32
	Deaths int32
	Score  int32
}

// AppendTo appends the encoded message to b.
func (m Score) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpScore)
	w.I32(m.Player)
	w.I32(m.Kills)
	w.I32(m.Deaths)
	w.I32(m.Score)
	return w.buf
}

// DecodeScore parses an opcode-0x37 payload.
func DecodeScore(payload []byte) (Score, error) {
	var m Score
	d := newDecoder(payload, "score")
	d.opcode(OpScore)
	m.Player = d.at("player").I32()
	m.Kills = d.at("kills").I32()
	m.Deaths = d.at("deaths").I32()
	m.Score = d.at("score").I32()
	d.end()
	return m, d.result()
}

// EndGame is END_GAME_MESSAGE 0x38 (missions.md 2.6).
type EndGame struct {
	Reason int32 // EndItsJustOver..EndEnterpriseDead; others show no text
}

// AppendTo appends the encoded message to b.
func (m EndGame) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpEndGame)
	w.I32(m.Reason)
	return w.buf
}

// DecodeEndGame parses an opcode-0x38 payload.
func DecodeEndGame(payload []byte) (EndGame, error) {
	var m EndGame
	d := newDecoder(payload, "end game")
	d.opcode(OpEndGame)
	m.Reason = d.at("reason").I32()
	d.end()
	return m, d.result()
}

// RestartGame is RESTART_GAME_MESSAGE 0x39: the single opcode byte
// (missions.md 2.7).
type RestartGame struct{}

// AppendTo appends the encoded message to b.
func (RestartGame) AppendTo(b []byte) []byte { return append(b, OpRestartGame) }

// DecodeRestartGame parses an opcode-0x39 payload.
func DecodeRestartGame(payload []byte) (RestartGame, error) {
	return RestartGame{}, decodeBare(payload, OpRestartGame, "restart game")
}

// ScoreInit is SCORE_INIT_MESSAGE 0x3F, the team modes' join-sync row
// (missions.md 2.8). 18 bytes.
type ScoreInit struct {
	Player int32
	Kills  int32
	Deaths int32
	Score  int32
	Team   uint8 // 0, 1 or InvalidTeam
}

// AppendTo appends the encoded message to b.
func (m ScoreInit) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpScoreInit)
	w.I32(m.Player)
	w.I32(m.Kills)
	w.I32(m.Deaths)
	w.I32(m.Score)
	w.U8(m.Team)
	return w.buf
}

// DecodeScoreInit parses an opcode-0x3F payload.
func DecodeScoreInit(payload []byte) (ScoreInit, error) {
	var m ScoreInit
	d := newDecoder(payload, "score init")
	d.opcode(OpScoreInit)
	m.Player = d.at("player").I32()
	m.Kills = d.at("kills").I32()
	m.Deaths = d.at("deaths").I32()
	m.Score = d.at("score").I32()
	m.Team = d.at("team").U8()
	d.end()
	return m, d.result()
}

// TeamScore is TEAM_SCORE_MESSAGE 0x40 (missions.md 2.9). 10 bytes.
type TeamScore struct {
	Team  uint8
	Kills int32
	Score int32 // may be negative
}

// AppendTo appends the encoded message to b.
func (m TeamScore) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpTeamScore)
	w.U8(m.Team)
	w.I32(m.Kills)
	w.I32(m.Score)
	return w.buf
}

// DecodeTeamScore parses an opcode-0x40 payload.
func DecodeTeamScore(payload []byte) (TeamScore, error) {
	var m TeamScore
	d := newDecoder(payload, "team score")
	d.opcode(OpTeamScore)
	m.Team = d.at("team").U8()
	m.Kills = d.at("kills").I32()
	m.Score = d.at("score").I32()
	d.end()
	return m, d.result()
}

// Team is TEAM_MESSAGE 0x41, a client's team choice, echoed unchanged to
// every client (missions.md 2.10). 6 bytes.
type Team struct {
	Player int32 // the sender's own id
	Team   uint8 // 0 or 1
}

// AppendTo appends the encoded message to b.
func (m Team) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpTeam)
	w.I32(m.Player)
	w.U8(m.Team)
	return w.buf
}

// DecodeTeam parses an opcode-0x41 payload.
func DecodeTeam(payload []byte) (Team, error) {
	var m Team
	d := newDecoder(payload, "team")
	d.opcode(OpTeam)
	m.Player = d.at("player").I32()
	m.Team = d.at("team").U8()
	d.end()
	return m, d.result()
}
