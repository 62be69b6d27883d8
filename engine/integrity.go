package engine

import (
	"fmt"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// IntegrityPolicy is what the host does when a ship's subsystem integrity
// hash (StateUpdate flag 0x01, simulation.md 4.4) does not match.
type IntegrityPolicy string

// Integrity policies.
const (
	IntegrityOff  IntegrityPolicy = "off"  // do not check
	IntegrityLog  IntegrityPolicy = "log"  // log and count the mismatch
	IntegrityBoot IntegrityPolicy = "boot" // boot the player (the stock reaction, reason 4)
)

// ParseIntegrityPolicy parses a configuration value.
func ParseIntegrityPolicy(s string) (IntegrityPolicy, error) {
	switch p := IntegrityPolicy(s); p {
	case IntegrityOff, IntegrityLog, IntegrityBoot:
		return p, nil
	}
	return "", fmt.Errorf("integrity policy %q: want off, log or boot", s)
}

// StockIntegrityHashes are the per-species hashes stock clients send:
// constant per class because only property values feed the hash. The
// Akira's 0xFB37 is captured (vectors/session.json stateupdate_client_0x9d
// in a session whose ship is an Akira).
func StockIntegrityHashes() map[int]uint16 { return map[int]uint16{1: 0xFB37} }

// checkIntegrity compares a client's integrity hash with the reference for
// its ship's species. The host cannot compute the stock hash (it needs
// property fields the data set lacks, simulation.md 4.4), so the reference
// is a known stock value or, for a species without one, the first hash a
// client sent for it in this game: a client whose ship properties differ
// from everyone else's stands out either way.
func (g *Game) checkIntegrity(p *Player, o *Object, m *codec.StateUpdate) {
	if g.cfg.Integrity == IntegrityOff || g.cfg.Integrity == "" || !m.HasHash || o.Species == 0 || o.sim.hashChecked {
		return
	}
	o.sim.hashChecked = true // constant per ship: one check per ship is enough
	want, ok := g.integrity[o.Species]
	if !ok {
		g.integrity[o.Species] = m.Hash
		return
	}
	if m.Hash == want {
		return
	}
	g.Stats.IntegrityMismatches.Add(1)
	g.log.Warn("ship integrity hash mismatch", "player", p.ID, "name", p.Name, "species", o.Species,
		"hash", fmt.Sprintf("0x%04X", m.Hash), "want", fmt.Sprintf("0x%04X", want))
	if g.cfg.Integrity == IntegrityBoot {
		g.Kick(p, bcnet.BootKicked)
	}
}
