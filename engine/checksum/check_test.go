package checksum

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

func sessionPayload(t testing.TB, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "session.json", name)
}

func stockRequest(t testing.TB, round uint8) codec.ChecksumRequest {
	t.Helper()
	for _, r := range StockRequests() {
		if r.Round == round {
			return r
		}
	}
	t.Fatalf("no stock round %d", round)
	return codec.ChecksumRequest{}
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		in   string
		want Mode
		bad  bool
	}{
		{"", ModeVerified, false},
		{"verified", ModeVerified, false},
		{"Strict", ModeStrict, false},
		{" off ", ModeOff, false},
		{"on", 0, true},
	}
	for _, tc := range tests {
		got, err := ParseMode(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("ParseMode(%q) = %v, %v", tc.in, got, err)
		}
		if tc.bad {
			continue
		}
		var m Mode
		if err := m.UnmarshalText([]byte(tc.in)); err != nil || m != tc.want {
			t.Errorf("UnmarshalText(%q) = %v, %v", tc.in, m, err)
		}
		if b, _ := got.MarshalText(); string(b) != got.String() {
			t.Errorf("MarshalText %s", b)
		}
	}
	var zero Mode
	if zero != ModeVerified {
		t.Error("the zero Mode is not the default ModeVerified")
	}
}

// The captured stock responses of rounds 0, 1 and 3 pass against the
// vanilla manifest in both modes: all six of their entries are verified.
// Round 2 and 0xFF were only published as prefixes.
func TestCheckVanillaCaptures(t *testing.T) {
	m := mustVanilla(t)
	tests := []struct {
		vector string
		round  uint8
	}{
		{"checksum_resp_round0", 0},
		{"checksum_resp_round1", 1},
		{"checksum_resp_round3", 3},
	}
	for _, tc := range tests {
		resp, err := codec.DecodeChecksumResponse(sessionPayload(t, tc.vector))
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []Mode{ModeVerified, ModeStrict} {
			res := m.Check(stockRequest(t, tc.round), resp, mode)
			if !res.OK || len(res.Soft) != 0 || res.Note != "" {
				t.Errorf("%s in %v mode: %+v", tc.vector, mode, res)
			}
		}
	}
}

// checkManifest has a verified round 0, a recursive round 2 with one
// verified and one unverified file and a subdirectory, and no round 0xFF.
const checkManifest = `{"meta":{},"version_string":"60","directories":[
 {"index":0,"path":"scripts","filter":"App.pyc","recursive":false,
  "files":[{"filename":"App.pyc","content_hash":"0xF8A0A768","content_verified":true}]},
 {"index":2,"path":"scripts/ships","filter":"*.pyc","recursive":true,
  "files":[{"filename":"Akira.pyc","content_hash":"0x00000001","content_verified":true},
           {"filename":"Galaxy.pyc","content_hash":"0x00000002"}],
  "subdirs":[{"name":"Hardpoints","files":[{"filename":"akira.pyc","content_hash":"0x00000003","content_verified":true}]}]}]}`

// presenceRequired ends the names of TestCheckBranches cases checked with
// the stricter, non-stock Policy.RequirePresent.
const presenceRequired = ", presence required"

