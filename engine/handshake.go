package engine

import (
	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	bcnet "github.com/bcserver/bcserver/net"
)

// playerListTarget is the target object id the stock host writes in its
// 0x17 player-list events. Captures show session-specific engine-local ids
// (0x64F, 0x791); their meaning is open (handshake.md 7) and clients act on
// the event code and peer id, so the first captured value is used.
const playerListTarget = 0x0000064F

func (g *Game) sendRound(p *Player, i int) {
	p.round = i
	p.deadline = g.now.Add(g.cfg.RoundTimeout)
	g.buf = g.requests[i].AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
}

func (g *Game) checksumResponse(p *Player, payload []byte) {
	req := g.requests[p.round]
	resp, err := codec.DecodeChecksumResponse(payload)
	if err == nil && resp.Round != req.Round {
		g.dropHandshake(p, payload[0], "response for another round")
		return
	}
	var res checksum.Result
	if err != nil {
		// A response that does not parse cannot be checked: refuse it as a
		// directory mismatch so the client learns which request failed.
		g.Stats.Malformed.Add(1)
		res = checksum.Result{Round: req.Round, Opcode: codec.OpChecksumFailFile, File: req.Dir, Reason: err.Error()}
	} else if req.Round == checksum.FinalRound {
		// Round 0xFF never fails in stock: its differences become pushed
		// files, or in verify mode a refusal (finalRound; mods.md 5.10).
		res = checksum.Result{OK: true, Round: req.Round}
	} else {
		res = g.manifest.CheckPolicy(req, resp, checksum.Policy{Mode: g.cfg.Validation, RequirePresent: g.cfg.RequireFiles})
	}
	for _, m := range res.Soft {
		g.log.Warn("unverified content hash differs (accepted)", "player", p.ID, "name", p.Name, "round", req.Round, "file", m.String())
	}
	if err != nil || !res.OK {
		g.rejectPlayer(p, res)
		return
	}
	if p.round+1 < len(g.requests) {
		g.sendRound(p, p.round+1)
		return
	}
	g.finalRound(p, resp)
}

// rejectPlayer sends the stock checksum-failure reply: 0x22 naming the
// file, or 0x23 carrying the version string "60" (handshake.md 2.4). The
// stock host does not drop the peer; the client leaves by itself with a
// 0x05. A client that does not is booted after RejectLinger, or times out.
func (g *Game) rejectPlayer(p *Player, res checksum.Result) {
	g.Stats.ChecksumFailures.Add(1)
	g.log.Warn("checksum validation failed", "player", p.ID, "name", p.Name, "addr", p.Addr,
		"round", res.Round, "file", res.File, "reason", res.Reason)
	g.buf = res.Reply().AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
	p.State = StateRejected
	p.deadline = g.now.Add(g.cfg.RejectLinger)
	g.bus.emit(&ChecksumFailed{Player: p, Round: res.Round, File: res.File, Reason: res.Reason})
}

// validated sends 0x28, Settings and GameInit: three reliable messages
// that leave in one datagram (handshake.md 2.5).
func (g *Game) validated(p *Player) {
	// The stock host raises "checksum complete" as a deferred event, so the
	// ACK of the last response has left in its own datagram before the
	// bundle is built; the captured bundle holds exactly the three messages.
	g.host.FlushPeer(g.now, p.peer)
	p.State = StateLoading
	p.deadline = g.now.Add(g.cfg.JoinTimeout)
	g.buf = codec.TransferDone{}.AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
	// A name another player already has is changed before Settings, which
	// tells the client (bit 2 + the new name); the client adopts it and
	// re-sends its identity, which the transport relays (handshake.md 2.5).
	name, renamed := g.uniqueName(p)
	if renamed {
		g.Stats.Renamed.Add(1)
		g.log.Info("name in use, player renamed", "player", p.ID, "name", p.Name, "new_name", name)
		p.Name = name
	}
	g.buf = codec.Settings{
		GameTime:        g.GameTime(),
		CollisionDamage: g.cfg.CollisionDamage,
		HostModem:       false, // a dedicated server is not on a dial-up modem
		Slot:            uint8(p.Slot),
		Map:             []byte(g.cfg.Mission.Script),
		NameChanged:     renamed,
		NewName:         name,
	}.AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
	g.buf = codec.GameInit{}.AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
	g.log.Debug("player validated", "player", p.ID, "name", p.Name)
}

// newPlayerInGame runs the stock answer to the client's 0x2A in its order
// (missions.md 3.3): the mission's join sync, then the player-list events,
// then membership in the broadcast group, then the in-game event.
func (g *Game) newPlayerInGame(p *Player, payload []byte) {
	if m, err := codec.DecodeNewPlayerInGame(payload); err != nil {
		g.Stats.Malformed.Add(1)
		g.log.Debug("malformed NewPlayerInGame accepted", "player", p.ID, "err", err)
	} else {
		p.modem = m.Modem // the client's "using modem" flag (handshake.md 2.6)
	}
	g.bus.emit(&PlayerJoined{Player: p})
	g.replicateTo(p)
	// The newcomer learns every player already in the game, then itself;
	// the others learn the newcomer.
	for _, o := range g.sortedInGame(p) {
		g.buf = codec.PlayerListEvent{Code: codec.EventNewPlayerInGame, Target: playerListTarget, PeerID: o.ID}.AppendTo(g.buf[:0])
		_ = g.send(p, g.buf, true)
	}
	g.buf = codec.PlayerListEvent{Code: codec.EventNewPlayerInGame, Target: playerListTarget, PeerID: p.ID}.AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
	g.SendInGame(g.buf, p)
	p.State = StateInGame
	p.JoinedAt = g.now
	g.Stats.Joins.Add(1)
	g.log.Info("player joined", "player", p.ID, "name", p.Name, "slot", p.Slot, "addr", p.Addr)
	g.bus.emit(&PlayerInGame{Player: p})
}

// checkDeadlines drops players whose handshake step ran out of time and
// rejected players that did not leave by themselves.
func (g *Game) checkDeadlines() {
	for _, p := range g.bySlot {
		if p == nil || p.InGame() || p.deadline.IsZero() || g.now.Before(p.deadline) {
			continue
		}
		switch p.State {
		case StateRejected:
			g.host.Boot(g.now, p.peer, bcnet.BootKicked)
		case StateChecksum:
			g.Stats.Timeouts.Add(1)
			if ps := p.push; ps != nil {
				g.log.Info("file push timed out", "player", p.ID, "name", p.Name, "file", ps.files[ps.next-1].Path,
					"sent", ps.next, "of", len(ps.files))
			} else {
				g.log.Info("checksum round timed out", "player", p.ID, "name", p.Name, "round", g.requests[p.round].Round)
			}
			g.host.Boot(g.now, p.peer, bcnet.BootTimedOut)
		case StateLoading:
			g.Stats.Timeouts.Add(1)
			g.log.Info("no NewPlayerInGame after Settings", "player", p.ID, "name", p.Name)
			g.host.Boot(g.now, p.peer, bcnet.BootTimedOut)
		}
	}
}
