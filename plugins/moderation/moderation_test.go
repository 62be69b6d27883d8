package moderation

import (
	"context"
	"database/sql"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// Ban targets are names or IPv4 addresses; a name that could break a
// line or hide text, this machine's or no one's address, and garbage are
// refused.
func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in, kind, target string
		ok               bool
	}{
		{"name:Griefer", "name", "Griefer", true},
		{"account: Griefer ", "name", "Griefer", true},
		{"203.0.113.7", "address", "203.0.113.7", true},
		{"name:", "", "", false},
		{"name:Evil\u202eName", "", "", false},
		{"name:two\nlines", "", "", false},
		{"127.0.0.1", "", "", false},
		{"0.0.0.0", "", "", false},
		{"2001:db8::1", "", "", false},
		{"everyone", "", "", false},
	} {
		kind, target, _, err := ParseTarget(tc.in)
		if (err == nil) != tc.ok || kind != tc.kind || target != tc.target {
			t.Errorf("ParseTarget(%q) = %q %q %v", tc.in, kind, target, err)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"30m": 30 * time.Minute, "2h": 2 * time.Hour, "7d": 7 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "perm": 0} {
		if d, ok := ParseDuration(in); !ok || d != want {
			t.Errorf("%q: %v %v", in, d, ok)
		}
	}
	for _, in := range []string{"", "-1h", "0s", "spam", "99999999d"} {
		if _, ok := ParseDuration(in); ok {
			t.Errorf("%q taken", in)
		}
	}
}

// A timed ban matches its name (as look-alikes compare) and address
// until it expires, then nothing; a lifted ban matches nothing; the bans
// in force come back from the database.
func TestBansExpire(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Unix(1_800_000_000, 0)
	s, err := Open(db, now)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.AddBan(ctx, "name:Griefer", "spam", "token:mod", time.Hour, now); err != nil {
		t.Fatal(err)
	}
	addr, err := s.AddBan(ctx, "198.51.100.4", "", "token:mod", 0, now)
	if err != nil {
		t.Fatal(err)
	}
	ip := netip.MustParseAddr("198.51.100.4")
	for _, tc := range []struct {
		name string
		addr netip.Addr
		at   time.Time
		want bool
	}{
		{"GRIEFER", netip.Addr{}, now.Add(59 * time.Minute), true},
		{"Griefer", netip.Addr{}, now.Add(61 * time.Minute), false},
		{"Someone", ip, now.Add(1000 * time.Hour), true},
		{"Someone", netip.MustParseAddr("198.51.100.5"), now, false},
	} {
		if _, got := s.Banned(tc.name, tc.addr, tc.at); got != tc.want {
			t.Errorf("%s %v at +%v: banned %v", tc.name, tc.addr, tc.at.Sub(now), got)
		}
	}
	if ok, err := s.Lift(ctx, addr.ID, now); !ok || err != nil {
		t.Fatalf("lift: %v %v", ok, err)
	}
	if _, got := s.Banned("Someone", ip, now); got {
		t.Fatal("a lifted ban still matches")
	}
	s2, err := Open(db, now.Add(30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, got := s2.Banned("griefer", netip.Addr{}, now.Add(30*time.Minute)); !got {
		t.Fatal("the timed ban did not survive a restart")
	}
	if _, got := s2.Banned("x", ip, now.Add(30*time.Minute)); got {
		t.Fatal("the lifted ban came back")
	}
}
