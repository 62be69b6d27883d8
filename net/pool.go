package net

// Queued messages are the bulk of a peer's memory, and their sizes vary
// from a 3-byte keepalive to a 412-byte fragment. Instead of a full
// datagram-sized buffer per message kept on a per-peer free list (which
// made an idle peer cost over 100 kB), every Conn driven by one goroutine
// draws from one pool of size classes: a peer holds only what it has
// queued or in flight, and a burst's buffers serve the next peer.

// sizeClasses are the buffer capacities; the largest holds a whole
// datagram minus its header.
var sizeClasses = [...]int{32, 64, 128, 256, MaxDatagram - HeaderSize}

// maxPoolBytes bounds what a pool keeps for reuse of each size class;
// beyond it, freed messages go to the garbage collector, so a spike does
// not pin memory. The bound is per class so that buffers of a size nobody
// asks for any more (a join's large messages) cannot take the room of the
// small ones every tick reuses.
const maxPoolBytes = 16 << 10

// msgPool recycles outMsg values and their buffers. It is not safe for
// concurrent use: one per goroutine (a Host shares one among its peers).
type msgPool struct {
	free  [len(sizeClasses)][]*outMsg
	bytes [len(sizeClasses)]int
	// msgs is scratch for parsing datagrams, shared by the pool's Conns
	// (Receive is never re-entered on one goroutine).
	msgs []Message
}

func classFor(n int) int {
	for i, c := range sizeClasses {
		if n <= c {
			return i
		}
	}
	return -1
}

// get returns a cleared message whose data has room for n bytes.
func (p *msgPool) get(n int) *outMsg {
	k := classFor(n)
	if k < 0 {
		return &outMsg{class: -1, data: make([]byte, 0, n)}
	}
	if l := len(p.free[k]); l > 0 {
		m := p.free[k][l-1]
		p.free[k][l-1] = nil
		p.free[k] = p.free[k][:l-1]
		p.bytes[k] -= sizeClasses[k]
		return m
	}
	return &outMsg{class: int8(k), data: make([]byte, 0, sizeClasses[k])}
}

// put takes a message back.
func (p *msgPool) put(m *outMsg) {
	k := m.class
	if k < 0 || p.bytes[k]+sizeClasses[k] > maxPoolBytes {
		return
	}
	data := m.data[:0]
	*m = outMsg{class: k, data: data}
	p.free[k] = append(p.free[k], m)
	p.bytes[k] += sizeClasses[k]
}
