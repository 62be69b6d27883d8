package net

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// MaxNameUnits caps the UTF-16 code units of a player name in an identity
// message. Stock names are short; the cap keeps every relayed identity a
// small message and bounds what one peer can make the host send to all.
const MaxNameUnits = 64

// Identity is the payload of the type-0x00 identity message (transport.md
// 4.5): [peer_id:u8][ipv4:4][name: UTF-16LE][0x0000]. A client sends its
// own right after the connect reply and again after a rename; the host
// relays each one to every peer (10.2).
type Identity struct {
	PeerID byte
	IP     [4]byte
	Name   string
}

// ParseIdentity decodes an identity payload in the exact stock form: the
// name is terminated by one 0x0000 code unit that ends the payload, and has
// at most MaxNameUnits units. Anything else is refused, so what the host
// relays unchanged is always well-formed.
func ParseIdentity(b []byte) (Identity, error) {
	var id Identity
	if len(b) < 7 || (len(b)-5)%2 != 0 {
		return id, fmt.Errorf("identity of %d bytes: %w", len(b), ErrMalformed)
	}
	n := (len(b)-5)/2 - 1 // name units before the terminator
	if n > MaxNameUnits {
		return id, fmt.Errorf("identity name of %d units (max %d): %w", n, MaxNameUnits, ErrMalformed)
	}
	if b[len(b)-2] != 0 || b[len(b)-1] != 0 {
		return id, fmt.Errorf("identity name not terminated: %w", ErrMalformed)
	}
	id.PeerID = b[0]
	copy(id.IP[:], b[1:5])
	units := make([]uint16, n)
	for i := range units {
		u := binary.LittleEndian.Uint16(b[5+2*i:])
		if u == 0 {
			return id, fmt.Errorf("identity name with a NUL at unit %d: %w", i, ErrMalformed)
		}
		units[i] = u
	}
	id.Name = string(utf16.Decode(units))
	return id, nil
}

// AppendIdentity encodes an identity payload after b. A name longer than
// MaxNameUnits is cut (whole characters only).
func AppendIdentity(b []byte, id Identity) []byte {
	b = append(b, id.PeerID)
	b = append(b, id.IP[:]...)
	n := 0
	var buf [2]uint16
	for _, r := range id.Name {
		us := utf16.AppendRune(buf[:0], r)
		if n+len(us) > MaxNameUnits {
			break
		}
		for _, u := range us {
			b = binary.LittleEndian.AppendUint16(b, u)
		}
		n += len(us)
	}
	return append(b, 0, 0)
}

// TruncateName cuts name to at most units UTF-16 code units (whole
// characters), so a name built by the host still fits an identity message.
func TruncateName(name string, units int) string {
	n := 0
	for i, r := range name {
		k := utf16.RuneLen(r)
		if k < 0 {
			k = 1
		}
		if n+k > units {
			return name[:i]
		}
		n += k
	}
	return name
}
