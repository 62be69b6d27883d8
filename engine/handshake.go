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

// message is net.Events.Message (peerEvents): one game-layer message from a peer,
// handled according to the sender's join state.
func (g *Game) message(peer *bcnet.Peer, payload []byte, reliable bool) {
	p := g.byID[peer.ID]
	if p == nil || len(payload) == 0 {
		g.Stats.Malformed.Add(1)
		return
	}
	op := payload[0]
	switch p.State {
	case StateChecksum:
		switch {
		case op == codec.OpFileTransferAck:
			g.fileAck(p, payload)
		case op != codec.OpChecksumResponse:
			g.dropHandshake(p, op, "game message before validation")
		case p.push != nil:
			g.dropHandshake(p, op, "checksum response during the file push")
		default:
			g.checksumResponse(p, payload)
		}
	case StateLoading:
		if op != codec.OpNewPlayerInGame {
			g.dropHandshake(p, op, "game message before NewPlayerInGame")
			return
		}
		g.newPlayerInGame(p, payload)
	case StateInGame:
		g.gameMessage(p, payload, reliable)
	default:
		g.dropHandshake(p, op, "message from a rejected player")
	}
}

func (g *Game) dropHandshake(p *Player, op byte, why string) {
	g.Stats.HandshakeDropped.Add(1)
	g.log.Debug("message dropped", "player", p.ID, "state", p.State, "opcode", codec.OpcodeName(op), "why", why)
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

// gameMessage handles a message from an in-game player: chat to the core
// relay, other script messages to the mission layer, engine opcodes to the
// routing table.
func (g *Game) gameMessage(p *Player, payload []byte, reliable bool) {
	if !g.allow(p, len(payload)) {
		return
	}
	op := payload[0]
	switch {
	case op == codec.OpChat || op == codec.OpTeamChat:
		g.chat(p, payload)
	case codec.IsScriptOpcode(op):
		g.scriptMessage(p, payload)
	default:
		g.route(p, payload, reliable)
	}
}

// left is net.Events.Left (peerEvents): the leave procedure (handshake.md 5).
func (g *Game) left(peer *bcnet.Peer, reason bcnet.LeaveReason) {
	p := g.byID[peer.ID]
	if p == nil || p.peer != peer {
		return
	}
	g.byID[p.ID] = nil
	p.push = nil // a push in progress ends with its peer (mods.md 5.10 rule 8)
	if p.Slot < 0 {
		// It never answered its connect reply: nobody, missions included,
		// heard of it.
		p.State = 0
		g.log.Debug("connect never answered", "player", p.ID, "addr", p.Addr, "reason", reason)
		return
	}
	g.bySlot[p.Slot] = nil
	wasInGame := p.InGame()
	why := leaveReason(reason, p.State)
	// At shutdown every client has its own notice and nobody is told of
	// the others (transport.md 10.4).
	if wasInGame && reason != bcnet.LeftShutdown {
		g.world.RemoveOwner(&p.Owner)
		g.buf = codec.PlayerListEvent{Code: codec.EventPlayerLeft, PeerID: p.ID}.AppendTo(g.buf[:0])
		g.SendInGame(g.buf, nil)
		// Stock clients look the "has left" text up in a TGL file and crash
		// on an empty name, so never send one without a name.
		if name := Name8(p.Name); len(name) > 0 {
			g.buf = codec.DeletePlayerAnim{Name: name}.AppendTo(g.buf[:0])
			g.SendInGame(g.buf, nil)
		}
		g.Stats.Leaves.Add(1)
		g.log.Info("player left", "player", p.ID, "name", p.Name, "reason", why)
	} else {
		g.log.Debug("player dropped before joining", "player", p.ID, "addr", p.Addr, "reason", why)
	}
	p.State = 0
	g.bus.emit(&PlayerLeft{Player: p, Reason: why, WasInGame: wasInGame})
}

func leaveReason(r bcnet.LeaveReason, st PlayerState) LeaveReason {
	switch r {
	case bcnet.LeftDisconnect:
		return LeaveQuit
	case bcnet.LeftTimeout:
		return LeaveTimeout
	case bcnet.LeftOverflow:
		return LeaveOverflow
	case bcnet.LeftShutdown:
		return LeaveShutdown
	case bcnet.LeftReplaced:
		return LeaveReconnected
	}
	if st == StateRejected {
		return LeaveRejected
	}
	return LeaveKicked
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
