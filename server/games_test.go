package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/plugins/admin"
)

func intp(v int) *int            { return &v }
func strp(v string) *string      { return &v }
func boolp(v bool) *bool         { return &v }
func listp(v []string) *[]string { return &v }

// [[games]] tables take the top-level values for what they leave out;
// -games copies the top-level game on consecutive ports.
func TestGamesExpansion(t *testing.T) {
	c := DefaultConfig()
	c.Server.Port = 23000
	c.Server.Name = "Top"
	c.Mission["time_limit"] = int64(10)
	c.Games = []GameTable{
		{Port: intp(23001), Name: strp("Duel"), MaxPlayers: intp(2), Mission: MissionSection{"frag_limit": int64(5)}},
		{Port: intp(23002), Mode: strp("team-deathmatch"), Password: strp("pw"), JoinInProgress: boolp(false), Addons: listp([]string{"motd"})},
	}
	gs, err := c.games()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 {
		t.Fatalf("%d games", len(gs))
	}
	a, b := gs[0], gs[1]
	if a.Server.Port != 23001 || a.Server.Name != "Duel" || a.Server.MaxPlayers != 2 || a.Game.Mode != "deathmatch" ||
		a.Mission["frag_limit"] != int64(5) || a.Mission["time_limit"] != int64(10) {
		t.Fatalf("game 1: %+v %+v %v", a.Server, a.Game, a.Mission)
	}
	if b.Server.Port != 23002 || b.Server.Name != "Top" || b.Server.MaxPlayers != 8 || b.Game.Mode != "team-deathmatch" ||
		b.Server.Password != "pw" || b.Game.JoinInProgress || len(b.Game.Addons) != 1 || b.Mission["frag_limit"] != int64(-1) {
		t.Fatalf("game 2: %+v %+v %v", b.Server, b.Game, b.Mission)
	}
	if c.Mission["frag_limit"] != int64(-1) {
		t.Fatal("a game's [mission] keys leaked into the top level")
	}
	for _, g := range gs {
		if _, err := g.Runtime(); err != nil {
			t.Fatal(err)
		}
	}
	// Two tables on one port, -games with tables, -games from port 0.
	c.Games[1].Port = intp(23001)
	if _, err := c.games(); err == nil || !strings.Contains(err.Error(), "both use") {
		t.Fatalf("duplicate port: %v", err)
	}
	c.copies = 3
	if _, err := c.games(); err == nil {
		t.Fatal("-games with [[games]] tables accepted")
	}
	c.Games = nil
	gs, err = c.games()
	if err != nil || len(gs) != 3 || gs[0].Server.Port != 23000 || gs[2].Server.Port != 23002 {
		t.Fatalf("-games 3: %v %d", err, len(gs))
	}
	c.Server.Port = 0
	if _, err := c.games(); err == nil {
		t.Fatal("-games from port 0 accepted")
	}
}

// The TOML form, with an unknown key refused by name.
func TestGamesTOML(t *testing.T) {
	var c Config
	err := decodeStrict([]byte("[[games]]\nport = 22102\nname = \"B\"\n[games.mission]\nfrag_limit = 3\n[[games]]\nport = 22103\n"), &c)
	if err != nil || len(c.Games) != 2 || *c.Games[0].Port != 22102 || c.Games[0].Mission["frag_limit"] != int64(3) || c.Games[1].Name != nil {
		t.Fatalf("%v %+v", err, c.Games)
	}
	if err := decodeStrict([]byte("[[games]]\nprot = 1\n"), &c); err == nil || !strings.Contains(err.Error(), "games.prot") {
		t.Fatalf("unknown key: %v", err)
	}
}

// Two games in one process: each takes its own players, the admin API
// lists both and serves each under its prefix, /metrics labels the
// series by game, and one game's failure leaves the other playing.
func TestTwoGamesOneProcess(t *testing.T) {
	var s *served
	a := serveAdmin(t, func(uc *Config) {
		uc.Games = []GameTable{{Port: intp(0), Name: strp("One")}, {Port: intp(0), Name: strp("Two"), MaxPlayers: intp(2)}}
	})
	s = a.s
	if len(s.games) != 2 {
		t.Fatalf("%d games", len(s.games))
	}
	one, two := s.games[0], s.games[1]
	r2 := &running{srv: two.srv, host: two.missions.current(), logs: a.logs}
	b1 := a.join(t, "P1")
	b2 := r2.join(t, "P2")
	defer b1.Close()
	defer b2.Close()
	count := func(u *Game) (n int) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := u.srv.Do(ctx, func(g *engine.Game) { n = g.NumPlayers(true) }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(one) != 1 || count(two) != 1 {
		t.Fatal("each game should hold its own player")
	}
	var list []admin.GameInfo
	if st := a.call(t, "GET", "/games", testToken, nil, &list); st != 200 || len(list) != 2 || list[1].Name != "Two" || list[1].MaxPlayers != 2 || list[0].Players != 1 {
		t.Fatalf("GET /games: %d %+v", st, list)
	}
	if st := a.call(t, "GET", "/games", "wrong-token-0123456789", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("GET /games with a wrong token: %d", st)
	}
	var status map[string]any
	if st := a.call(t, "GET", "/games/"+two.label+"/api/v1/status", testToken, nil, &status); st != 200 {
		t.Fatalf("second game's status: %d", st)
	}
	resp, err := http.Get(a.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, l := range []string{`game="` + one.label + `"`, `game="` + two.label + `"`} {
		if !strings.Contains(string(body), l) {
			t.Fatalf("/metrics has no series with %s", l)
		}
	}
	// A bug in game two (here a panic on its goroutine) ends game two only.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := two.srv.Do(ctx, func(*engine.Game) { panic("boom") }); err == nil {
		t.Fatal("the failed game still answered")
	}
	<-two.srv.Done()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := b2.WaitState(wctx, bot.Closed); err != nil || !b2.ServerShutDown() {
		t.Fatalf("the failed game's player was not told: %v", err)
	}
	if count(one) != 1 {
		t.Fatal("game one lost its player")
	}
	b3 := a.join(t, "P3")
	defer b3.Close()
	if count(one) != 2 {
		t.Fatal("game one stopped taking players")
	}
	if !strings.Contains(a.logs.String(), "game failed") {
		t.Fatal("the failure was not logged")
	}
}

// The commented [[games]] example at the end of the default configuration
// is a working configuration once uncommented.
func TestDefaultConfigGamesExample(t *testing.T) {
	s := string(defaultTOML())
	i := strings.Index(s, "# [[games]]")
	if i < 0 {
		t.Fatal("no [[games]] example in default.toml")
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, l := range strings.Split(s[i:], "\n") {
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
		b.WriteString("\n")
	}
	c := DefaultConfig()
	if err := decodeStrict([]byte(b.String()), &c); err != nil {
		t.Fatalf("%v\n%s", err, b.String()[i:])
	}
	gs, err := c.games()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 || gs[0].Server.Port != 22101 || gs[1].Server.Name != "Duel" || gs[1].Server.MaxPlayers != 2 || gs[1].Mission["frag_limit"] != int64(5) {
		t.Fatalf("games %+v", gs)
	}
}
