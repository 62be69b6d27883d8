package missiontest

import (
	"database/sql"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/server"
)

// seedRatings writes ratings into a new store file before the server
// opens it.
func seedRatings(t *testing.T, family string, rs map[string]ratings.Rating) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bc.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := ratings.OpenBook(db)
	if err != nil {
		t.Fatal(err)
	}
	var es []ratings.Entry
	for name, r := range rs {
		es = append(es, ratings.Entry{Account: name, Family: family, Season: ratings.SeasonOf("month", Epoch), Rating: r, Matches: 10})
	}
	b.Set(es)
	b.Wait()
	return path
}

func ratedMatch(t *testing.T, mode string, fsys fs.FS, db string, balance bool) (*Match, chan struct{}) {
	t.Helper()
	done := make(chan struct{}, 64)
	w, err := NewMatch(Options{Mode: mode, FS: fsys,
		Configure: func(c *server.Config) {
			c.Store.Path = db
			c.Record.Enabled = false
			c.Accounts.Enabled = true
			c.Ratings.Enabled, c.Ratings.Balance = true, balance
		},
		Server: func(o *server.Options) {
			o.Accounts = func(ro *accounts.RegistryOptions) {
				ro.KDF = &accounts.KDF{Time: 1, MemKiB: 64, Threads: 1}
				ro.Done = func() { done <- struct{}{} }
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w, done
}

// joinRated joins bots that register accounts under their names.
func joinRated(t *testing.T, w *Match, done chan struct{}, names ...string) []*Bot {
	t.Helper()
	var bots []*Bot
	for _, n := range names {
		b, err := w.Join(n)
		if err != nil {
			t.Fatal(err)
		}
		say(t, w, b, "!register pw-"+n+"-secret", done)
		if p := player(w, b); p.Account != n {
			t.Fatalf("%s not logged in\n%s", n, w.Logs())
		}
		bots = append(bots, b)
	}
	return bots
}

// Eight rated players on a team mode with [ratings] balance: at the
// match start the server splits them 4 against 4 with the smallest gap
// between the teams' rating sums there is, the mission's tables and
// every client follow (TEAM 0x41 from the host), and a player who picks
// the other team is held to his assignment.
func TestBalancedTeams(t *testing.T) {
	rs := map[string]float64{"P1": 2100, "P2": 1950, "P3": 1800, "P4": 1720, "P5": 1600, "P6": 1480, "P7": 1390, "P8": 1200}
	seed := map[string]ratings.Rating{}
	for n, r := range rs {
		seed[n] = ratings.Rating{R: r, RD: 60, Vol: 0.06}
	}
	db := seedRatings(t, ratings.FamilyTeam, seed)
	w, done := ratedMatch(t, "team-deathmatch", missions.FS(), db, true)
	bots := joinRated(t, w, done, "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
	w.Game.RestartGame() // the next match starts
	w.Advance(time.Second)
	var list []float64
	teams := make([]int, 0, 8)
	count := 0
	for _, b := range bots {
		p := player(w, b)
		list = append(list, rs[p.Name])
		teams = append(teams, p.Team)
		count += p.Team
	}
	if count != 4 {
		t.Fatalf("teams %v", teams)
	}
	got := ratings.SumDiff(list, teams)
	want := bruteMinDiff(list)
	if math.Abs(got-want) > 1e-9 {
		t.Fatalf("rating sums differ by %v; the smallest margin is %v (teams %v)", got, want, teams)
	}
	// Every client heard each player's team from the host.
	heard := map[int32]uint8{}
	for _, m := range bots[7].Take() {
		if m[0] == codec.OpTeam {
			if tm, err := codec.DecodeTeam(m); err == nil {
				heard[tm.Player] = tm.Team
			}
		}
	}
	for i, b := range bots {
		if heard[int32(b.ID())] != uint8(teams[i]) {
			t.Fatalf("P8 heard %v, teams %v", heard, teams)
		}
	}
	// P1 picks the other team: the assignment holds.
	other := uint8(1 - teams[0])
	if err := bots[0].Team(other); err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)
	if player(w, bots[0]).Team != teams[0] {
		t.Fatal("P1 left his assigned team")
	}
	t.Logf("teams %v, margin %v", teams, got)
}

func bruteMinDiff(rs []float64) float64 {
	best := math.Inf(1)
	for mask := 0; mask < 1<<len(rs); mask++ {
		var s [2]float64
		c := 0
		for i, r := range rs {
			if mask&(1<<i) != 0 {
				s[0] += r
				c++
			} else {
				s[1] += r
			}
		}
		if c == len(rs)/2 {
			best = math.Min(best, math.Abs(s[0]-s[1]))
		}
	}
	return best
}

// A free-for-all of four rated players whose ratings are those of
// Glickman's worked example: Ann (1500, RD 200) finishes above Ben (1400,
// RD 30) and below Cid (1550, RD 100) and Dee (1700, RD 300), so her
// match is the example's period — and her new rating is the paper's:
// 1464.06, RD 151.52, volatility 0.05999.
func TestRatingsFollowGlickmansExample(t *testing.T) {
	db := seedRatings(t, ratings.FamilyFFA, map[string]ratings.Rating{
		"Ann": {R: 1500, RD: 200, Vol: 0.06}, "Ben": {R: 1400, RD: 30, Vol: 0.06},
		"Cid": {R: 1550, RD: 100, Vol: 0.06}, "Dee": {R: 1700, RD: 300, Vol: 0.06},
	})
	w, done := ratedMatch(t, "m", accountsMission, db, false)
	bots := joinRated(t, w, done, "Ann", "Ben", "Cid", "Dee")
	for i, b := range bots {
		say(t, w, b, fmt.Sprintf("!score %d", []int{20, 10, 30, 40}[i]), nil)
	}
	say(t, w, bots[0], "!end", nil)
	w.Settle()
	say(t, w, bots[0], "!rating", nil)
	r := map[string]any{}
	if t, ok := w.Runtime.StorageGet("rating").(*lua.Table); ok {
		for _, kv := range *t {
			r[fmt.Sprint(kv.Key)] = kv.Value
		}
	}
	if len(r) == 0 {
		t.Fatalf("bc.rating: %#v\n%s", w.Runtime.StorageGet("rating"), w.Logs())
	}
	for _, c := range []struct {
		key       string
		want, tol float64
	}{{"rating", 1464.06, 0.01}, {"deviation", 151.52, 0.01}, {"volatility", 0.05999, 0.00001}} {
		if got, _ := r[c.key].(float64); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s %v, want %v", c.key, r[c.key], c.want)
		}
	}
	if fmt.Sprint(r["matches"]) != "11" {
		t.Errorf("matches %v", r["matches"])
	}
}
