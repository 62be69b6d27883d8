package codec_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

// cksumSessionVector returns the game payload of the named session.json entry.
func cksumSessionVector(t testing.TB, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "session.json", name)
}

// cksumTransportPayloads returns every checksum game payload (opcode 0x20 or
// 0x21) carried whole or as a documented prefix in transport.json, by
// vector name.
func cksumTransportPayloads(t testing.TB) map[string][]byte {
	t.Helper()
	var vs []struct {
		Name    string `json:"name"`
		Decoded struct {
			Messages []struct {
				PayloadHex       string `json:"payload_hex"`
				PayloadHexPrefix string `json:"payload_hex_prefix"`
				GameOpcode       string `json:"game_opcode"`
			} `json:"messages"`
		} `json:"decoded"`
	}
	vectors.MustLoad(t, "transport.json", &vs)
	out := map[string][]byte{}
	for _, v := range vs {
		for _, m := range v.Decoded.Messages {
			if m.GameOpcode != "0x20" && m.GameOpcode != "0x21" {
				continue
			}
			h := m.PayloadHex
			if h == "" {
				h = m.PayloadHexPrefix
			}
			out[v.Name] = vectors.MustHex(t, h)
		}
	}
	return out
}

var cksumRequestCases = []struct {
	vector string
	want   codec.ChecksumRequest
}{
	{"checksum_req_round0", codec.ChecksumRequest{Round: 0, Dir: "scripts/", Filter: "App.pyc"}},
	{"checksum_req_round1", codec.ChecksumRequest{Round: 1, Dir: "scripts/", Filter: "Autoexec.pyc"}},
	{"checksum_req_round2", codec.ChecksumRequest{Round: 2, Dir: "scripts/ships", Filter: "*.pyc", Recursive: true}},
	{"checksum_req_round3", codec.ChecksumRequest{Round: 3, Dir: "scripts/mainmenu", Filter: "*.pyc"}},
	{"checksum_req_round_ff", codec.ChecksumRequest{Round: 0xFF, Dir: "Scripts/Multiplayer", Filter: "*.pyc", Recursive: true}},
}

func TestChecksumRequestVectors(t *testing.T) {
	for _, tc := range cksumRequestCases {
		t.Run(tc.vector, func(t *testing.T) {
			wire := cksumSessionVector(t, tc.vector)
			if got := tc.want.AppendTo(nil); !bytes.Equal(got, wire) {
				t.Errorf("encode: got %X want %X", got, wire)
			}
			got, err := codec.DecodeChecksumRequest(wire)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got != tc.want {
				t.Errorf("decode: got %+v want %+v", got, tc.want)
			}
			// AppendTo appends; it must not touch what is already there.
			pre := []byte{0xAA, 0xBB}
			if out := tc.want.AppendTo(pre); !bytes.Equal(out[:2], pre) || !bytes.Equal(out[2:], wire) {
				t.Errorf("append after prefix: %X", out)
			}
		})
	}
}

var cksumResponseCases = []struct {
	vector string
	want   codec.ChecksumResponse
}{
	{"checksum_resp_round0", codec.ChecksumResponse{
		Round: 0, RefHash: 0x7E0CE243, DirHash: 0x4DAFCB2F,
		Tree: codec.ChecksumTree{Files: []codec.FileEntry{{NameHash: 0x373EB677, ContentHash: 0xF8A0A768}}},
	}},
	{"checksum_resp_round1", codec.ChecksumResponse{
		Round: 1, DirHash: 0x4DAFCB2F,
		Tree: codec.ChecksumTree{Files: []codec.FileEntry{{NameHash: 0x8501E6A1, ContentHash: 0x17930049}}},
	}},
	{"checksum_resp_round3", codec.ChecksumResponse{
		Round: 3, DirHash: 0x3409475D,
		Tree: codec.ChecksumTree{Files: []codec.FileEntry{
			{NameHash: 0x5846668B, ContentHash: 0x8909747C}, // CardSpecificSetup.pyc
			{NameHash: 0x4370D29D, ContentHash: 0xB858BBC1}, // KeyboardConfig.pyc
			{NameHash: 0xE9DD9FA2, ContentHash: 0x2C8CD0AD}, // __init__.pyc
			{NameHash: 0xB54D1D23, ContentHash: 0x2DB130A7}, // mainmenu.pyc
		}},
	}},
}

