package checksum

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

//go:generate go run gen_tables.go

// StringHash is the stock 4-lane Pearson hash of s's bytes (handshake.md
// 3.1): no terminator, no case folding. It hashes file and directory names,
// the request directory and the version string.
func StringHash(s string) uint32 {
	var h0, h1, h2, h3 byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		h0 = pearsonT0[c^h0]
		h1 = pearsonT1[c^h1]
		h2 = pearsonT2[c^h2]
		h3 = pearsonT3[c^h3]
	}
	return uint32(h0)<<24 | uint32(h1)<<16 | uint32(h2)<<8 | uint32(h3)
}

// FileHash is the stock content hash (handshake.md 3.2): a rotate-xor over
// little-endian words that skips word 1 (the .pyc timestamp, so recompiling
// does not change the hash), then the stock tail quirk: the first leftover
// byte, sign-extended, is folded in once per leftover byte, and leftover
// bytes 2 and 3 are never read.
func FileHash(b []byte) uint32 {
	var h uint32
	n := len(b) / 4
	for i := 0; i < n; i++ {
		if i == 1 {
			continue
		}
		h = bits.RotateLeft32(h^binary.LittleEndian.Uint32(b[4*i:]), 1)
	}
	if rem := len(b) - 4*n; rem > 0 {
		t := uint32(int32(int8(b[4*n])))
		for ; rem > 0; rem-- {
			h = bits.RotateLeft32(h^t, 1)
		}
	}
	return h
}

// RequestDirHash is the dir_hash a stock client sends for a request
// directory: StringHash of the string as sent, with one trailing '/'
// removed ("scripts/" -> StringHash("scripts") = 0x4DAFCB2F; handshake.md
// 2.3). The server computes it from its own request rather than trusting a
// manifest field (handshake.md 3.3).
func RequestDirHash(dir string) uint32 {
	return StringHash(strings.TrimSuffix(dir, "/"))
}
