package ratings

import (
	"math"
	"testing"
)

// Glickman's worked example ("Example of the Glicko-2 system", section
// "Example calculation"): a player rated 1500, RD 200, volatility 0.06
// plays three games in a period with tau = 0.5: wins against 1400 (RD
// 30), loses to 1550 (RD 100) and to 1700 (RD 300). The paper's result is
// r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
func TestGlickmanExample(t *testing.T) {
	got := Update(Rating{R: 1500, RD: 200, Vol: 0.06}, glickmanGames, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Vol, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s %.5f, want %.5f", c.name, c.got, c.want)
		}
	}
}

var glickmanGames = []Result{
	{Opp: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
	{Opp: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
	{Opp: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
}

// A period without games leaves the rating and widens the deviation
// (step 6), never past the initial 350.
func TestNoGamesWidensDeviation(t *testing.T) {
	r := Update(Rating{R: 1600, RD: 100, Vol: 0.06}, nil, 0.5)
	if r.R != 1600 || !(r.RD > 100 && r.RD < 101) {
		t.Fatalf("%+v", r)
	}
	if r := Update(Initial, nil, 0.5); r.RD != 350 {
		t.Fatalf("%+v", r)
	}
}
