// Package fairplay is the host's plausibility rules (README, "Fair play"):
// what no stock client can do, each rule named (Rule) with every tolerance
// it allows in one place (Tolerances), and what happens to a player who
// breaks one (Policy, Ledger).
//
// In Bridge Commander each client is the authority for its own ship's
// movement and starts its own weapon fire (simulation.md 1). The host
// cannot correct either; it can only notice what a stock client could not
// have sent and refuse to pass it on. The hard part is the honest player on
// a lossy, jittery link, whose updates arrive late and in bursts: every
// tolerance here errs on that player's side, and says what it covers.
//
// The package knows nothing of sessions or the network. The world judges
// shots and movement with the Tolerances (it owns charge, reload, ammo,
// arcs and positions); the engine keeps each player's Ledger and message
// Rates and acts on the verdicts.
package fairplay
