package alby

import (
	"bytes"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

// refEncrypt and refDecrypt are a plain transcription of transport.md 3.2–3.3
// (32-bit state, ten key bytes copied and fed back) kept as the reference the
// table-driven cipher must equal.
func refCrypt(b []byte, decrypt bool) {
	if len(b) < 2 {
		return
	}
	var k [10]byte
	copy(k[:], Key)
	var s, t uint32
	var w [5]uint32
	for i := 1; i < len(b); i++ {
		var a uint32
		for r := range 5 {
			pair := uint32(k[2*r])*256 + uint32(k[2*r+1])
			if r == 0 {
				w[r] = pair
			} else {
				w[r] = pair ^ w[r-1]
			}
			c1 := (s + uint32(r)) * 0x4E35
			c2 := w[r] * 0x015A
			s = t + c1 + c2
			t = c2
			w[r] = w[r]*0x4E35 + 1
			a ^= s ^ w[r]
		}
		m := byte((a ^ a>>8) & 0xFF)
		var plain byte
		if decrypt {
			b[i] ^= m
			plain = b[i]
		} else {
			plain = b[i]
			b[i] ^= m
		}
		for j := range k {
			k[j] ^= plain
		}
	}
}

type vector struct {
	Name      string `json:"name"`
	PlainHex  string `json:"plain_hex"`
	CipherHex string `json:"cipher_hex"`
}

func loadVectors(t *testing.T) []vector {
	var v []vector
	vectors.MustLoad(t, "cipher.json", &v)
	if len(v) < 19 {
		t.Fatalf("cipher.json has %d vectors, want at least 19", len(v))
	}
	return v
}

func TestVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			plain := vectors.MustHex(t, v.PlainHex)
			ciph := vectors.MustHex(t, v.CipherHex)
			for _, impl := range []struct {
				name     string
				enc, dec func([]byte)
			}{
				{"table", Encrypt, Decrypt},
				{"reference", func(b []byte) { refCrypt(b, false) }, func(b []byte) { refCrypt(b, true) }},
			} {
				got := bytes.Clone(plain)
				impl.enc(got)
				if !bytes.Equal(got, ciph) {
					t.Errorf("%s encrypt:\n got %X\nwant %X", impl.name, got, ciph)
				}
				got = bytes.Clone(ciph)
				impl.dec(got)
				if !bytes.Equal(got, plain) {
					t.Errorf("%s decrypt:\n got %X\nwant %X", impl.name, got, plain)
				}
			}
		})
	}
}

// The first keystream byte is always 0xD6 (transport.md 3.5).
func TestFirstKeystreamByte(t *testing.T) {
	for _, p := range [][]byte{{1, 0}, {0xFF, 0}, {2, 0, 0x32}} {
		b := bytes.Clone(p)
		Encrypt(b)
		if b[1] != 0xD6 || b[0] != p[0] {
			t.Errorf("Encrypt(%X) = %X", p, b)
		}
	}
	// Encrypting ciphertext does not decrypt it (plaintext feedback).
	b := []byte{1, 1, 3, 6, 0xC0, 0, 0, 2}
	Encrypt(b)
	Encrypt(b)
	if bytes.Equal(b, []byte{1, 1, 3, 6, 0xC0, 0, 0, 2}) {
		t.Error("encrypt is its own inverse; feedback must use the plaintext")
	}
}

func TestPowers(t *testing.T) {
	k := uint16(1)
	for r, got := range []uint16{1, k1, k2, k3, k4, k5} {
		if got != k {
			t.Errorf("K^%d = %#04x, want %#04x", r, got, k)
		}
		k *= mul
	}
}

func TestShortInputs(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {0x42}} {
		c := bytes.Clone(b)
		Encrypt(c)
		Decrypt(c)
		if !bytes.Equal(c, b) {
			t.Errorf("%X changed", b)
		}
	}
}

// FuzzCipher proves the table-driven cipher equal to the reference on any
// datagram, in both directions, and that decrypt inverts encrypt.
func FuzzCipher(f *testing.F) {
	var vs []vector
	if err := vectors.Load("cipher.json", &vs); err != nil {
		f.Fatal(err)
	}
	for _, v := range vs {
		f.Add(vectors.MustHex(f, v.PlainHex))
		f.Add(vectors.MustHex(f, v.CipherHex))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		a, r := bytes.Clone(p), bytes.Clone(p)
		Encrypt(a)
		refCrypt(r, false)
		if !bytes.Equal(a, r) {
			t.Fatalf("encrypt differs from reference on %X", p)
		}
		Decrypt(a)
		if !bytes.Equal(a, p) {
			t.Fatalf("decrypt(encrypt(p)) != p for %X", p)
		}
		// Arbitrary bytes treated as ciphertext.
		a, r = bytes.Clone(p), bytes.Clone(p)
		Decrypt(a)
		refCrypt(r, true)
		if !bytes.Equal(a, r) {
			t.Fatalf("decrypt differs from reference on %X", p)
		}
	})
}

func benchData() []byte {
	b := make([]byte, 512)
	for i := range b {
		b[i] = byte(i*31 + 7)
	}
	return b
}

func BenchmarkEncrypt512(b *testing.B) {
	d := benchData()
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		Encrypt(d)
	}
}

func BenchmarkDecrypt512(b *testing.B) {
	d := benchData()
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		Decrypt(d)
	}
}

func BenchmarkReference512(b *testing.B) {
	d := benchData()
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		refCrypt(d, true)
	}
}