func TestChecksumResponseVectors(t *testing.T) {
	for _, tc := range cksumResponseCases {
		t.Run(tc.vector, func(t *testing.T) {
			wire := cksumSessionVector(t, tc.vector)
			got, err := codec.DecodeChecksumResponse(wire)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("decode: got %+v want %+v", got, tc.want)
			}
			enc, err := got.AppendTo(nil)
			if err != nil || !bytes.Equal(enc, wire) {
				t.Errorf("re-encode: got %X (%v) want %X", enc, err, wire)
			}
		})
	}
}

// The same payloads inside transport.json's datagrams must agree with
// session.json and decode the same way (or, for the prefixes, fail the same
// way).
func TestChecksumTransportPayloads(t *testing.T) {
	payloads := cksumTransportPayloads(t)
	if len(payloads) < 10 {
		t.Fatalf("found %d checksum payloads in transport.json, want 10", len(payloads))
	}
	for name, p := range payloads {
		var err error
		switch p[0] {
		case codec.ChecksumRequestOpcode:
			var q codec.ChecksumRequest
			if q, err = codec.DecodeChecksumRequest(p); err == nil && !bytes.Equal(q.AppendTo(nil), p) {
				t.Errorf("%s: request does not re-encode", name)
			}
		case codec.ChecksumResponseOpcode:
			var r codec.ChecksumResponse
			if r, err = codec.DecodeChecksumResponse(p); err == nil {
				if enc, _ := r.AppendTo(nil); !bytes.Equal(enc, p) {
					t.Errorf("%s: response does not re-encode", name)
				}
			}
		}
		truncated := strings.Contains(name, "fragment0") || strings.Contains(name, "final_round_unfragmented")
		if truncated != (err != nil) {
			t.Errorf("%s: err = %v, documented prefix = %v", name, err, truncated)
		}
		if err != nil && !errors.Is(err, codec.ErrShort) {
			t.Errorf("%s: prefix error %v does not wrap ErrShort", name, err)
		}
	}
}

// The published round-2 and round-0xFF responses are only prefixes
// (session.json): their header fields decode, then the tree is truncated.
func TestChecksumResponsePrefixes(t *testing.T) {
	tests := []struct {
		vector  string
		round   uint8
		dirHash uint32
		errText string // the documented file count must show in the error
	}{
		{"checksum_resp_round2_first_fragment_prefix", 2, 0xC017D1C4, "file count 51 "},
		{"checksum_resp_round_ff_prefix", 0xFF, 0x8794D13F, "file count 9 "},
	}
	for _, tc := range tests {
		t.Run(tc.vector, func(t *testing.T) {
			wire := cksumSessionVector(t, tc.vector)
			got, err := codec.DecodeChecksumResponse(wire)
			if !errors.Is(err, codec.ErrShort) {
				t.Fatalf("err = %v, want a truncation error", err)
			}
			if !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("error %q does not mention %q", err, tc.errText)
			}
			if got.Round != tc.round || got.DirHash != tc.dirHash || got.RefHash != 0 {
				t.Errorf("header: got round %#x dir %#08x ref %#08x", got.Round, got.DirHash, got.RefHash)
			}
			if got.Tree.Files != nil || got.Tree.Subdirs != nil {
				t.Errorf("partial tree returned: %+v", got.Tree)
			}
		})
	}
	// The documented first entries, read directly: the round-2 prefix holds
	// Akira.pyc's full entry, the 0xFF prefix the first name hash.
	r2 := cksumSessionVector(t, "checksum_resp_round2_first_fragment_prefix")
	rd := codec.NewReader(r2[8:])
	if n, c := rd.U32(), rd.U32(); n != 0x3EB23EBA || c != 0xCCD37170 {
		t.Errorf("round 2 first file: %#08x %#08x", n, c)
	}
	ff := cksumSessionVector(t, "checksum_resp_round_ff_prefix")
	rd = codec.NewReader(ff[8:])
	if n := rd.U32(); n != 0x2C11712D || rd.Err() != nil {
		t.Errorf("round 0xFF first name hash: %#08x %v", n, rd.Err())
	}
}