func TestCheckBranches(t *testing.T) {
	m, err := LoadManifest(strings.NewReader(checkManifest))
	if err != nil {
		t.Fatal(err)
	}
	withFF, err := LoadManifest(strings.NewReader(strings.TrimSuffix(checkManifest, "]}") +
		`,{"index":255,"path":"Scripts/Multiplayer","filter":"*.pyc","recursive":true,
		  "files":[{"filename":"MultiplayerMenus.pyc","content_hash":"0x9"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	h := StringHash
	fe := func(name string, content uint32) codec.FileEntry {
		return codec.FileEntry{NameHash: h(name), ContentHash: content}
	}
	r0 := stockRequest(t, 0)
	r2 := stockRequest(t, 2)
	rFF := stockRequest(t, 0xFF)
	good0 := codec.ChecksumResponse{Round: 0, RefHash: 0x7E0CE243, DirHash: 0x4DAFCB2F,
		Tree: codec.ChecksumTree{Files: []codec.FileEntry{fe("App.pyc", 0xF8A0A768)}}}
	hp := func(files ...codec.FileEntry) []codec.SubdirEntry {
		return []codec.SubdirEntry{{NameHash: h("Hardpoints"), Tree: codec.ChecksumTree{Files: files}}}
	}
	good2 := codec.ChecksumResponse{Round: 2, DirHash: 0xC017D1C4, Tree: codec.ChecksumTree{
		Files:   []codec.FileEntry{fe("Akira.pyc", 1), fe("Galaxy.pyc", 2)},
		Subdirs: hp(fe("akira.pyc", 3)),
	}}
	mod2 := func(f func(*codec.ChecksumResponse)) codec.ChecksumResponse {
		r := good2
		r.Tree.Files = slices.Clone(good2.Tree.Files)
		r.Tree.Subdirs = slices.Clone(good2.Tree.Subdirs)
		f(&r)
		return r
	}
	ffTree := codec.ChecksumResponse{Round: 0xFF, DirHash: 0x8794D13F, Tree: codec.ChecksumTree{
		Files: []codec.FileEntry{fe("Anything.pyc", 42)}}}

	type want struct {
		ok     bool
		opcode uint8
		file   string
		reason string // substring
		soft   int
		note   bool
	}
	pass := want{ok: true}
	tests := []struct {
		name  string
		m     *Manifest
		req   codec.ChecksumRequest
		resp  codec.ChecksumResponse
		modes map[Mode]want // a name ending in presenceRequired checks with Policy.RequirePresent
	}{
		{"round 0 ok", m, r0, good0, map[Mode]want{ModeVerified: pass, ModeStrict: pass, ModeOff: pass}},
		{"round 2 ok", m, r2, good2, map[Mode]want{ModeVerified: pass, ModeStrict: pass}},
		{"wrong round", m, r2, func() codec.ChecksumResponse { r := good2; r.Round = 3; return r }(),
			map[Mode]want{ModeVerified: {opcode: 0x22, file: "scripts/ships", reason: "round 3"}, ModeOff: pass}},
		{"bad ref hash", m, r0, func() codec.ChecksumResponse { r := good0; r.RefHash = StringHash("61"); return r }(),
			map[Mode]want{
				ModeVerified: {opcode: 0x23, file: "60", reason: "version"},
				ModeStrict:   {opcode: 0x23, file: "60", reason: "version"},
				ModeOff:      pass,
			}},
		{"dir hash with the slash", m, r0, func() codec.ChecksumResponse { r := good0; r.DirHash = StringHash("scripts/"); return r }(),
			map[Mode]want{ModeVerified: {opcode: 0x22, file: "scripts", reason: "dir_hash"}, ModeOff: pass}},
		{"dir hash of last component", m, r2, mod2(func(r *codec.ChecksumResponse) { r.DirHash = StringHash("ships") }),
			map[Mode]want{ModeStrict: {opcode: 0x22, file: "scripts/ships", reason: "dir_hash"}}},
		// Stock passes a client that lacks files (handshake.md 2.4).
		{"missing file", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Files = r.Tree.Files[:1] }),
			map[Mode]want{ModeVerified: pass, ModeStrict: pass, ModeOff: pass}},
		{"missing file" + presenceRequired, m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Files = r.Tree.Files[:1] }),
			map[Mode]want{
				ModeVerified: {opcode: 0x22, file: "scripts/ships/Galaxy.pyc", reason: "missing file scripts/ships/Galaxy.pyc"},
				ModeStrict:   {opcode: 0x22, file: "scripts/ships/Galaxy.pyc", reason: "missing"},
				ModeOff:      pass,
			}},
		{"verified content differs", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Files[0].ContentHash = 9 }),
			map[Mode]want{
				ModeVerified: {opcode: 0x22, file: "scripts/ships/Akira.pyc", reason: "content hash 0x00000009, want 0x00000001"},
				ModeStrict:   {opcode: 0x22, file: "scripts/ships/Akira.pyc"},
				ModeOff:      pass,
			}},
		{"unverified content differs", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Files[1].ContentHash = 9 }),
			map[Mode]want{
				ModeVerified: {ok: true, soft: 1},
				ModeStrict:   {opcode: 0x22, file: "scripts/ships/Galaxy.pyc", reason: "scripts/ships/Galaxy.pyc"},
				ModeOff:      pass,
			}},
		{"extra files and any order", m, r2, mod2(func(r *codec.ChecksumResponse) {
			r.Tree.Files = []codec.FileEntry{fe("Zzz.pyc", 5), r.Tree.Files[1], fe("Custom.pyc", 6), r.Tree.Files[0]}
		}), map[Mode]want{ModeVerified: pass, ModeStrict: pass}},
		{"same file name in another case is another file", m, r2, mod2(func(r *codec.ChecksumResponse) {
			r.Tree.Files[0] = fe("akira.pyc", 1)
		}), map[Mode]want{ModeVerified: pass}},
		{"same file name in another case" + presenceRequired, m, r2, mod2(func(r *codec.ChecksumResponse) {
			r.Tree.Files[0] = fe("akira.pyc", 1)
		}), map[Mode]want{ModeVerified: {opcode: 0x22, file: "scripts/ships/Akira.pyc", reason: "missing"}}},
		{"missing subdir", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Subdirs = nil }),
			map[Mode]want{ModeVerified: pass, ModeStrict: pass}},
		{"missing subdir" + presenceRequired, m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Subdirs = nil }),
			map[Mode]want{ModeVerified: {opcode: 0x22, file: "scripts/ships/Hardpoints", reason: "missing directory scripts/ships/Hardpoints"}, ModeOff: pass}},
		{"subdir file differs", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Subdirs = hp(fe("akira.pyc", 4)) }),
			map[Mode]want{ModeVerified: {opcode: 0x22, file: "scripts/ships/Hardpoints/akira.pyc", reason: "content hash"}}},
		{"subdir file missing", m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Subdirs = hp() }),
			map[Mode]want{ModeStrict: pass}},
		{"subdir file missing" + presenceRequired, m, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree.Subdirs = hp() }),
			map[Mode]want{ModeStrict: {opcode: 0x22, file: "scripts/ships/Hardpoints/akira.pyc", reason: "missing file scripts/ships/Hardpoints/akira.pyc"}}},
		{"extra subdirs and files in them", m, r2, mod2(func(r *codec.ChecksumResponse) {
			r.Tree.Subdirs = append([]codec.SubdirEntry{{NameHash: h("Custom"), Tree: codec.ChecksumTree{Files: []codec.FileEntry{fe("x.pyc", 1)}}}},
				hp(fe("other.pyc", 8), fe("akira.pyc", 3))...)
		}), map[Mode]want{ModeVerified: pass, ModeStrict: pass}},
		{"round 0xFF without an entry", m, rFF, ffTree,
			map[Mode]want{ModeVerified: {ok: true, note: true}, ModeStrict: {ok: true, note: true}, ModeOff: pass}},
		{"round 0xFF entry checked" + presenceRequired, withFF, rFF, ffTree,
			map[Mode]want{
				ModeVerified: {opcode: 0x22, file: "Scripts/Multiplayer/MultiplayerMenus.pyc", reason: "missing file Scripts/Multiplayer/"},
				ModeStrict:   {opcode: 0x22, file: "Scripts/Multiplayer/MultiplayerMenus.pyc"},
				ModeOff:      pass,
			}},
		{"round 0xFF entry satisfied, unverified content", withFF, rFF, codec.ChecksumResponse{Round: 0xFF, DirHash: 0x8794D13F,
			Tree: codec.ChecksumTree{Files: []codec.FileEntry{fe("MultiplayerMenus.pyc", 10)}}},
			map[Mode]want{ModeVerified: {ok: true, soft: 1}, ModeStrict: {opcode: 0x22, file: "Scripts/Multiplayer/MultiplayerMenus.pyc"}}},
		{"entry for the round but another request", m,
			codec.ChecksumRequest{Round: 2, Dir: "scripts/Custom", Filter: "*.pyc", Recursive: true},
			codec.ChecksumResponse{Round: 2, DirHash: StringHash("scripts/Custom")},
			map[Mode]want{ModeStrict: {ok: true, note: true}}},
		{"no manifest: structure only", nil, r2, mod2(func(r *codec.ChecksumResponse) { r.Tree = codec.ChecksumTree{} }),
			map[Mode]want{ModeStrict: {ok: true, note: true}}},
		{"no manifest: ref hash still checked", nil, r0, func() codec.ChecksumResponse { r := good0; r.RefHash = 0; return r }(),
			map[Mode]want{ModeVerified: {opcode: 0x23, file: "60"}}},
	}
	for _, tc := range tests {
		for mode, w := range tc.modes {
			t.Run(fmt.Sprintf("%s/%v", tc.name, mode), func(t *testing.T) {
				present := strings.HasSuffix(tc.name, presenceRequired)
				res := tc.m.CheckPolicy(tc.req, tc.resp, Policy{Mode: mode, RequirePresent: present})
				if res.OK != w.ok || res.Round != tc.req.Round {
					t.Fatalf("OK = %t (round %d), want %t: %+v", res.OK, res.Round, w.ok, res)
				}
				if !w.ok {
					if res.Opcode != w.opcode || res.File != w.file || !strings.Contains(res.Reason, w.reason) {
						t.Errorf("got 0x%02X %q %q, want 0x%02X %q ...%q...", res.Opcode, res.File, res.Reason, w.opcode, w.file, w.reason)
					}
					if rep := res.Reply(); rep.Opcode != w.opcode || rep.File != w.file {
						t.Errorf("reply %+v", rep)
					}
				}
				if len(res.Soft) != w.soft {
					t.Errorf("soft mismatches %v, want %d", res.Soft, w.soft)
				}
				if (res.Note != "") != w.note {
					t.Errorf("note %q, want note = %t", res.Note, w.note)
				}
			})
		}
	}
}

// A hostile response with thousands of files takes the sorted path and
// still finds the manifest's files.
func TestCheckLargeResponse(t *testing.T) {
	m, err := LoadManifest(strings.NewReader(checkManifest))
	if err != nil {
		t.Fatal(err)
	}
	resp := codec.ChecksumResponse{Round: 2, DirHash: 0xC017D1C4}
	for i := range 5000 {
		resp.Tree.Files = append(resp.Tree.Files, codec.FileEntry{NameHash: StringHash(fmt.Sprintf("f%d.pyc", i)), ContentHash: 1})
	}
	resp.Tree.Files = append(resp.Tree.Files,
		codec.FileEntry{NameHash: StringHash("Galaxy.pyc"), ContentHash: 2},
		codec.FileEntry{NameHash: StringHash("Akira.pyc"), ContentHash: 1},
		codec.FileEntry{NameHash: StringHash("Akira.pyc"), ContentHash: 77}) // duplicate: first one counts
	resp.Tree.Subdirs = []codec.SubdirEntry{{NameHash: StringHash("Hardpoints"),
		Tree: codec.ChecksumTree{Files: []codec.FileEntry{{NameHash: StringHash("akira.pyc"), ContentHash: 3}}}}}
	if res := m.Check(stockRequest(t, 2), resp, ModeStrict); !res.OK {
		t.Fatalf("large response: %+v", res)
	}
	resp.Tree.Files = resp.Tree.Files[:5001]
	if res := m.CheckPolicy(stockRequest(t, 2), resp, Policy{Mode: ModeStrict, RequirePresent: true}); res.OK || res.File != "scripts/ships/Akira.pyc" {
		t.Fatalf("large response without Akira.pyc: %+v", res)
	}
}

// Answer reproduces what a stock client with the vanilla files sends: the
// round 0 and 1 captures byte for byte, round 3 up to file order. Every
// answer passes Check in strict mode.
func TestAnswerVanilla(t *testing.T) {
	m := mustVanilla(t)
	captures := map[uint8]string{0: "checksum_resp_round0", 1: "checksum_resp_round1", 3: "checksum_resp_round3"}
	for _, req := range StockRequests() {
		resp, ok := m.Answer(req)
		if req.Round == 0xFF {
			if ok {
				t.Error("answer for round 0xFF from a manifest without it")
			}
			continue
		}
		if !ok {
			t.Fatalf("no answer for round %d", req.Round)
		}
		enc, err := resp.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		back, err := codec.DecodeChecksumResponse(enc)
		if err != nil {
			t.Fatalf("round %d answer does not decode: %v", req.Round, err)
		}
		if res := m.Check(req, back, ModeStrict); !res.OK {
			t.Errorf("round %d answer fails: %+v", req.Round, res)
		}
		name, ok := captures[req.Round]
		if !ok {
			continue
		}
		want := sessionPayload(t, name)
		if req.Round != 3 {
			if !bytes.Equal(enc, want) {
				t.Errorf("round %d: answer %X, capture %X", req.Round, enc, want)
			}
			continue
		}
		captured, _ := codec.DecodeChecksumResponse(want)
		byName := func(a, b codec.FileEntry) int { return int(int64(a.NameHash) - int64(b.NameHash)) }
		slices.SortFunc(captured.Tree.Files, byName)
		slices.SortFunc(back.Tree.Files, byName)
		if !reflect.DeepEqual(captured, back) {
			t.Errorf("round 3: answer %+v, capture %+v", back, captured)
		}
	}
}

func TestAnswerNothing(t *testing.T) {
	m, err := LoadManifest(strings.NewReader(`{"meta":{},"version_string":"60","directories":[
		{"index":3,"path":"scripts/mainmenu","filter":"*.pyc","recursive":false},
		{"index":2,"path":"scripts/ships","filter":"*.pyc","recursive":true,"subdirs":[{"name":"Empty"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    *Manifest
		req  codec.ChecksumRequest
	}{
		{"no files", m, stockRequest(t, 3)},
		{"only empty subdirs", m, stockRequest(t, 2)},
		{"no entry", m, stockRequest(t, 0)},
		{"nil manifest", nil, stockRequest(t, 0)},
	}
	for _, tc := range tests {
		if _, ok := tc.m.Answer(tc.req); ok {
			t.Errorf("%s: answered", tc.name)
		}
	}
}

func BenchmarkCheckRound2(b *testing.B) {
	m := mustVanilla(b)
	req := stockRequest(b, 2)
	resp, ok := m.Answer(req)
	if !ok {
		b.Fatal("no round 2")
	}
	b.ReportAllocs()
	for b.Loop() {
		if res := m.Check(req, resp, ModeVerified); !res.OK {
			b.Fatal(res.Reason)
		}
	}
}

// FuzzCheck feeds arbitrary responses through decode and Check against
// the vanilla manifest for every stock round and mode: nothing may panic,
// and a failure always carries a reply opcode and a reason.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"checksum_resp_round0", "checksum_resp_round1", "checksum_resp_round3",
		"checksum_resp_round2_first_fragment_prefix"} {
		f.Add(sessionPayload(f, name))
	}
	m := mustVanilla(f)
	if r2, ok := m.Answer(stockRequest(f, 2)); ok {
		b, _ := r2.AppendTo(nil)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := codec.DecodeChecksumResponse(data)
		if err != nil {
			return
		}
		for _, req := range StockRequests() {
			for _, mode := range []Mode{ModeVerified, ModeStrict, ModeOff} {
				res := m.Check(req, resp, mode)
				badOp := res.Opcode != codec.ChecksumFailFileOpcode && res.Opcode != codec.ChecksumFailVersionOpcode
				if !res.OK && (badOp || res.Reason == "") {
					t.Fatalf("round %d %v: failure without opcode or reason: %+v", req.Round, mode, res)
				}
			}
		}
	})
}
