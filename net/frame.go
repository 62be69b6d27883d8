package net

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Transport message types (transport.md 4).
const (
	TypeData       byte = 0x00 // control data; in practice the peer identity message
	TypeAck        byte = 0x01
	TypeKeepalive  byte = 0x02 // idle keepalive: the single byte 02, unreliable (transport.md 10.3)
	TypeConnect    byte = 0x03 // connect request (C->S) and reply (S->C)
	TypeBoot       byte = 0x04
	TypeDisconnect byte = 0x05
	TypeGame       byte = 0x32 // every game-layer payload
)

// Wire limits (transport.md 1, 7.1).
const (
	MaxDatagram    = 512 // the stock engine never builds a larger datagram
	MaxMessages    = 255 // msg_count is a u8 and the stock sender stops at 255
	FragmentBudget = 412 // total_len above which a game message is fragmented
	HeaderSize     = 2   // peer id + msg_count

	// PeerUnassigned is byte 0 of a datagram whose sender has no id yet.
	PeerUnassigned byte = 0xFF
	// PeerHost is the host's peer id.
	PeerHost byte = 0x01
)

// flags_len bits (transport.md 4.1).
const (
	flagReliable = 0x8000
	flagPriority = 0x4000
	flagFragment = 0x2000
	lenMaskGame  = 0x1FFF
	lenMaskLow   = 0x3FFF
)

// ACK flag bits (transport.md 4.4).
const (
	ackFragment = 0x01
	ackLow      = 0x02
)

// Errors returned by the parser; all malformed-input errors wrap ErrMalformed.
var (
	ErrMalformed   = errors.New("malformed datagram")
	ErrUnknownType = fmt.Errorf("unknown transport type: %w", ErrMalformed)
)

// Message is one transport message. For ACKs, Seq is the acknowledged
// sequence number, Low says it acknowledges a low-channel message and
// Fragment/FragIdx name an acknowledged fragment. Payload aliases the
// datagram it was parsed from.
type Message struct {
	Type      byte
	Reliable  bool
	Priority  bool
	Fragment  bool
	HasSeq    bool // a seq field is present (reliable, or any low type with flags_len != 0)
	Low       bool // ACK only: the acknowledged message had type < 0x32
	Seq       uint16
	FragIdx   byte
	FragCount byte // fragment 0 only
	Payload   []byte
}

// IsLowChannel reports whether a message of type t travels on the low
// (control) channel rather than the game channel.
func IsLowChannel(t byte) bool { return t < TypeGame }

// channel returns 0 for the low channel and 1 for the game channel.
func channel(t byte) int {
	if IsLowChannel(t) {
		return chLow
	}
	return chGame
}

const (
	chLow  = 0
	chGame = 1
)

// EncodedLen returns the number of bytes AppendMessage writes for m.
func EncodedLen(m *Message) int {
	switch {
	case m.Type == TypeAck:
		if m.Fragment {
			return 5
		}
		return 4
	case m.Type == TypeKeepalive:
		return 1
	case m.Type == TypeGame:
		n := 3 + len(m.Payload)
		if m.Reliable {
			n += 2
		}
		if m.Fragment {
			n++
			if m.FragIdx == 0 {
				n++
			}
		}
		return n
	default:
		if !m.HasSeq && !m.Reliable && len(m.Payload) == 0 {
			return 3
		}
		return 5 + len(m.Payload)
	}
}

// AppendMessage encodes m after b. The caller keeps sizes within the wire
// limits; AppendMessage does not fragment.
func AppendMessage(b []byte, m *Message) []byte {
	if m.Type == TypeAck {
		var fl byte
		if m.Fragment {
			fl |= ackFragment
		}
		if m.Low {
			fl |= ackLow
		}
		b = append(b, TypeAck, byte(m.Seq), byte(m.Seq>>8), fl)
		if m.Fragment {
			b = append(b, m.FragIdx)
		}
		return b
	}
	if m.Type == TypeKeepalive {
		return append(b, TypeKeepalive)
	}
	n := EncodedLen(m)
	var fl uint16
	if m.Reliable {
		fl |= flagReliable
	}
	if m.Priority {
		fl |= flagPriority
	}
	if m.Type == TypeGame && m.Fragment {
		fl |= flagFragment
	}
	if n == 3 && m.Type != TypeGame {
		// The bare 3-byte low-channel form: flags_len 0, no seq.
		return append(b, m.Type, 0, 0)
	}
	b = append(b, m.Type)
	b = binary.LittleEndian.AppendUint16(b, fl|uint16(n))
	if m.Type != TypeGame || m.Reliable {
		b = binary.LittleEndian.AppendUint16(b, m.Seq)
	}
	if m.Type == TypeGame && m.Fragment {
		b = append(b, m.FragIdx)
		if m.FragIdx == 0 {
			b = append(b, m.FragCount)
		}
	}
	return append(b, m.Payload...)
}

