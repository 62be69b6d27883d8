package world

import "github.com/bcserver/bcserver/codec"

// StockIntegrityHashes are the per-species hashes stock clients send:
// constant per class because only property values feed the hash. The
// Akira's 0xFB37 is captured (vectors/session.json stateupdate_client_0x9d
// in a session whose ship is an Akira).
func StockIntegrityHashes() map[int]uint16 { return map[int]uint16{1: 0xFB37} }

// HashMismatch is a ship whose integrity hash (StateUpdate flag 0x01,
// simulation.md 4.4) differs from the reference of its species.
type HashMismatch struct {
	Ship    *Object
	Species int
	Hash    uint16 // what the owner sent
	Want    uint16 // the reference
}

// checkIntegrity compares an owner's integrity hash with the reference for
// its ship's species. The host cannot compute the stock hash (it needs
// property fields the data set lacks, simulation.md 4.4), so the reference
// is a known stock value or, for a species without one, the first hash a
// client sent for it in this game: a client whose ship properties differ
// from everyone else's stands out either way.
func (w *World) checkIntegrity(o *Object, m *codec.StateUpdate) (HashMismatch, bool) {
	// A ship the host has no model of is relayed only: no integrity check
	// (mods.md 4.3 rule 5).
	if !w.checkHash || !m.HasHash || o.Species == 0 || o.Model == nil || o.sim.hashChecked {
		return HashMismatch{}, false
	}
	o.sim.hashChecked = true // constant per ship: one check per ship is enough
	want, ok := w.integrity[o.Species]
	if !ok {
		w.integrity[o.Species] = m.Hash
		return HashMismatch{}, false
	}
	if m.Hash == want {
		return HashMismatch{}, false
	}
	w.stats.IntegrityMismatches.Add(1)
	return HashMismatch{Ship: o, Species: o.Species, Hash: m.Hash, Want: want}, true
}
