package ratings

import "math"

// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013,
// glicko.net/glicko/glicko2.pdf): a rating, its deviation (how sure we
// are of it) and its volatility (how erratic the player is). One match is
// one rating period: every player's new rating is computed from the
// ratings all players had before it.

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	R   float64 `json:"rating"`
	RD  float64 `json:"deviation"`
	Vol float64 `json:"volatility"`
}

// Initial is an unrated player's rating (the paper's defaults).
var Initial = Rating{R: 1500, RD: 350, Vol: 0.06}

// glickoScale converts between the Glicko and the Glicko-2 scales.
const glickoScale = 173.7178

// Result is one game of a rating period: the opponent's rating before it
// and the score (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opp   Rating
	Score float64
}

// Update returns r after the period's games; tau constrains the change in
// volatility (the paper suggests 0.3..1.2). No games only widens the
// deviation (step 6).
func Update(r Rating, games []Result, tau float64) Rating {
	mu := (r.R - 1500) / glickoScale
	phi := r.RD / glickoScale
	if len(games) == 0 {
		phi = math.Sqrt(phi*phi + r.Vol*r.Vol)
		return Rating{R: r.R, RD: math.Min(phi*glickoScale, Initial.RD), Vol: r.Vol}
	}
	// Steps 3 and 4: the estimated variance v and improvement delta.
	var vInv, sum float64
	for _, g := range games {
		muJ := (g.Opp.R - 1500) / glickoScale
		phiJ := g.Opp.RD / glickoScale
		gj := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-gj*(mu-muJ)))
		vInv += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility by the Illinois algorithm.
	a := math.Log(r.Vol * r.Vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	const eps = 0.000001
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > eps && i < 200; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	vol := math.Exp(A / 2)
	// Steps 6 to 8.
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{R: muNew*glickoScale + 1500, RD: phiNew * glickoScale, Vol: vol}
}
