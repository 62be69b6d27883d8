package net

import (
	"bytes"
	"slices"
	"time"
)

// reassembly collects the fragments of one game-channel message.
type reassembly struct {
	seq     uint16
	count   int // frag_count; 0 until fragment 0 has arrived
	have    int
	bytes   int
	maxIdx  int
	started time.Time
	// parts by frag_idx, grown to the highest index seen (a stock message
	// has a handful of fragments, not 256).
	parts [][]byte
}

// reassembler holds the fragmented messages in progress for one peer
// (transport.md 7.2). It bounds what a peer can make us hold: a fixed number
// of messages, a byte budget shared with the reorder buffer, a maximum
// message size, and an age limit.
type reassembler struct {
	cfg   *Config
	list  []*reassembly
	bytes int
}

func (ra *reassembler) init(cfg *Config) { ra.cfg = cfg }

func (ra *reassembler) find(seq uint16) (int, *reassembly) {
	for i, r := range ra.list {
		if r.seq == seq {
			return i, r
		}
	}
	return -1, nil
}

func (ra *reassembler) drop(i int, st *Stats) {
	ra.bytes -= ra.list[i].bytes
	ra.list = slices.Delete(ra.list, i, i+1)
	if st != nil {
		st.ReassemblyDrops++
	}
}

// add stores one fragment. ok is false when the fragment was refused (and
// must not be ACKed); done is true when the message is complete, and then
// payload holds it until release is called for its seq.
func (ra *reassembler) add(now time.Time, m *Message, st *Stats, budget int) (payload []byte, done, ok bool) {
	i, r := ra.find(m.Seq)
	if r == nil {
		if len(ra.list) >= ra.cfg.MaxReassemblies {
			st.ReassemblyDrops++
			return nil, false, false
		}
		r = &reassembly{seq: m.Seq, started: now}
		ra.list = append(ra.list, r)
		i = len(ra.list) - 1
	}
	idx := int(m.FragIdx)
	if idx == 0 {
		if r.count != 0 && r.count != int(m.FragCount) {
			ra.drop(i, st) // frag_count changed
			return nil, false, false
		}
		r.count = int(m.FragCount)
		if r.maxIdx >= r.count && r.have > 0 {
			ra.drop(i, st) // a fragment beyond the announced count arrived earlier
			return nil, false, false
		}
	} else if r.count != 0 && idx >= r.count {
		ra.drop(i, st)
		return nil, false, false
	}
	if idx >= len(r.parts) {
		r.parts = append(r.parts, make([][]byte, idx+1-len(r.parts))...)
	}
	if p := r.parts[idx]; p != nil {
		if !bytes.Equal(p, m.Payload) {
			ra.drop(i, st) // the same fragment with different bytes
			return nil, false, false
		}
		return nil, false, true // a retransmission: ACK it again
	}
	if r.bytes+len(m.Payload) > ra.cfg.MaxMessageSize || len(m.Payload) > budget-ra.bytes {
		ra.drop(i, st)
		return nil, false, false
	}
	// Never nil, even for an empty fragment: nil marks a part not received,
	// and a repeated empty fragment must not count again.
	r.parts[idx] = append(make([]byte, 0, len(m.Payload)), m.Payload...)
	r.have++
	r.bytes += len(m.Payload)
	ra.bytes += len(m.Payload)
	r.maxIdx = max(r.maxIdx, idx)
	if r.count == 0 || r.have < r.count {
		return nil, false, true
	}
	out := make([]byte, 0, r.bytes)
	for k := 0; k < r.count; k++ {
		out = append(out, r.parts[k]...)
	}
	return out, true, true
}

// release forgets a completed message.
func (ra *reassembler) release(seq uint16) {
	if i, r := ra.find(seq); r != nil {
		ra.bytes -= r.bytes
		ra.list = slices.Delete(ra.list, i, i+1)
	}
}

// expire drops messages that stayed incomplete too long.
func (ra *reassembler) expire(now time.Time, st *Stats) {
	for i := 0; i < len(ra.list); {
		if now.Sub(ra.list[i].started) >= ra.cfg.ReassemblyTTL {
			ra.drop(i, st)
			continue
		}
		i++
	}
}