func cksumAllVectors(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, tc := range cksumRequestCases {
		out[tc.vector] = cksumSessionVector(t, tc.vector)
	}
	for _, tc := range cksumResponseCases {
		out[tc.vector] = cksumSessionVector(t, tc.vector)
	}
	out["fail_file"] = codec.ChecksumFail{Opcode: codec.ChecksumFailFileOpcode, File: "scripts/ships/Akira.pyc"}.AppendTo(nil)
	out["fail_version"] = codec.ChecksumFail{Opcode: codec.ChecksumFailVersionOpcode, File: "App.pyc"}.AppendTo(nil)
	return out
}

func cksumDecodeAny(p []byte) error {
	if len(p) == 0 {
		_, err := codec.DecodeChecksumResponse(p)
		return err
	}
	var err error
	switch p[0] {
	case codec.ChecksumRequestOpcode:
		_, err = codec.DecodeChecksumRequest(p)
	case codec.ChecksumResponseOpcode:
		_, err = codec.DecodeChecksumResponse(p)
	default:
		_, err = codec.DecodeChecksumFail(p)
	}
	return err
}

// Every proper prefix of every message must fail (never panic), and so
// must every message with a byte appended.
func TestChecksumTruncatedEverywhere(t *testing.T) {
	for name, wire := range cksumAllVectors(t) {
		if err := cksumDecodeAny(wire); err != nil {
			t.Errorf("%s: full message: %v", name, err)
		}
		for i := 0; i < len(wire); i++ {
			if err := cksumDecodeAny(wire[:i]); err == nil {
				t.Errorf("%s cut to %d bytes: decoded without error", name, i)
			}
		}
		long := append(append([]byte(nil), wire...), 0)
		if err := cksumDecodeAny(long); !errors.Is(err, codec.ErrChecksumMalformed) {
			t.Errorf("%s + trailing byte: err = %v", name, err)
		}
	}
	// Each decoder also rejects empty input and the other opcodes.
	if _, err := codec.DecodeChecksumRequest(nil); err == nil {
		t.Error("empty request decoded")
	}
	if _, err := codec.DecodeChecksumFail(nil); err == nil {
		t.Error("empty fail decoded")
	}
}

func TestChecksumFail(t *testing.T) {
	tests := []struct {
		name string
		msg  codec.ChecksumFail
		wire string
	}{
		{"file", codec.ChecksumFail{Opcode: 0x22, File: "App.pyc"}, "22 0700 4170702E707963"},
		{"version", codec.ChecksumFail{Opcode: 0x23, File: "App.pyc"}, "23 0700 4170702E707963"},
		{"empty name", codec.ChecksumFail{Opcode: 0x22}, "22 0000"},
		{"ansi bytes kept", codec.ChecksumFail{Opcode: 0x22, File: "\xe9t\xe9.pyc"}, "22 0700 E974E92E707963"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wire := vectors.MustHex(t, tc.wire)
			if got := tc.msg.AppendTo(nil); !bytes.Equal(got, wire) {
				t.Errorf("encode: %X want %X", got, wire)
			}
			got, err := codec.DecodeChecksumFail(wire)
			if err != nil || got != tc.msg {
				t.Errorf("decode: %+v, %v", got, err)
			}
		})
	}
	if _, err := codec.DecodeChecksumFail([]byte{0x21, 0, 0}); !errors.Is(err, codec.ErrChecksumMalformed) {
		t.Errorf("opcode 0x21 as fail: %v", err)
	}
}

