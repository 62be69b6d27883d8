package net

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
	"github.com/bcserver/bcserver/net/alby"
)

type transportVector struct {
	Name       string `json:"name"`
	PlainHex   string `json:"plain_hex"`
	Scope      string `json:"scope"`
	FullLength int    `json:"full_length"`
	Decoded    struct {
		PeerID   *int `json:"peer_id"`
		MsgCount int  `json:"msg_count"`
		Messages []struct {
			Type          string `json:"type"`
			FlagsLen      string `json:"flags_len"`
			Reliable      bool   `json:"reliable"`
			Ordered       bool   `json:"ordered"`
			Fragment      bool   `json:"fragment"`
			TotalLen      int    `json:"total_len"`
			Length        int    `json:"length"` // keepalive: the whole message
			Seq           int    `json:"seq"`
			FragIdx       *int   `json:"frag_idx"`
			FragCount     *int   `json:"frag_count"`
			PayloadHex    string `json:"payload_hex"`
			PayloadPrefix string `json:"payload_hex_prefix"`
			Flags         string `json:"flags"`
			AcksFragment  bool   `json:"acks_fragment"`
			AcksLowType   bool   `json:"acks_low_type"`
		} `json:"messages"`
	} `json:"decoded"`
}

func hexNum(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 32)
	if err != nil {
		t.Fatalf("bad hex number %q", s)
	}
	return int(v)
}

// Every decoded example of vectors/transport.json parses to the documented
// messages and re-encodes to the same bytes.
func TestTransportVectors(t *testing.T) {
	var vecs []transportVector
	vectors.MustLoad(t, "transport.json", &vecs)
	if len(vecs) < 17 {
		t.Fatalf("%d vectors", len(vecs))
	}
	for _, v := range vecs {
		t.Run(v.Name, func(t *testing.T) {
			raw := vectors.MustHex(t, v.PlainHex)
			var msgs []Message
			var err error
			switch v.Scope {
			case "message":
				m, n, err := ParseMessage(raw)
				if err != nil || n != len(raw) {
					t.Fatalf("ParseMessage: n=%d err=%v", n, err)
				}
				msgs = []Message{m}
			case "packet_prefix":
				// Only a prefix was published: pad to the documented length
				// so the header parses, then check the known fields.
				padded := append(bytes.Clone(raw), make([]byte, v.FullLength-len(raw))...)
				var id byte
				id, msgs, err = ParseDatagram(padded, nil)
				if err != nil {
					t.Fatalf("ParseDatagram: %v", err)
				}
				if int(id) != *v.Decoded.PeerID {
					t.Errorf("peer id %d", id)
				}
			default:
				var id byte
				id, msgs, err = ParseDatagram(raw, nil)
				if err != nil {
					t.Fatalf("ParseDatagram: %v", err)
				}
				if int(id) != *v.Decoded.PeerID || int(raw[1]) != v.Decoded.MsgCount {
					t.Errorf("header %d/%d", id, raw[1])
				}
			}
			if len(msgs) != len(v.Decoded.Messages) {
				t.Fatalf("%d messages, want %d", len(msgs), len(v.Decoded.Messages))
			}
			var re []byte
			if v.Scope != "message" {
				re = append(re, raw[0], raw[1])
			}
			for i, want := range v.Decoded.Messages {
				m := msgs[i]
				if int(m.Type) != hexNum(t, want.Type) {
					t.Errorf("msg %d type 0x%02X want %s", i, m.Type, want.Type)
				}
				if int(m.Seq) != want.Seq {
					t.Errorf("msg %d seq %d want %d", i, m.Seq, want.Seq)
				}
				if m.Type == TypeKeepalive {
					if want.Length != 1 || EncodedLen(&m) != 1 || m.HasSeq || m.Reliable {
						t.Errorf("keepalive %d: %+v", i, m)
					}
				} else if m.Type == TypeAck {
					fl := hexNum(t, want.Flags)
					if m.Fragment != want.AcksFragment || m.Low != want.AcksLowType || (fl&1 != 0) != m.Fragment || (fl&2 != 0) != m.Low {
						t.Errorf("ack %d flags: frag=%v low=%v want %s", i, m.Fragment, m.Low, want.Flags)
					}
					if want.FragIdx != nil && int(m.FragIdx) != *want.FragIdx {
						t.Errorf("ack %d frag_idx %d", i, m.FragIdx)
					}
				} else {
					fl := hexNum(t, want.FlagsLen)
					if m.Reliable != want.Reliable || m.Priority != want.Ordered || m.Fragment != want.Fragment {
						t.Errorf("msg %d flags rel=%v pri=%v frag=%v, want %s", i, m.Reliable, m.Priority, m.Fragment, want.FlagsLen)
					}
					if n := EncodedLen(&m); n != want.TotalLen || n != fl&0x1FFF {
						t.Errorf("msg %d total_len %d want %d", i, n, want.TotalLen)
					}
					if want.FragIdx != nil && int(m.FragIdx) != *want.FragIdx {
						t.Errorf("msg %d frag_idx %d", i, m.FragIdx)
					}
					if want.FragCount != nil && int(m.FragCount) != *want.FragCount {
						t.Errorf("msg %d frag_count %d", i, m.FragCount)
					}
					if want.PayloadHex != "" && !bytes.Equal(m.Payload, vectors.MustHex(t, want.PayloadHex)) {
						t.Errorf("msg %d payload %X", i, m.Payload)
					}
					if want.PayloadPrefix != "" && !bytes.HasPrefix(m.Payload, vectors.MustHex(t, want.PayloadPrefix)) {
						t.Errorf("msg %d payload prefix %X", i, m.Payload[:8])
					}
				}
				re = AppendMessage(re, &m)
			}
			if v.Scope == "packet_prefix" {
				re = re[:len(raw)]
			}
			if !bytes.Equal(re, raw) {
				t.Errorf("re-encoded:\n got %X\nwant %X", re, raw)
			}
		})
	}
}

