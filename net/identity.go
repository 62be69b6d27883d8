package net

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// maxNameUnits caps the UTF-16 code units taken from an identity message;
// stock names are short, and the cap keeps the echo inside one message.
const maxNameUnits = 64

// Identity is the payload of the type-0x00 identity message a client sends
// right after the connect reply (transport.md 4.5):
// [peer_id:u8][ipv4:4][name: UTF-16LE][0x0000].
type Identity struct {
	PeerID byte
	IP     [4]byte
	Name   string
}

// ParseIdentity decodes an identity payload. The name ends at the first NUL
// code unit or the end of the payload.
func ParseIdentity(b []byte) (Identity, error) {
	var id Identity
	if len(b) < 5 {
		return id, fmt.Errorf("identity of %d bytes: %w", len(b), ErrMalformed)
	}
	id.PeerID = b[0]
	copy(id.IP[:], b[1:5])
	units := make([]uint16, 0, min((len(b)-5)/2, maxNameUnits))
	for i := 5; i+1 < len(b) && len(units) < maxNameUnits; i += 2 {
		u := binary.LittleEndian.Uint16(b[i:])
		if u == 0 {
			break
		}
		units = append(units, u)
	}
	id.Name = string(utf16.Decode(units))
	return id, nil
}

// AppendIdentity encodes an identity payload after b.
func AppendIdentity(b []byte, id Identity) []byte {
	b = append(b, id.PeerID)
	b = append(b, id.IP[:]...)
	n := 0
	for _, u := range utf16.Encode([]rune(id.Name)) {
		if n == maxNameUnits {
			break
		}
		b = binary.LittleEndian.AppendUint16(b, u)
		n++
	}
	return append(b, 0, 0)
}
