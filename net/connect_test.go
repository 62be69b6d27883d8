package net

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/bcserver/bcserver/internal/vectors"
)

// transportMessage returns the payload of the only message of a transport
// vector datagram.
func transportMessage(t testing.TB, name string) Message {
	t.Helper()
	d := vectors.MustNamed(t, "transport.json", name)
	if m, n, err := ParseMessage(d); err == nil && n == len(d) {
		return m // a lone message, not a datagram
	}
	_, ms, err := ParseDatagram(d, nil)
	if err != nil || len(ms) != 1 {
		t.Fatalf("%s: %d messages, %v", name, len(ms), err)
	}
	return ms[0]
}

func TestParseConnectVectors(t *testing.T) {
	for _, tc := range []struct {
		vector   string
		password string
	}{
		{"client_connect_request", ""},
		{"client_connect_request_with_password", "abc"},
	} {
		m := transportMessage(t, tc.vector)
		r := ParseConnect(m.Payload)
		if r.Short || r.IP != [4]byte{10, 10, 10, 239} || r.Nonce != 0x0A5F || r.HasPassword() != (tc.password != "") {
			t.Errorf("%s: %+v", tc.vector, r)
		}
		if !r.PasswordMatches(tc.password) {
			t.Errorf("%s: password %q does not match", tc.vector, tc.password)
		}
		if got := AppendConnect(nil, r.IP, r.Nonce, tc.password); !bytes.Equal(got, m.Payload) {
			t.Errorf("%s: AppendConnect %X, want %X", tc.vector, got, m.Payload)
		}
	}
}

func TestPasswordMatches(t *testing.T) {
	payload := func(pw string) []byte { return AppendConnect(nil, [4]byte{1, 2, 3, 4}, 7, pw) }
	for _, tc := range []struct {
		name    string
		payload []byte
		host    string
		want    bool
	}{
		{"no host password, anything goes", []byte{1}, "", true},
		{"no host password, a password sent", payload("x"), "", true},
		{"exact", payload("secret"), "secret", true},
		{"A..Z fold", payload("SeCrEt"), "sEcReT", true},
		{"non-ASCII letters are not folded", payload("ÄBC"), "äbc", false},
		{"non-ASCII exact", payload("Ärger€"), "Ärger€", true},
		{"astral plane", payload("x\U0001F680"), "x\U0001F680", true},
		{"wrong", payload("secreT1"), "secret", false},
		{"prefix", payload("sec"), "secret", false},
		{"longer", payload("secrets"), "secret", false},
		{"empty sent", payload(""), "secret", false},
		{"payload shorter than 5 bytes", []byte{1, 2, 3, 4}, "secret", false},
		{"address and nonce only", []byte{1, 2, 3, 4, 5, 6, 7, 8}, "secret", false},
		{"no terminator", payload("secret")[:20], "secret", true},
		{"odd trailing byte", append(payload("secret")[:20], 's'), "secret", true},
		{"bytes after the terminator", append(payload("secret"), 'x', 0), "secret", true},
	} {
		r := ParseConnect(tc.payload)
		if got := r.PasswordMatches(tc.host); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}

func TestIdentityParse(t *testing.T) {
	relay := transportMessage(t, "identity_message_echoed_by_server")
	id, err := ParseIdentity(relay.Payload)
	if err != nil || id.PeerID != 2 || id.IP != [4]byte{10, 10, 10, 239} || id.Name != "Cady2" {
		t.Fatalf("%+v %v", id, err)
	}
	if got := AppendIdentity(nil, id); !bytes.Equal(got, relay.Payload) {
		t.Fatalf("AppendIdentity %X", got)
	}
	long := strings.Repeat("x", MaxNameUnits)
	for _, tc := range []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"empty name", []byte{2, 1, 2, 3, 4, 0, 0}, true},
		{"longest name", AppendIdentity(nil, Identity{PeerID: 2, Name: long}), true},
		{"too short", []byte{2, 1, 2, 3, 4, 0}, false},
		{"odd length", []byte{2, 1, 2, 3, 4, 'a', 0, 0}, false},
		{"no terminator", []byte{2, 1, 2, 3, 4, 'a', 0}, false},
		{"NUL inside", []byte{2, 1, 2, 3, 4, 0, 0, 'a', 0, 0, 0}, false},
		{"name too long", append(append([]byte{2, 1, 2, 3, 4}, bytes.Repeat([]byte{'x', 0}, MaxNameUnits+1)...), 0, 0), false},
	} {
		_, err := ParseIdentity(tc.b)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.name, err)
		}
	}
	// Names are cut to whole characters that fit.
	b := AppendIdentity(nil, Identity{Name: strings.Repeat("\U0001F680", 40)})
	if id, err := ParseIdentity(b); err != nil || len(utf16.Encode([]rune(id.Name))) != 64 {
		t.Fatalf("cut name: %v %q", err, id.Name)
	}
	if got := TruncateName("abc\U0001F680", 4); got != "abc" {
		t.Fatalf("TruncateName %q", got)
	}
}

// FuzzParseConnect: any payload parses without panic or allocation, and a
// password the parser accepts matches itself re-encoded.
func FuzzParseConnect(f *testing.F) {
	f.Add(transportMessage(f, "client_connect_request").Payload, "")
	f.Add(transportMessage(f, "client_connect_request_with_password").Payload, "ABC")
	f.Add([]byte{1, 2, 3}, "x")
	f.Add(AppendConnect(nil, [4]byte{}, 1, "\U0001F680é"), "\U0001F680É")
	f.Fuzz(func(t *testing.T, payload []byte, host string) {
		r := ParseConnect(payload)
		_ = r.PasswordMatches(host)
		_ = r.HasPassword()
		if r.Short != (len(payload) < 8) {
			t.Fatalf("short %v for %d bytes", r.Short, len(payload))
		}
		if !r.Short {
			var units []uint16
			for i := 8; i+1 < len(payload); i += 2 {
				u := binary.LittleEndian.Uint16(payload[i:])
				if u == 0 {
					break
				}
				units = append(units, u)
			}
			pw := string(utf16.Decode(units))
			// U+FFFD stands for a lone surrogate, which does not re-encode
			// to the same units.
			if !strings.ContainsRune(pw, '\uFFFD') && !r.PasswordMatches(pw) {
				t.Fatalf("password %q does not match itself", pw)
			}
		}
		if n := testing.AllocsPerRun(1, func() { rr := ParseConnect(payload); _ = rr.PasswordMatches(host) }); n != 0 {
			t.Fatalf("%v allocations", n)
		}
	})
}

// FuzzParseIdentity: no panic; an accepted identity re-encodes to a
// payload that parses to the same identity, within the name cap.
func FuzzParseIdentity(f *testing.F) {
	f.Add(transportMessage(f, "identity_message_echoed_by_server").Payload)
	f.Add([]byte{2, 1, 2, 3, 4, 0, 0})
	f.Add([]byte{2, 1, 2, 3, 4, 0x3D, 0xD8, 0, 0}) // a lone surrogate
	f.Fuzz(func(t *testing.T, b []byte) {
		id, err := ParseIdentity(b)
		if err != nil {
			return
		}
		if len(b) > 5+2*(MaxNameUnits+1) {
			t.Fatalf("accepted %d bytes", len(b))
		}
		again, err := ParseIdentity(AppendIdentity(nil, id))
		if err != nil || again != id {
			t.Fatalf("round trip %+v -> %+v (%v)", id, again, err)
		}
	})
}
