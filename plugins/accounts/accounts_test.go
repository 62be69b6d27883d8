package accounts

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

var cheap = &KDF{Time: 1, MemKiB: 64, Threads: 1}

// A hash verifies its password only; a stored hash that asks for absurd
// parameters (a tampered row) is refused before any work is done.
func TestKDF(t *testing.T) {
	h, err := cheap.hash([]byte("correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatal(h)
	}
	for _, tc := range []struct {
		hash, pw string
		ok       bool
		err      bool
	}{
		{h, "correct horse", true, false},
		{h, "correct horsE", false, false},
		{h, "", false, false},
		{strings.Replace(h, "m=64", "m=4194304", 1), "correct horse", false, true},
		{strings.Replace(h, "t=1", "t=999", 1), "correct horse", false, true},
		{strings.Replace(h, "argon2id", "argon2i", 1), "correct horse", false, true},
		{"$argon2id$v=19$m=64,t=1,p=1$$", "x", false, true},
		{"garbage", "x", false, true},
	} {
		ok, err := verify(tc.hash, []byte(tc.pw))
		if ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("verify(%q, %q) = %v, %v", tc.hash, tc.pw, ok, err)
		}
	}
}

func openRegistry(t *testing.T, sec Section) (*Registry, chan struct{}) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	done := make(chan struct{}, 64)
	r, err := OpenRegistry(RegistryOptions{DB: db, Section: sec, KDF: cheap, Done: func() { done <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, done
}

// Wrong passwords lock the account for lockout, from any address; the
// right password is refused while it is locked and works after.
func TestRegistryLockout(t *testing.T) {
	r, done := openRegistry(t, Section{Attempts: 3, Lockout: 5 * 60e9})
	now := time.Unix(1000, 0)
	var regErr error
	if err := r.Register("Alice", []byte("secret1"), now, func(err error) { regErr = err }); err != nil {
		t.Fatal(err)
	}
	<-done
	if regErr != nil {
		t.Fatal(regErr)
	}
	if name, ok := r.Lookup("ALICE"); !ok || name != "Alice" {
		t.Fatalf("lookup %q %v", name, ok)
	}
	var got []bool
	check := func(pw string) {
		if err := r.Verify("alice", []byte(pw), now, func(_ string, ok bool) { got = append(got, ok) }); err != nil {
			t.Fatal(err)
		}
		<-done
	}
	for range 3 {
		check("nope")
	}
	if !r.Locked("Alice", now) || r.Locked("Alice", now.Add(6*time.Minute)) {
		t.Fatal("lockout")
	}
	check("secret1")
	if len(got) != 4 || !got[3] {
		t.Fatalf("%v", got)
	}
	// Registering a taken name fails on the worker too.
	if err := r.Register("alice", []byte("other"), now, func(err error) { regErr = err }); err != nil {
		t.Fatal(err)
	}
	<-done
	if regErr != ErrTaken {
		t.Fatalf("%v", regErr)
	}
}

// A flood of logins cannot queue unbounded key derivations: beyond the
// worker's short queue they are refused at once.
func TestRegistryQueueBounded(t *testing.T) {
	r, done := openRegistry(t, Section{Attempts: 1000, Lockout: 1})
	block, started := make(chan struct{}), make(chan struct{})
	if err := r.submit(func() { close(started); <-block }); err != nil {
		t.Fatal(err)
	}
	<-started // the worker is busy; its queue is empty
	busy := 0
	for range 100 {
		if r.Verify("x", []byte("y"), time.Unix(0, 0), func(string, bool) {}) == ErrBusy {
			busy++
		}
	}
	close(block)
	if busy != 100-workQueue {
		t.Fatalf("%d refused", busy)
	}
	for range workQueue + 1 {
		<-done
	}
}
