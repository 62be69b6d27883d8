package accounts

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// KDF are Argon2id's parameters (RFC 9106). The defaults are OWASP's
// first recommendation (19 MiB, 2 passes, 1 lane): memory-hard, so a
// stolen database costs an attacker memory per guess, and about 30 ms
// of one core per login here.
type KDF struct {
	Time    uint32
	MemKiB  uint32
	Threads uint8
}

// DefaultKDF is what new passwords are hashed with.
var DefaultKDF = KDF{Time: 2, MemKiB: 19 * 1024, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
	// maxMemKiB bounds what a stored hash may ask for: a tampered row
	// cannot make a login allocate gigabytes.
	maxMemKiB = 256 * 1024
)

// hash returns the PHC string of password: $argon2id$v=19$m=..,t=..,p=..$salt$key.
func (k KDF) hash(password []byte) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("salt: %w", err)
	}
	key := argon2.IDKey(password, salt, k.Time, k.MemKiB, k.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, k.MemKiB, k.Time, k.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("not an argon2id hash this server wrote")

// verify checks password against a PHC string in constant time.
func verify(encoded string, password []byte) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false, errBadHash
	}
	var k KDF
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &k.MemKiB, &k.Time, &k.Threads); err != nil {
		return false, errBadHash
	}
	if k.MemKiB == 0 || k.MemKiB > maxMemKiB || k.Time == 0 || k.Time > 16 || k.Threads == 0 || k.Threads > 4 {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 || len(salt) > 64 {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false, errBadHash
	}
	got := argon2.IDKey(password, salt, k.Time, k.MemKiB, k.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
