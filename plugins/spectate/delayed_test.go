package spectate_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/plugins/spectate"
)

func getView(t *testing.T, s *spectate.Server) spectate.View {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/api/view", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("view: %d %s", w.Code, w.Body)
	}
	var v spectate.View
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func shipAt(v spectate.View, id int32) ([3]float32, bool) {
	for _, s := range v.Frame.Ships {
		if s.ID == id {
			return s.Pos, true
		}
	}
	return [3]float32{}, false
}

// The spectator page shows a ship only once the delay has passed since it
// appeared, and shows it where it was then, not where it is now (fake
// clock: the game advances, nothing sleeps).
func TestSpectatorSeesShipsOnlyAfterTheDelay(t *testing.T) {
	w, err := missiontest.NewMatch(missiontest.Options{Mode: "deathmatch", FS: missions.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sp := spectate.NewSpectator("22101", spectate.DefaultDelay)
	if err := w.Game.AddPlugin(capture.NewCapture(capture.CaptureOptions{Game: "22101"}, sp)); err != nil {
		t.Fatal(err)
	}
	srv := spectate.New(spectate.Options{Spectators: []*spectate.Spectator{sp}, Now: func() time.Time { return w.Now }})
	alice, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)
	ship, err := alice.Spawn(5, [3]float32{100, 20, 0})
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(29 * time.Second)
	if p, ok := shipAt(getView(t, srv), ship); ok {
		t.Fatalf("29 s after the spawn the spectators see the ship at %v", p)
	}
	w.Advance(1500 * time.Millisecond)
	v := getView(t, srv)
	p, ok := shipAt(v, ship)
	if !ok || p != [3]float32{100, 20, 0} {
		t.Fatalf("30.5 s after the spawn: ship %v at %v; view %+v", ok, p, v.Frame)
	}
	if !v.Live || len(v.Frame.Players) != 1 || v.Frame.Players[0].Name != "Alice" {
		t.Fatalf("view %+v", v)
	}
	// It moves; the spectators see the old place for the delay.
	if err := alice.Move([3]float32{-50, 80, 10}, [3]float32{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	w.Advance(29 * time.Second)
	if p, _ := shipAt(getView(t, srv), ship); p != [3]float32{100, 20, 0} {
		t.Fatalf("29 s after the move the spectators see %v", p)
	}
	w.Advance(1500 * time.Millisecond)
	if p, _ := shipAt(getView(t, srv), ship); p != [3]float32{-50, 80, 10} {
		t.Fatalf("30.5 s after the move the spectators see %v", p)
	}
}
