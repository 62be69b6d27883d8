package net

import (
	"encoding/binary"
	"unicode/utf16"
)

// ConnectRequest is the payload of a client's type-0x03 connect request
// (transport.md 4.5): [ipv4:4][nonce:u32][password: UTF-16LE][00 00].
//
// Nothing in it is trusted: the address is what the client believes its
// own address to be (a private one behind NAT), and the password is only
// compared, never copied.
type ConnectRequest struct {
	// IP is the client's own idea of its IPv4 address; use the UDP source
	// address instead.
	IP [4]byte
	// Nonce is the client's random session number (1..32767 from a stock
	// client). A repeated connect with the same nonce is a retransmission;
	// a new nonce from the same address is a new session.
	Nonce uint32
	// Short is set when the payload holds less than the address and the
	// nonce. A stock client never sends that; a passworded host refuses it.
	Short bool
	// password aliases the payload from byte 8 on: UTF-16LE code units up
	// to a 0 unit or the end.
	password []byte
}

// ParseConnect decodes a connect-request payload. It accepts any payload,
// as the stock host does when it has no password: missing bytes read as
// zero and set Short. It never allocates; the result aliases payload.
func ParseConnect(payload []byte) ConnectRequest {
	var r ConnectRequest
	var head [8]byte
	n := copy(head[:], payload)
	r.Short = n < len(head)
	copy(r.IP[:], head[:4])
	r.Nonce = binary.LittleEndian.Uint32(head[4:])
	if !r.Short {
		r.password = payload[8:]
	}
	return r
}

// HasPassword reports whether the request carries a non-empty password.
func (r *ConnectRequest) HasPassword() bool {
	return len(r.password) >= 2 && (r.password[0] != 0 || r.password[1] != 0)
}

// PasswordMatches reports whether the request carries want, compared the
// way the stock host does: _wcsicmp in the C locale, which folds only the
// letters A..Z (transport.md 4.5). An empty want matches any request (a
// host without a password accepts everything); a request too short to hold
// a password carries none. It does not allocate.
func (r *ConnectRequest) PasswordMatches(want string) bool {
	if want == "" {
		return true
	}
	if r.Short {
		return false
	}
	p := r.password
	next := func() (uint16, bool) {
		if len(p) < 2 {
			return 0, false
		}
		u := binary.LittleEndian.Uint16(p)
		p = p[2:]
		if u == 0 {
			p = nil
			return 0, false
		}
		return u, true
	}
	var buf [2]uint16
	for _, c := range want {
		for _, w := range utf16.AppendRune(buf[:0], c) {
			u, ok := next()
			if !ok || foldUnit(u) != foldUnit(w) {
				return false
			}
		}
	}
	_, more := next()
	return !more
}

// foldUnit lower-cases A..Z and nothing else, like towlower in the C locale.
func foldUnit(u uint16) uint16 {
	if u >= 'A' && u <= 'Z' {
		return u + ('a' - 'A')
	}
	return u
}

// AppendConnect encodes a connect-request payload after b, as the stock
// client builds it (FUN_006b4560): address, nonce, the password in UTF-16LE
// and a 00 00 terminator.
func AppendConnect(b []byte, ip [4]byte, nonce uint32, password string) []byte {
	b = append(b, ip[:]...)
	b = binary.LittleEndian.AppendUint32(b, nonce)
	for _, u := range utf16.Encode([]rune(password)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return append(b, 0, 0)
}
