package admin

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Requests with a wrong token are refused every time but logged at most
// once per badTokenEvery, so a caller without the token cannot flood the
// log or the console's tail; the next line says how many went unlogged.
func TestWrongTokenLogThrottled(t *testing.T) {
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	now := time.Unix(1e9, 0)
	tail := NewTail(100)
	a, err := New(Options{Server: srv, Token: "secret", Logger: slog.New(tail.Handler(slog.DiscardHandler)), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(auth string) int {
		r := httptest.NewRequest(http.MethodGet, "/api/v1/status", nil)
		r.Header.Set("Authorization", auth)
		w := httptest.NewRecorder()
		a.ServeHTTP(w, r)
		return w.Code
	}
	warnings := func() (n int, last string) {
		for _, l := range tail.Last(0) {
			if strings.Contains(l.Message, "wrong token") {
				n, last = n+1, l.Attrs
			}
		}
		return n, last
	}
	for range 50 {
		if code := ask("Bearer guess"); code != http.StatusUnauthorized {
			t.Fatalf("wrong token answered %d", code)
		}
	}
	if n, _ := warnings(); n != 1 {
		t.Fatalf("%d warnings for 50 wrong tokens in one instant", n)
	}
	now = now.Add(badTokenEvery)
	ask("Bearer guess")
	if n, last := warnings(); n != 2 || !strings.Contains(last, "unlogged_before=49") {
		t.Fatalf("%d warnings after the interval, last %q", n, last)
	}
	if ask("") != http.StatusUnauthorized {
		t.Fatal("no token accepted")
	}
	if n, _ := warnings(); n != 2 {
		t.Fatal("a request with no token at all was logged")
	}
}