// Truncating a datagram anywhere inside a message is an error, never a panic.
func TestParseTruncation(t *testing.T) {
	var vecs []transportVector
	vectors.MustLoad(t, "transport.json", &vecs)
	for _, v := range vecs {
		if v.Scope != "packet" {
			continue
		}
		raw := vectors.MustHex(t, v.PlainHex)
		for n := 0; n < len(raw); n++ {
			_, msgs, err := ParseDatagram(raw[:n], nil)
			if err == nil {
				t.Fatalf("%s truncated to %d parsed (%d msgs)", v.Name, n, len(msgs))
			}
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s: error %v does not wrap ErrMalformed", v.Name, err)
			}
		}
	}
}

func TestParseRules(t *testing.T) {
	tests := []struct {
		name    string
		hex     string
		msgs    int
		wantErr bool
	}{
		{"empty header", "0100", 0, false},
		{"one byte", "01", 0, true},
		{"unknown type stops parsing", "0102 01000000 7700", 1, true},
		{"trailing garbage", "0101 01000000 00", 1, true},
		{"unreliable fragment", "0101 320620 000102", 0, true},
		{"fragment count zero", "0101 3208A0000000 00 00", 0, true},
		{"game total_len below header", "0101 320480 0000", 0, true},
		{"game total_len past end", "0101 321080 0000", 0, true},
		{"control flags_len zero", "0101 030000", 1, false},
		{"control total_len below 5", "0101 0304C0 00", 0, true},
		{"ack with unknown flag bits", "0101 01000004", 0, true},
		{"fragment ack missing index", "0101 01000001", 0, true},
		{"unreliable game", "0101 3204001C", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := hex.DecodeString(strings.ReplaceAll(tt.hex, " ", ""))
			_, msgs, err := ParseDatagram(b, nil)
			if (err != nil) != tt.wantErr || len(msgs) != tt.msgs {
				t.Fatalf("err=%v msgs=%d", err, len(msgs))
			}
		})
	}
}

func FuzzParseDatagram(f *testing.F) {
	var vecs []transportVector
	if err := vectors.Load("transport.json", &vecs); err != nil {
		f.Fatal(err)
	}
	for _, v := range vecs {
		f.Add(vectors.MustHex(f, v.PlainHex))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, msgs, err := ParseDatagram(b, nil)
		// Whatever parsed must re-encode to exactly the bytes it came from.
		re := []byte{}
		if len(b) >= 2 {
			re = append(re, b[0], b[1])
		}
		for i := range msgs {
			m := msgs[i]
			if m.Type != TypeAck && m.Type != TypeGame && m.Type != TypeKeepalive && !m.HasSeq {
				re = append(re, m.Type, 0, 0)
				continue
			}
			if n := EncodedLen(&m); n > len(b) {
				t.Fatalf("message longer than datagram")
			}
			re = AppendMessage(re, &m)
		}
		if err == nil && !bytes.Equal(re, b) {
			// Low-channel messages may have lost their original flag bits
			// (an unreliable low message with a seq); compare lengths then.
			if len(re) != len(b) {
				t.Fatalf("re-encode length %d != %d", len(re), len(b))
			}
		}
	})
}

func BenchmarkParseDecrypt(b *testing.B) {
	var vecs []transportVector
	if err := vectors.Load("transport.json", &vecs); err != nil {
		b.Fatal(err)
	}
	var raw []byte
	for _, v := range vecs {
		if v.Name == "server_checksum_complete_settings_gameinit_bundle" {
			raw = vectors.MustHex(b, v.PlainHex)
		}
	}
	enc := bytes.Clone(raw)
	alby.Encrypt(enc)
	buf := make([]byte, len(enc))
	msgs := make([]Message, 0, 16)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, enc)
		alby.Decrypt(buf)
		var err error
		_, msgs, err = ParseDatagram(buf, msgs[:0])
		if err != nil || len(msgs) != 3 {
			b.Fatal(err)
		}
	}
}
