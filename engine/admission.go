package engine

import (
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/bcserver/bcserver/engine/bans"
	"github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// spareTransportPeers is how many transport peers the host keeps beyond
// the player limit: a joiner past the limit still gets the connect reply
// and then the "server full" boot (handshake.md 2.1), and lingers until it
// ACKs that boot.
const spareTransportPeers = 8

// admit is net.Events.Admit (peerEvents). It runs before anything is allocated for
// the stranger, in the stock order (transport.md 4.5): the ban list
// (reason 5), then the password when one is set (reason 2). A game that
// is not taking players refuses with reason 2 as well; one still loading
// its mission leaves the connect unanswered (bcnet.BootLater).
func (g *Game) admit(addr netip.AddrPort, req *bcnet.ConnectRequest) bcnet.BootReason {
	if e, banned := g.bans.BannedAddr(addr.Addr()); banned {
		g.refused(addr, "banned", "ban", e.String())
		return bcnet.BootBanned
	}
	if g.fairBanned(addr.Addr()) {
		g.refused(addr, "banned for a while (fair play)")
		return bcnet.BootBanned
	}
	if !req.PasswordMatches(g.cfg.Password) {
		g.refused(addr, "wrong password", "sent_password", req.HasPassword())
		return bcnet.BootRefused
	}
	if g.unavailable != "" {
		g.refused(addr, "the game has no mission", "why", g.unavailable)
		return bcnet.BootRefused
	}
	if g.loading {
		// Moments after start: the client repeats its connect in about a
		// second, by when the mission runs (or the game says why not).
		return bcnet.BootLater
	}
	if !g.accepting || (g.running && !g.cfg.JoinInProgress) {
		g.refused(addr, "not accepting players")
		return bcnet.BootRefused
	}
	return bcnet.BootNone
}

// refused counts and logs a refused connect. A stock client repeats its
// connect about once a second, so the log says it at most once a second.
func (g *Game) refused(addr netip.AddrPort, why string, args ...any) {
	g.Stats.Refused.Add(1)
	if g.now.Sub(g.refusedLogAt) < time.Second {
		return
	}
	g.refusedLogAt = g.now
	g.log.Info("connect refused: "+why, append([]any{"addr", addr}, args...)...)
}

// freeSlot returns the lowest free player slot; the slot host objects
// carry in their owner byte is not free while any exists (opcodes.md 6).
func (g *Game) freeSlot() int {
	hostSlot, reserved := g.world.HostSlot()
	for i := 0; i < g.cfg.MaxPlayers; i++ {
		if g.bySlot[i] == nil && (!reserved || i != hostSlot) {
			return i
		}
	}
	return -1
}

// connected is net.Events.Connected (peerEvents): send checksum round 0, which leaves in
// the same datagram as the connect reply. Past the player limit the stock
// host boots the newcomer with reason 3 right after the reply
// (handshake.md 2.1). The player gets a slot only once it has answered
// the reply (Verified): a connect that never answers (a spoofed address, a
// flood of sessions) holds no slot and is forgotten by the transport.
func (g *Game) connected(peer *bcnet.Peer) {
	if g.freeSlot() < 0 || g.NumPlayers(false) >= g.cfg.MaxPlayers {
		g.Stats.Refused.Add(1)
		g.log.Info("server full", "addr", peer.Addr, "max_players", g.cfg.MaxPlayers)
		g.host.Boot(g.now, peer, bcnet.BootFull)
		return
	}
	p := &Player{Owner: world.Owner{ID: peer.ID, Slot: -1, Team: -1}, Addr: peer.Addr, State: StateChecksum, ConnectedAt: g.now, peer: peer}
	g.byID[p.ID] = p
	g.log.Debug("player connecting", "player", p.ID, "addr", p.Addr)
	g.sendRound(p, 0)
	if peer.Verified() {
		g.verified(peer)
	}
}

// verified is net.Verifier.Verified (peerEvents): the joiner answered its connect reply
// and takes the lowest free slot. If the game filled up meanwhile, or its
// address already has JoinsPerAddress players joining, it gets the stock
// "server full" boot (reason 3) as a joiner past the limit does.
func (g *Game) verified(peer *bcnet.Peer) {
	p := g.byID[peer.ID]
	if p == nil || p.peer != peer || p.Slot >= 0 {
		return
	}
	slot := g.freeSlot()
	if slot < 0 || g.NumPlayers(false) >= g.cfg.MaxPlayers {
		g.Stats.Refused.Add(1)
		g.log.Info("server full", "addr", peer.Addr, "max_players", g.cfg.MaxPlayers)
		g.host.Boot(g.now, peer, bcnet.BootFull)
		return
	}
	if n := g.joiningFrom(peer.Addr); g.cfg.JoinsPerAddress > 0 && n >= g.cfg.JoinsPerAddress {
		g.Stats.Refused.Add(1)
		g.log.Info("too many players joining from one address", "addr", peer.Addr, "joining", n)
		g.host.Boot(g.now, peer, bcnet.BootFull)
		return
	}
	p.Slot = slot
	g.bySlot[slot] = p
	g.log.Debug("player verified", "player", p.ID, "slot", slot, "addr", p.Addr)
	g.bus.emit(&PlayerConnected{Player: p})
}

// joiningFrom counts the players from addr's IP that hold a slot but are
// not in the game yet.
func (g *Game) joiningFrom(addr netip.AddrPort) int {
	n := 0
	for _, o := range g.bySlot {
		if o != nil && !o.InGame() && o.Addr.Addr() == addr.Addr() {
			n++
		}
	}
	return n
}

// identity is net.Events.Identity (peerEvents): the player's name from its identity
// message. A banned name is booted with reason 5: the name is only known
// here, after the connect reply (README, "Bans"). A name is data, never
// structure: one with control, line-break or bidi characters is cleaned
// (names.Clean) and the player is told its new name in Settings, as for a
// duplicate (handshake.md 2.5); the hostile form is never relayed. Once
// Settings has fixed the name, a change that clashes with another
// player's, or that needs cleaning, is not taken (and not relayed); the
// stock client only re-sends its identity to adopt a rename. A name that
// shows as nothing once cleaned (names.Empty) is refused.
func (g *Game) identity(peer *bcnet.Peer, id bcnet.Identity) bool {
	p := g.byID[peer.ID]
	if p == nil || p.peer != peer {
		return false
	}
	clean, changed := names.Clean(id.Name)
	if names.Empty(clean) {
		// Only invisible characters (zero widths, joiners): it would show
		// blank everywhere and be nobody's career. A joiner is refused
		// (the stock "connection refused"); a later change is not taken.
		if p.State != StateChecksum {
			g.log.Info("name change refused: it shows as nothing", "player", p.ID, "name", p.Name)
			return false
		}
		g.Stats.Refused.Add(1)
		g.log.Info("name shows as nothing, refusing", "player", p.ID, "name", strconv.QuoteToASCII(id.Name), "addr", p.Addr)
		g.host.Boot(g.now, peer, bcnet.BootRefused)
		return false
	}
	if e, banned := g.bans.BannedName(clean); banned {
		g.Stats.Refused.Add(1)
		g.log.Info("banned name, booting", "player", p.ID, "name", clean, "addr", p.Addr, "ban", e.String())
		g.host.Boot(g.now, peer, bcnet.BootBanned)
		return false
	}
	if p.State != StateChecksum {
		if changed {
			g.log.Info("name change refused: control or bidi characters", "player", p.ID, "name", p.Name, "wanted", clean)
			return false
		}
		if !names.Same(id.Name, p.Name) && g.nameTaken(id.Name, p) {
			g.log.Info("name change refused: in use", "player", p.ID, "name", p.Name, "wanted", id.Name)
			return false
		}
	}
	old := p.Name
	p.Name, p.nameCleaned = clean, changed
	if !changed && p.State != StateChecksum && old != p.Name {
		g.bus.emit(&PlayerRenamed{Player: p, Old: old})
	}
	if changed {
		g.Stats.NamesCleaned.Add(1)
		g.log.Info("name with control or bidi characters cleaned", "player", p.ID, "name", clean, "addr", p.Addr)
		return false
	}
	return true
}

// nameTaken reports whether another player whose name is settled (past
// the checksum rounds) has a name that looks like name (names.Same: NFKC,
// invisible characters dropped, A..Z folded as stock compares names).
func (g *Game) nameTaken(name string, except *Player) bool {
	key := names.Key(name)
	for _, o := range g.bySlot {
		if o != nil && o != except && (o.State == StateLoading || o.State == StateInGame) && names.Key(o.Name) == key {
			return true
		}
	}
	return false
}

// uniqueName returns p's name, or, when another player already has it, a
// new one: "Name (2)", "Name (3)", ... The stock format string is not
// recovered (handshake.md 2.5, 7); the name is cut so the result still
// fits an identity message.
func (g *Game) uniqueName(p *Player) (string, bool) {
	if !g.nameTaken(p.Name, p) {
		// A cleaned name is a rename too: the client still shows its own.
		return p.Name, p.nameCleaned
	}
	base := p.Name
	if base == "" {
		base = "Player"
	}
	for n := 2; ; n++ {
		suffix := " (" + strconv.Itoa(n) + ")"
		name := bcnet.TruncateName(base, bcnet.MaxNameUnits-len(suffix)) + suffix
		if !g.nameTaken(name, p) {
			return name, true
		}
	}
}

// Ban adds entry to the ban list file ("203.0.113.7", "203.0.113.255"
// for the whole /24 as stock, or "name:Griefer") and boots the connected
// players it matches with reason 5. Call it on the game goroutine.
func (g *Game) Ban(entry string) error {
	e, err := bans.Parse(entry)
	if err != nil {
		return err
	}
	added, err := g.bans.Add(e)
	if err != nil {
		return err
	}
	if added {
		g.log.Info("ban added", "ban", e.String(), "file", g.bans.Path())
	}
	for _, p := range g.Players() {
		if e.MatchAddr(p.Addr.Addr()) || e.MatchName(p.Name) {
			g.log.Info("booting banned player", "player", p.ID, "name", p.Name, "addr", p.Addr, "ban", e.String())
			g.host.Boot(g.now, p.peer, bcnet.BootBanned)
		}
	}
	return nil
}

// Unban removes entry from the ban list file. Bans from the configuration
// file cannot be lifted at run time.
func (g *Game) Unban(entry string) error {
	e, err := bans.Parse(entry)
	if err != nil {
		return err
	}
	removed, err := g.bans.Remove(e)
	if err != nil {
		return err
	}
	if !removed {
		return fmt.Errorf("%s is not in the ban list", e)
	}
	g.log.Info("ban lifted", "ban", e.String(), "file", g.bans.Path())
	return nil
}

// Bans returns every ban in force, those of the configuration first.
func (g *Game) Bans() []string {
	var out []string
	for _, e := range g.bans.Entries() {
		out = append(out, e.String())
	}
	return out
}
