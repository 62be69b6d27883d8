package checksum

import (
	"math/bits"
	"regexp"
	"strconv"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

func parseHex32(t testing.TB, s string) uint32 {
	t.Helper()
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		t.Fatalf("bad hash %q: %v", s, err)
	}
	return uint32(v)
}

// The generated constants must be the tables of hash_tables.json, and each
// must be a permutation (a Pearson table is).
func TestTablesMatchVectors(t *testing.T) {
	var v struct {
		T0 []int `json:"table_0"`
		T1 []int `json:"table_1"`
		T2 []int `json:"table_2"`
		T3 []int `json:"table_3"`
	}
	vectors.MustLoad(t, "hash_tables.json", &v)
	tests := []struct {
		name string
		got  string
		want []int
	}{
		{"table_0", pearsonT0, v.T0},
		{"table_1", pearsonT1, v.T1},
		{"table_2", pearsonT2, v.T2},
		{"table_3", pearsonT3, v.T3},
	}
	for _, tc := range tests {
		if len(tc.got) != 256 || len(tc.want) != 256 {
			t.Fatalf("%s: %d generated entries, %d in the vectors", tc.name, len(tc.got), len(tc.want))
		}
		var seen [256]bool
		for i := range 256 {
			if int(tc.got[i]) != tc.want[i] {
				t.Errorf("%s[%d] = %d, vectors say %d (run go generate)", tc.name, i, tc.got[i], tc.want[i])
			}
			seen[tc.got[i]] = true
		}
		for i, ok := range seen {
			if !ok {
				t.Errorf("%s is not a permutation: %d missing", tc.name, i)
			}
		}
	}
}

func TestHashVectors(t *testing.T) {
	earlierNote := regexp.MustCompile(`earlier reconstruction[^0-9]*(0x[0-9A-Fa-f]{8})`)
	nEarlier := 0
	var v struct {
		Vectors []struct {
			Input     string `json:"input"`
			InputType string `json:"input_type"`
			Algorithm string `json:"algorithm"`
			Expected  string `json:"expected"`
			Note      string `json:"note"`
		} `json:"vectors"`
	}
	vectors.MustLoad(t, "hashes.json", &v)
	var nString, nFile int
	rems := map[int]int{}
	for _, tc := range v.Vectors {
		want := parseHex32(t, tc.Expected)
		switch tc.Algorithm {
		case "string_hash":
			nString++
			if tc.InputType != "string" {
				t.Fatalf("string_hash with input type %q", tc.InputType)
			}
			if got := StringHash(tc.Input); got != want {
				t.Errorf("StringHash(%q) = 0x%08X, want 0x%08X (%s)", tc.Input, got, want, tc.Note)
			}
		case "file_hash":
			nFile++
			b := vectors.MustHex(t, tc.Input)
			rems[len(b)%4]++
			if got := FileHash(b); got != want {
				t.Errorf("FileHash(%X) = 0x%08X, want 0x%08X (%s)", b, got, want, tc.Note)
			}
			// Notes quote what the earlier tail rule gives; check those too.
			if m := earlierNote.FindStringSubmatch(tc.Note); m != nil {
				nEarlier++
				if got, want := earlierFileHash(b), parseHex32(t, m[1]); got != want {
					t.Errorf("earlier rule on %X = 0x%08X, note says 0x%08X", b, got, want)
				}
			}
		default:
			t.Errorf("unknown algorithm %q", tc.Algorithm)
		}
	}
	if nString != 23 {
		t.Errorf("%d string_hash vectors, handshake.md 3.1 promises 23", nString)
	}
	for rem := range 4 {
		if rems[rem] == 0 {
			t.Errorf("no file_hash vector with length %% 4 == %d", rem)
		}
	}
	if nEarlier < 6 {
		t.Errorf("only %d notes quote the earlier tail rule", nEarlier)
	}
	t.Logf("%d string_hash and %d file_hash vectors (by length mod 4: %v), %d earlier-rule values", nString, nFile, rems, nEarlier)
}