func TestChecksumRequestMalformed(t *testing.T) {
	tests := []struct {
		name string
		wire string
		want error
	}{
		{"wrong opcode", "21 00 0000 0000 20", codec.ErrChecksumMalformed},
		{"two bits in flag byte", "20 02 0000 0000 41", codec.ErrChecksumMalformed},
		{"count zero flag byte", "20 02 0000 0000 01", codec.ErrBadBits},
		{"dir longer than payload", "20 02 0500 6162", codec.ErrShort},
		{"trailing byte", "20 02 0000 0000 21 00", codec.ErrChecksumMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := codec.DecodeChecksumRequest(vectors.MustHex(t, tc.wire))
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

// Hostile counts and depths fail cleanly; the legal extremes still decode.
func TestChecksumResponseHostile(t *testing.T) {
	deep := []byte{0x21, 0x01, 1, 2, 3, 4}
	for i := 0; i <= codec.ChecksumMaxDepth; i++ {
		deep = append(deep, 0, 0, 1, 9, 9, 9, 9) // no files, one subdir
	}
	deep = append(deep, 0, 0, 0)
	okDepth := []byte{0x21, 0x01, 1, 2, 3, 4}
	for i := 0; i < codec.ChecksumMaxDepth; i++ {
		okDepth = append(okDepth, 0, 0, 1, 9, 9, 9, 9)
	}
	okDepth = append(okDepth, 0, 0, 0)

	tests := []struct {
		name string
		wire []byte
		want error // nil = must decode
	}{
		{"huge file count", vectors.MustHex(t, "2101 01020304 FFFF 00"), codec.ErrShort},
		{"file count one too many", vectors.MustHex(t, "2101 01020304 0200 1111111122222222 00"), codec.ErrShort},
		{"huge subdir count", vectors.MustHex(t, "2101 01020304 0000 FF 01020304"), codec.ErrShort},
		{"subdir count vs min subtree size", vectors.MustHex(t, "2101 01020304 0000 02 0102030405060708 0000"), codec.ErrShort},
		{"subtree missing", vectors.MustHex(t, "2101 01020304 0000 01 01020304"), codec.ErrShort},
		{"too deep", deep, codec.ErrChecksumMalformed},
		{"max depth ok", okDepth, nil},
		{"wrong opcode", vectors.MustHex(t, "2001 01020304 0000 00"), codec.ErrChecksumMalformed},
		{"empty tree ok", vectors.MustHex(t, "2101 01020304 0000 00"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := codec.DecodeChecksumResponse(tc.wire)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				if enc, err := got.AppendTo(nil); err != nil || !bytes.Equal(enc, tc.wire) {
					t.Errorf("re-encode %X, %v", enc, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestChecksumResponseEntryCap(t *testing.T) {
	// 16385 files fit in a u16 count and in the bytes, but exceed the cap.
	n := codec.ChecksumMaxEntries + 1
	wire := []byte{0x21, 0x02, 1, 2, 3, 4, byte(n), byte(n >> 8)}
	wire = append(wire, make([]byte, n*8)...)
	wire = append(wire, 0)
	if _, err := codec.DecodeChecksumResponse(wire); !errors.Is(err, codec.ErrChecksumMalformed) {
		t.Errorf("over the entry cap: %v", err)
	}
	p := codec.ChecksumResponse{Round: 2, Tree: codec.ChecksumTree{Files: make([]codec.FileEntry, n)}}
	if _, err := p.AppendTo(nil); !errors.Is(err, codec.ErrChecksumMalformed) {
		t.Errorf("encoding over the cap: %v", err)
	}
}

func TestChecksumResponseEncodeLimits(t *testing.T) {
	var deep codec.ChecksumTree
	for i := 0; i <= codec.ChecksumMaxDepth; i++ {
		deep = codec.ChecksumTree{Subdirs: []codec.SubdirEntry{{NameHash: 1, Tree: deep}}}
	}
	tests := []struct {
		name string
		tree codec.ChecksumTree
	}{
		{"too many files", codec.ChecksumTree{Files: make([]codec.FileEntry, 65536)}},
		{"too many subdirs", codec.ChecksumTree{Subdirs: make([]codec.SubdirEntry, 256)}},
		{"too deep", deep},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pre := []byte{1, 2, 3}
			out, err := codec.ChecksumResponse{Round: 2, Tree: tc.tree}.AppendTo(pre)
			if !errors.Is(err, codec.ErrChecksumMalformed) {
				t.Errorf("err = %v", err)
			}
			if !bytes.Equal(out, pre) {
				t.Errorf("buffer changed on error: %X", out)
			}
		})
	}
}

// A response with nested subdirectories, shaped like round 0xFF
// (Scripts/Multiplayer/Episode/Mission1), survives a round trip with names
// before subtrees.
func TestChecksumResponseNested(t *testing.T) {
	p := codec.ChecksumResponse{Round: 0xFF, DirHash: 0x8794D13F, Tree: codec.ChecksumTree{
		Files: []codec.FileEntry{{NameHash: 1, ContentHash: 2}},
		Subdirs: []codec.SubdirEntry{
			{NameHash: 0xA, Tree: codec.ChecksumTree{Subdirs: []codec.SubdirEntry{
				{NameHash: 0xC, Tree: codec.ChecksumTree{Files: []codec.FileEntry{{NameHash: 5, ContentHash: 6}}}},
			}}},
			{NameHash: 0xB, Tree: codec.ChecksumTree{Files: []codec.FileEntry{{NameHash: 3, ContentHash: 4}}}},
		},
	}}
	want := vectors.MustHex(t, "21FF 3FD19487 0100 01000000 02000000 02 0A000000 0B000000"+
		" 0000 01 0C000000  0100 05000000 06000000 00"+ // subtree 0xA, then its child 0xC
		" 0100 03000000 04000000 00") // subtree 0xB
	got, err := p.AppendTo(nil)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("encode: %X (%v)\nwant     %X", got, err, want)
	}
	back, err := codec.DecodeChecksumResponse(got)
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Fatalf("decode: %+v %v", back, err)
	}
}

func FuzzChecksumResponse(f *testing.F) {
	for _, tc := range cksumResponseCases {
		f.Add(cksumSessionVector(f, tc.vector))
	}
	f.Add(cksumSessionVector(f, "checksum_resp_round2_first_fragment_prefix"))
	f.Add(cksumSessionVector(f, "checksum_resp_round_ff_prefix"))
	f.Add(vectors.MustHex(f, "21FF3FD19487010001000000020000000201000000020000000000010C0000000000000000"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := codec.DecodeChecksumResponse(data)
		if err != nil {
			return
		}
		enc, err := p.AppendTo(nil)
		if err != nil {
			t.Fatalf("decoded response does not encode: %v", err)
		}
		if !bytes.Equal(enc, data) {
			t.Fatalf("re-encode differs:\n in  %X\n out %X", data, enc)
		}
	})
}

func FuzzChecksumRequest(f *testing.F) {
	for _, tc := range cksumRequestCases {
		f.Add(cksumSessionVector(f, tc.vector))
	}
	f.Add(codec.ChecksumFail{Opcode: 0x22, File: "App.pyc"}.AppendTo(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if q, err := codec.DecodeChecksumRequest(data); err == nil {
			if enc := q.AppendTo(nil); !bytes.Equal(enc, data) {
				t.Fatalf("request re-encode differs:\n in  %X\n out %X", data, enc)
			}
		}
		if c, err := codec.DecodeChecksumFail(data); err == nil {
			if enc := c.AppendTo(nil); !bytes.Equal(enc, data) {
				t.Fatalf("fail re-encode differs:\n in  %X\n out %X", data, enc)
			}
		}
	})
}

func BenchmarkChecksumResponseDecode(b *testing.B) {
	wire := cksumSessionVector(b, "checksum_resp_round3")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.DecodeChecksumResponse(wire); err != nil {
			b.Fatal(err)
		}
	}
}
