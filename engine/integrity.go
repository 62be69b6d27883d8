package engine

import (
	"fmt"

	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// IntegrityPolicy is what the host does when a ship's subsystem integrity
// hash (StateUpdate flag 0x01, simulation.md 4.4) does not match. The
// world checks the hashes (world.StockIntegrityHashes are the known
// references); the policy is the engine's because it acts on the player.
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

// integrityMismatch applies the policy to a ship the world found with a
// foreign integrity hash: the world has counted it; the engine logs it and,
// under IntegrityBoot, boots the owner (reason 4, as stock).
func (g *Game) integrityMismatch(p *Player, mm world.HashMismatch) {
	g.log.Warn("ship integrity hash mismatch", "player", p.ID, "name", p.Name, "species", mm.Species,
		"hash", fmt.Sprintf("0x%04X", mm.Hash), "want", fmt.Sprintf("0x%04X", mm.Want))
	if g.cfg.Integrity == IntegrityBoot {
		g.Kick(p, bcnet.BootKicked)
	}
}
