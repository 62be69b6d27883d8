package gamespy

// SecretKey is Bridge Commander's GameSpy game secret (gamespy.md 4.1).
const SecretKey = "Nm3aZ9"

// MaxChallengeLen is the longest `\secure\` challenge answered. The stock
// SDK keeps the challenge in a 128-byte buffer and gives up on longer ones;
// we then leave `\validate\` out but still send the rest of the reply.
const MaxChallengeLen = 128

// maxValidateLen is the encoded length of the longest challenge.
const maxValidateLen = (MaxChallengeLen + 2) / 3 * 4

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// Validate returns the `\validate\` value that answers a `\secure\`
// challenge (gamespy.md 4.1): the challenge enciphered with the game secret
// by GameSpy's RC4 variant, then base64 encoded. A challenge longer than
// [MaxChallengeLen] yields "".
func Validate(challenge string) string {
	var buf [maxValidateLen]byte
	return string(appendValidate(buf[:0], []byte(challenge)))
}

// appendValidate appends the encoded answer to dst without allocating when
// dst has room (the responder's hot path).
func appendValidate(dst, challenge []byte) []byte {
	n := len(challenge)
	if n == 0 || n > MaxChallengeLen {
		return dst
	}
	var data [MaxChallengeLen]byte
	copy(data[:], challenge)
	gsEncrypt(SecretKey, data[:n])
	return gsEncode(dst, data[:n])
}

// gsEncrypt is RC4 with a twist: the standard key schedule, but the
// generator's i index mixes in the plaintext byte (gamespy.md 4.1).
func gsEncrypt(key string, buf []byte) {
	var s [256]byte
	for i := range s {
		s[i] = byte(i)
	}
	var j byte
	for i := range 256 {
		j += key[i%len(key)] + s[i]
		s[i], s[j] = s[j], s[i]
	}
	var x, y byte
	for n, c := range buf {
		x += c + 1
		y += s[x]
		s[x], s[y] = s[y], s[x]
		buf[n] = c ^ s[s[x]+s[y]]
	}
}

// gsEncode is base64 with the standard alphabet as the GameSpy SDK writes
// it: a short last group is padded with zero bits and still written as four
// characters, never with '='. For the usual 6-byte challenge this is plain
// base64 (8 characters).
func gsEncode(dst, src []byte) []byte {
	for i := 0; i < len(src); i += 3 {
		var t [3]byte
		copy(t[:], src[i:])
		dst = append(dst,
			b64[t[0]>>2],
			b64[(t[0]&3)<<4|t[1]>>4],
			b64[(t[1]&15)<<2|t[2]>>6],
			b64[t[2]&63])
	}
	return dst
}
