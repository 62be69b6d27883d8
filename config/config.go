// Package config holds what every section of bcserver's TOML file shares:
// durations and sizes written as text ("30s", "64MiB") and paths relative
// to the file's folder. The sections themselves belong to their owners:
// the server package has the core ones ([server], [game], [lua], ...),
// each plugin its own (plugins/<name>/setup.go), and the server package
// assembles them into one file with one set of defaults.
package config

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration written as a string ("30s") in TOML.
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// ByteSize is a size in bytes written as "64MiB", "512KiB", "1GiB" or a
// plain number of bytes in TOML.
type ByteSize int64

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *ByteSize) UnmarshalText(t []byte) error {
	s := strings.TrimSpace(string(t))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return fmt.Errorf("size %q: want a number of bytes or a number with KiB, MiB or GiB", string(t))
	}
	*b = ByteSize(n * mult)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (b ByteSize) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

func (b ByteSize) String() string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", b>>10)
	}
	return fmt.Sprintf("%dB", int64(b))
}

// Dir is the folder of the configuration file a section was read from:
// relative paths in the file are relative to it. The zero value (a
// configuration built in code) leaves paths as they are, relative to the
// working directory.
type Dir string

// Resolve makes a relative path of the file relative to the file's
// folder; "" stays "" (the setting is off).
func (d Dir) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || d == "" {
		return p
	}
	return filepath.Join(string(d), p)
}