// Check values quoted in handshake.md 2.3 and 3.1.
func TestStringHashCheckValues(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
	}{
		{"", 0},
		{"60", 0x7E0CE243},
		{"App.pyc", 0x373EB677},
		{"__init__.pyc", 0xE9DD9FA2},
		{"Hardpoints", 0xCAAFFDD4},
		{StockVersionString, StockVersionHash},
	}
	for _, tc := range tests {
		if got := StringHash(tc.in); got != tc.want {
			t.Errorf("StringHash(%q) = 0x%08X, want 0x%08X", tc.in, got, tc.want)
		}
	}
}

// The dir_hash of each stock request, as captured from a stock client
// (handshake.md 2.3): the directory string as sent, one trailing slash off.
func TestStockRequestDirHashes(t *testing.T) {
	want := map[uint8]uint32{0: 0x4DAFCB2F, 1: 0x4DAFCB2F, 2: 0xC017D1C4, 3: 0x3409475D, 0xFF: 0x8794D13F}
	reqs := StockRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d stock requests, want 5", len(reqs))
	}
	for _, r := range reqs {
		if got := RequestDirHash(r.Dir); got != want[r.Round] {
			t.Errorf("round %d %q: dir hash 0x%08X, want 0x%08X", r.Round, r.Dir, got, want[r.Round])
		}
	}
	// A fresh slice every call: changing one must not change the next.
	reqs[0].Dir = "changed"
	if StockRequests()[0].Dir != "scripts/" {
		t.Error("StockRequests shares its backing array")
	}
}

// earlierFileHash is the tail rule the vanilla manifest was built with
// (advancing through the tail bytes); handshake.md 3.2 gives how it
// differs from the stock rule. The relation is checked on every length.
func earlierFileHash(b []byte) uint32 {
	var h uint32
	n := len(b) / 4
	for i := 0; i < n; i++ {
		if i != 1 {
			h = bits.RotateLeft32(h^(uint32(b[4*i])|uint32(b[4*i+1])<<8|uint32(b[4*i+2])<<16|uint32(b[4*i+3])<<24), 1)
		}
	}
	for _, c := range b[4*n:] {
		h = bits.RotateLeft32(h^uint32(int32(int8(c))), 1)
	}
	return h
}

func TestFileHashTailRule(t *testing.T) {
	se := func(c byte) uint32 { return uint32(int32(int8(c))) }
	data := []byte{0x99, 0x4E, 0x0D, 0x0A, 1, 2, 3, 4, 0x63, 0, 0, 0, 0xAA, 0x7F, 0x80, 0x01}
	for n := 0; n <= len(data); n++ {
		b := data[:n]
		stock, earlier := FileHash(b), earlierFileHash(b)
		tail := b[n/4*4:]
		var want uint32
		switch len(tail) {
		case 0, 1:
			want = earlier
		case 2:
			want = earlier ^ bits.RotateLeft32(se(tail[0])^se(tail[1]), 1)
		case 3:
			want = earlier ^ bits.RotateLeft32(se(tail[0])^se(tail[1]), 2) ^ bits.RotateLeft32(se(tail[0])^se(tail[2]), 1)
		}
		if stock != want {
			t.Errorf("len %d: stock 0x%08X, earlier 0x%08X, 3.2 relation gives 0x%08X", n, stock, earlier, want)
		}
	}
	// Bytes 4..7 (the .pyc timestamp) and tail bytes 2..3 are never read.
	a := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	b := []byte{1, 2, 3, 4, 0xF5, 0xF6, 0xF7, 0xF8, 9, 0xEE, 0xEF}
	if FileHash(a) != FileHash(b) {
		t.Error("timestamp word or trailing tail bytes changed the hash")
	}
}

func BenchmarkStringHash(b *testing.B) {
	b.ReportAllocs()
	var sink uint32
	for b.Loop() {
		sink ^= StringHash("Scripts/Multiplayer")
	}
	_ = sink
}

func BenchmarkFileHash64K(b *testing.B) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var sink uint32
	for b.Loop() {
		sink ^= FileHash(data)
	}
	_ = sink
}