// ParseMessage decodes the transport message at the start of b and returns
// it with its encoded length. It checks every length against the bytes that
// are left (transport.md 4.6) and never reads past b.
func ParseMessage(b []byte) (Message, int, error) {
	var m Message
	if len(b) < 1 {
		return m, 0, fmt.Errorf("empty message: %w", ErrMalformed)
	}
	m.Type = b[0]
	switch m.Type {
	case TypeAck:
		if len(b) < 4 {
			return m, 0, fmt.Errorf("ack: %d bytes left: %w", len(b), ErrMalformed)
		}
		m.Seq = binary.LittleEndian.Uint16(b[1:])
		fl := b[3]
		if fl&^(ackFragment|ackLow) != 0 {
			return m, 0, fmt.Errorf("ack flags 0x%02X: %w", fl, ErrMalformed)
		}
		m.Low = fl&ackLow != 0
		if fl&ackFragment != 0 {
			if len(b) < 5 {
				return m, 0, fmt.Errorf("fragment ack: %d bytes left: %w", len(b), ErrMalformed)
			}
			m.Fragment = true
			m.FragIdx = b[4]
			return m, 5, nil
		}
		return m, 4, nil
	case TypeGame:
		if len(b) < 3 {
			return m, 0, fmt.Errorf("game message header: %w", ErrMalformed)
		}
		fl := binary.LittleEndian.Uint16(b[1:])
		total := int(fl & lenMaskGame)
		m.Reliable = fl&flagReliable != 0
		m.Priority = fl&flagPriority != 0
		m.Fragment = fl&flagFragment != 0
		hdr := 3
		if m.Reliable {
			hdr = 5
		}
		if m.Fragment {
			if !m.Reliable {
				return m, 0, fmt.Errorf("unreliable fragment: %w", ErrMalformed)
			}
			hdr = 6
			if len(b) >= 6 && b[5] == 0 {
				hdr = 7
			}
		}
		if total < hdr || total > len(b) {
			return m, 0, fmt.Errorf("game message total_len %d (header %d, %d bytes left): %w", total, hdr, len(b), ErrMalformed)
		}
		if m.Reliable {
			m.HasSeq = true
			m.Seq = binary.LittleEndian.Uint16(b[3:])
		}
		if m.Fragment {
			m.FragIdx = b[5]
			if m.FragIdx == 0 {
				m.FragCount = b[6]
				if m.FragCount == 0 {
					return m, 0, fmt.Errorf("fragment count 0: %w", ErrMalformed)
				}
			}
		}
		m.Payload = b[hdr:total:total]
		return m, total, nil
	case TypeKeepalive:
		// One byte: no flags_len, no seq, never reliable (transport.md 4.1).
		return m, 1, nil
	case TypeData, TypeConnect, TypeBoot, TypeDisconnect:
		if len(b) < 3 {
			return m, 0, fmt.Errorf("control message header: %w", ErrMalformed)
		}
		fl := binary.LittleEndian.Uint16(b[1:])
		if fl == 0 {
			// The stock factories read no seq when flags_len is 0 and take the
			// payload as total_len-3 = 0 (transport.md 4.3).
			return m, 3, nil
		}
		total := int(fl & lenMaskLow)
		m.Reliable = fl&flagReliable != 0
		m.Priority = fl&flagPriority != 0
		if total < 5 || total > len(b) {
			return m, 0, fmt.Errorf("control message total_len %d (%d bytes left): %w", total, len(b), ErrMalformed)
		}
		m.HasSeq = true
		m.Seq = binary.LittleEndian.Uint16(b[3:])
		m.Payload = b[5:total:total]
		return m, total, nil
	default:
		return m, 0, fmt.Errorf("type 0x%02X: %w", m.Type, ErrUnknownType)
	}
}

// ParseDatagram decodes a whole (decrypted) datagram, appending its
// messages to msgs. On a malformed message it stops and returns the
// messages parsed so far together with the error (transport.md 4.6).
func ParseDatagram(b []byte, msgs []Message) (peerID byte, out []Message, err error) {
	if len(b) < HeaderSize {
		return 0, msgs, fmt.Errorf("datagram of %d bytes: %w", len(b), ErrMalformed)
	}
	peerID = b[0]
	count := int(b[1])
	rest := b[HeaderSize:]
	for i := 0; i < count; i++ {
		m, n, err := ParseMessage(rest)
		if err != nil {
			return peerID, msgs, fmt.Errorf("message %d of %d: %w", i+1, count, err)
		}
		msgs = append(msgs, m)
		rest = rest[n:]
	}
	if len(rest) != 0 {
		return peerID, msgs, fmt.Errorf("%d bytes after %d messages: %w", len(rest), count, ErrMalformed)
	}
	return peerID, msgs, nil
}
