// Package alby implements the AlbyRules stream cipher of stock BC 1.1 game
// datagrams (spec/transport.md 3).
//
// The cipher runs over bytes 1..len-1 of a datagram with its state reset for
// every datagram; byte 0 (the sender's peer id) is never enciphered. Each
// position's keystream byte comes from a five-round key schedule over the
// ten key bytes, and the key bytes are XORed with every plaintext byte
// (plaintext feedback), so encryption and decryption are distinct functions.
//
// The implementation is table-driven. After positions 1..i-1, every key byte
// is key[j] XOR x, where x is the running XOR of the plaintext so far
// (transport.md 3.5), so everything the five rounds derive from the key
// depends on x alone: 256 possible values, precomputed once. What remains per
// byte is the running sum S, which after unrolling the rounds is an affine
// function of the previous S and T:
//
//	S_r = S·K^(r+1) + T·K^r + E_r(x)   (K = 0x4E35, r = 0..4)
//
// Only bits 0..15 of the round outputs reach the keystream byte
// ((A ^ A>>8) & 0xFF), and bits 0..15 of sums and products depend only on
// bits 0..15 of their operands, so the state and tables are 16-bit.
package alby

// Key is the fixed AlbyRules key.
const Key = "AlbyRules!"

const (
	mul   = 0x4E35 // key-schedule multiplier
	cross = 0x015A // cross factor
)

// schedule holds, for one running-XOR value x, what the five rounds need.
type schedule struct {
	e  [5]uint16 // E_r(x): constant part of S_r
	w  uint16    // XOR of the five updated W_r(x); A = S_0^..^S_4 ^ w
	t4 uint16    // c2 of round 4: the T carried to the next position
}

// Powers of the multiplier mod 2^16: kr = K^r (checked by a test).
const (
	k1 uint16 = 0x4E35
	k2 uint16 = 0x56F9
	k3 uint16 = 0xDF8D
	k4 uint16 = 0x3E31
	k5 uint16 = 0xCE25
)

// table is read-only after package initialisation.
var table = buildTable()

func buildTable() *[256]schedule {
	var tb [256]schedule
	for x := range 256 {
		X := uint16(x) * 0x0101 // x XORed into both bytes of a key pair
		var c2 [5]uint16
		var wPrev uint16
		s := &tb[x]
		for r := range 5 {
			pair := (uint16(Key[2*r])<<8 | uint16(Key[2*r+1])) ^ X
			w := pair
			if r > 0 {
				w ^= wPrev
			}
			c2[r] = w * cross
			w = w*mul + 1
			s.w ^= w
			wPrev = w
		}
		s.e[0] = c2[0]
		for r := 1; r < 5; r++ {
			s.e[r] = s.e[r-1]*mul + uint16(r)*mul + c2[r-1] + c2[r]
		}
		s.t4 = c2[4]
	}
	return &tb
}

// mask computes the keystream byte for running-XOR schedule sc given the
// carried state, and returns the new S.
func mask(sc *schedule, s, t uint16) (m byte, sNext uint16) {
	s0 := s*k1 + t + sc.e[0]
	s1 := s*k2 + t*k1 + sc.e[1]
	s2 := s*k3 + t*k2 + sc.e[2]
	s3 := s*k4 + t*k3 + sc.e[3]
	s4 := s*k5 + t*k4 + sc.e[4]
	a := s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ sc.w
	return byte(a ^ a>>8), s4
}

// Encrypt enciphers a whole plaintext datagram in place. Byte 0 is left
// alone and does not enter the cipher state.
func Encrypt(p []byte) {
	if len(p) < 2 {
		return
	}
	var s, t uint16
	var x byte
	for i := 1; i < len(p); i++ {
		sc := &table[x]
		m, sn := mask(sc, s, t)
		s, t = sn, sc.t4
		pb := p[i]
		p[i] = pb ^ m
		x ^= pb
	}
}

// Decrypt deciphers a whole datagram in place. Byte 0 is left alone.
func Decrypt(c []byte) {
	if len(c) < 2 {
		return
	}
	var s, t uint16
	var x byte
	for i := 1; i < len(c); i++ {
		sc := &table[x]
		m, sn := mask(sc, s, t)
		s, t = sn, sc.t4
		pb := c[i] ^ m
		c[i] = pb
		x ^= pb
	}
}
