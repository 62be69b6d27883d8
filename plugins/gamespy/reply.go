package gamespy

import "strconv"

// reply assembles the datagrams of one answer. Keys are added one at a
// time; a key that would push the datagram past MaxReply (counting the
// queryid that will close it) starts a new datagram, which is how the
// stock server splits "at a key boundary" (gamespy.md 2.3).
type reply struct {
	buf, spare []byte
	id         uint32
	frag       int // datagrams sent so far
	max        int // datagram cap
	tail       int // size of `\validate\...\final\`, reserved in the last datagram
	clipped    bool
	bytes      int
	send       func([]byte)
}

func (w *reply) reset(id uint32, max, tail int, send func([]byte)) {
	w.buf = w.buf[:0]
	w.id = id
	w.frag = 0
	w.max = max
	w.tail = tail
	w.clipped = false
	w.bytes = 0
	w.send = send
}

// last reports whether the datagram being filled is the last one allowed.
func (w *reply) last() bool { return w.frag+1 >= w.max }

// limit is how long the current datagram may grow before its queryid.
func (w *reply) limit(body bool) int {
	n := MaxReply - (len(`\queryid\`) + digits(uint64(w.id)) + 1 + digits(uint64(w.frag+1)))
	if body && w.last() {
		n -= w.tail
	}
	return n
}

// commit keeps what was appended at buf[start:], moving it into a fresh
// datagram if the current one would overflow, or dropping it (and clipping
// the reply) when no datagram is left for it.
func (w *reply) commit(start int, body bool) {
	if len(w.buf) <= w.limit(body) {
		return
	}
	if start == 0 || (body && w.last()) {
		w.buf = w.buf[:start]
		w.clipped = true
		return
	}
	w.spare = append(w.spare[:0], w.buf[start:]...)
	w.buf = w.buf[:start]
	w.flush()
	w.buf = append(w.buf, w.spare...)
	if len(w.buf) > w.limit(body) {
		// Cannot happen with values capped at MaxValueLen; kept so that a
		// future change cannot produce an oversized datagram.
		w.buf = w.buf[:0]
		w.clipped = true
	}
}

// flush sends the current datagram closed by its `\queryid\N.M`.
func (w *reply) flush() {
	if len(w.buf) == 0 {
		return
	}
	w.frag++
	w.buf = append(w.buf, `\queryid\`...)
	w.buf = strconv.AppendUint(w.buf, uint64(w.id), 10)
	w.buf = append(w.buf, '.')
	w.buf = strconv.AppendUint(w.buf, uint64(w.frag), 10)
	if w.send != nil {
		w.send(w.buf)
	}
	w.bytes += len(w.buf)
	w.buf = w.buf[:0]
}

// boundary ends a datagram early for the `packets` query, unless the next
// one would exceed the cap (then the sections share the last datagram).
func (w *reply) boundary() {
	if !w.last() {
		w.flush()
	}
}

// finish adds `\validate\` (if any) and `\final\` as one unit, so that
// they always travel together in the last datagram, and sends it.
func (w *reply) finish(tail []byte) {
	start := len(w.buf)
	w.buf = append(w.buf, tail...)
	w.commit(start, false)
	w.flush()
}

func (w *reply) key(k string) int {
	start := len(w.buf)
	w.buf = append(w.buf, '\\')
	w.buf = append(w.buf, k...)
	w.buf = append(w.buf, '\\')
	return start
}

func (w *reply) str(k, v string) {
	if w.clipped {
		return
	}
	start := w.key(k)
	w.buf = appendValue(w.buf, v, MaxValueLen)
	w.commit(start, true)
}

func (w *reply) raw(k string, v []byte) {
	if w.clipped {
		return
	}
	start := w.key(k)
	w.buf = append(w.buf, v[:min(len(v), MaxValueLen)]...)
	w.commit(start, true)
}

func (w *reply) num(k string, v int) {
	if w.clipped {
		return
	}
	start := w.key(k)
	w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	w.commit(start, true)
}

func (w *reply) basicSection(si *ServerInfo) {
	w.str("gamename", GameName)
	w.str("gamever", GameVersion)
	w.num("location", si.Location)
}

func (w *reply) infoSection(si *ServerInfo) {
	if !w.clipped {
		start := w.key("hostname")
		lim := MaxValueLen
		if si.Password {
			// Browsers mark password servers by this prefix (gamespy.md 2.1).
			w.buf = append(w.buf, '*')
			lim--
		}
		w.buf = appendValue(w.buf, si.Hostname, lim)
		w.commit(start, true)
	}
	w.str("missionscript", si.MissionScript)
	w.str("mapname", si.MapName)
	w.num("numplayers", si.NumPlayers)
	w.num("maxplayers", si.MaxPlayers)
	w.str("gamemode", si.GameMode)
}

func (w *reply) rulesSection(si *ServerInfo) {
	w.num("timelimit", si.TimeLimit)
	w.num("fraglimit", si.FragLimit)
	w.str("system", si.System)
	pw := 0
	if si.Password {
		pw = 1
	}
	w.num("password", pw)
}

func (w *reply) playersSection(si *ServerInfo, hostEntry string) {
	n := 0
	if hostEntry != "" {
		w.player(n, hostEntry)
		n++
	}
	for _, p := range si.Players {
		if w.clipped {
			return
		}
		w.player(n, p)
		n++
	}
}

func (w *reply) player(n int, name string) {
	if w.clipped {
		return
	}
	start := len(w.buf)
	w.buf = append(w.buf, `\player_`...)
	w.buf = strconv.AppendInt(w.buf, int64(n), 10)
	w.buf = append(w.buf, '\\')
	w.buf = appendValue(w.buf, name, MaxValueLen)
	w.commit(start, true)
}

// appendValue appends at most lim bytes of v, replacing the backslash that
// would end the value early with '/' and dropping NUL bytes.
func appendValue(dst []byte, v string, lim int) []byte {
	n := 0
	for i := 0; i < len(v) && n < lim; i++ {
		c := v[i]
		switch c {
		case 0:
			continue
		case '\\':
			c = '/'
		}
		dst = append(dst, c)
		n++
	}
	return dst
}

// digits is the length of v in decimal.
func digits(v uint64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
