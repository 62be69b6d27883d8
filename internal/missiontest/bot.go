package missiontest

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
)

// Bot is a scripted client in a Match: it joins as a stock client does and
// plays with the messages a stock client sends.
type Bot struct {
	w      *Match
	name   string
	addr   netip.AddrPort
	c      *bcnet.Client
	id     byte
	slot   int
	booted bool
	gone   bool

	inbox   [][]byte // every game message received, oldest first
	ship    int32    // current ship, 0 for none
	species int
	arms    *bot.Arms // the current ship's weapons, tubes reloading on the match's clock
	spawns  int
	pos     [3]float32
	peers   map[byte]string // the names the host's identity relay gave each player
}

// PeerName is the name of player id as this bot's player list shows it
// (the identities the host relayed).
func (b *Bot) PeerName(id byte) string { return b.peers[id] }

type botEvents Bot

func (e *botEvents) Accepted(id byte) { e.id = id }

func (e *botEvents) Booted(bcnet.BootReason) { e.booted = true }

// Disconnected: the host shut the session down.
func (e *botEvents) Disconnected() { e.booted = true }

// Peer and PeerGone: players' identities as the host relays them.
func (e *botEvents) Peer(id byte, name string) {
	if e.peers == nil {
		e.peers = map[byte]string{}
	}
	e.peers[id] = name
}
func (e *botEvents) PeerGone(id byte) { delete(e.peers, id) }

func (e *botEvents) Message(payload []byte, reliable bool) {
	b := (*Bot)(e)
	if len(payload) == 0 {
		return
	}
	switch payload[0] {
	case codec.OpChecksumRequest:
		if req, err := codec.DecodeChecksumRequest(payload); err == nil {
			resp, ok := b.w.manifest.Answer(req)
			if !ok {
				resp = codec.ChecksumResponse{Round: req.Round, DirHash: checksum.RequestDirHash(req.Dir)}
				if req.Round == 0 {
					resp.RefHash = b.w.manifest.RefHash()
				}
			}
			if out, err := resp.AppendTo(nil); err == nil {
				_ = b.c.Send(out, true)
			}
		}
		return
	case codec.OpSettings:
		if s, err := codec.DecodeSettings(payload); err == nil {
			b.slot = int(s.Slot)
		}
	case codec.OpGameInit:
		_ = b.c.Send(codec.NewPlayerInGame{}.AppendTo(nil), true)
	}
	b.inbox = append(b.inbox, bytes.Clone(payload))
}

func (b *Bot) inGame() bool {
	p := b.w.Game.Player(b.id)
	return !b.booted && p != nil && p.InGame() && p.Addr == b.addr
}

// ID is the bot's network player id.
func (b *Bot) ID() byte { return b.id }

// Ship is the bot's current ship id, 0 for none.
func (b *Bot) Ship() int32 { return b.ship }

func (b *Bot) send(payload []byte, reliable bool) error {
	if b.gone {
		return fmt.Errorf("%s has left", b.name)
	}
	if err := b.c.Send(payload, reliable); err != nil {
		return err
	}
	b.w.pump()
	return nil
}

// ErrRefused is returned by Spawn for a ship the host refused (ship
// rules, a mission's veto); the error's text is the line the host said.
var ErrRefused = errors.New("ship refused")

// refusal is a refused spawn: the host's chat line.
type refusal struct{ why string }

func (r refusal) Error() string { return r.why }
func (r refusal) Unwrap() error { return ErrRefused }

// Spawn creates a ship of species at pos, facing +Y, with the next id of
// the bot's block (as a stock client respawns). A ship the host refuses
// returns an error wrapping ErrRefused whose text is the host's chat line;
// the bot then has no ship, as a stock client back at ship select.
func (b *Bot) Spawn(species int, pos [3]float32) (int32, error) {
	if _, ok := b.w.ships.Class(species); !ok || species <= 0 || species > 255 {
		return 0, fmt.Errorf("species %d is not a ship class", species)
	}
	id := codec.FirstObjectID(b.slot) + int32(b.spawns)*0x100
	msg, err := bot.SpawnAt(b.w.ships, b.slot, b.id, b.name, uint8(species), id, pos)
	if err != nil {
		return 0, err
	}
	mark := len(b.inbox)
	if err := b.send(msg, true); err != nil {
		return 0, err
	}
	b.spawns++
	if b.w.Game.Object(id) == nil {
		b.ship = 0
		why := "the host did not take the ship"
		for _, m := range b.inbox[mark:] {
			if c, err := codec.DecodeChat(m); err == nil && c.Sender == 1 && m[0] == codec.OpChat {
				why = strings.TrimPrefix(string(c.Text), "[server] ")
			}
		}
		return 0, refusal{why}
	}
	arms, err := bot.ArmsOf(b.w.ships, species)
	if err != nil {
		return 0, err
	}
	b.ship, b.species, b.pos, b.arms = id, species, pos, arms
	return id, b.send(bot.Move(id, pos, [3]float32{0, 1, 0}), false)
}

// Move flies the bot's ship to pos facing forward.
func (b *Bot) Move(pos, forward [3]float32) error {
	if b.ship == 0 {
		return errors.New("no ship")
	}
	b.pos = pos
	return b.send(bot.Move(b.ship, pos, forward), false)
}

// alive reports whether the bot's ship still exists and has not exploded.
func (b *Bot) alive() bool {
	if b.ship == 0 {
		return false
	}
	return b.w.Game.Object(b.ship).Alive()
}

// Fire turns the bot's ship toward target's and fires the weapons of
// kinds at it, as a stock client does: the phaser system with StartFiring
// 0x07 (opcodes.md 3.2; the banks then beam on every peer until the target
// dies, leaves their arcs or the bot stops), each reloaded torpedo tube
// with TorpedoFire 0x19, each pulse cannon with PulseFire 0x1A. It returns
// what fired (see fireAt).
func (b *Bot) Fire(target *Bot, kinds bot.Kinds) (int, error) {
	if !b.alive() {
		return 0, fmt.Errorf("%s has no ship to fire from", b.name)
	}
	if target.ship == 0 {
		return 0, fmt.Errorf("%s has no ship to fire at", target.name)
	}
	return b.fireAt(target.ship, target.pos, kinds)
}

// fireAt turns the bot's ship toward pos and fires the weapons of kinds
// at the object with id target. It returns the phaser banks that bear
// straight ahead plus the torpedoes and bolts launched; asking only for
// kinds the class lacks is an error.
func (b *Bot) fireAt(target int32, pos [3]float32, kinds bot.Kinds) (int, error) {
	if kinds&b.arms.Has == 0 {
		return 0, fmt.Errorf("a %s has no %s (it has: %s)", b.arms.Class, kinds, b.arms.Has)
	}
	dir := [3]float32{pos[0] - b.pos[0], pos[1] - b.pos[1], pos[2] - b.pos[2]}
	if err := b.send(bot.Move(b.ship, b.pos, dir), false); err != nil {
		return 0, err
	}
	n := 0
	for _, s := range b.arms.Volley(kinds, b.ship, target, b.pos, pos, b.id, b.w.Now) {
		if err := b.send(s.Payload, s.Reliable); err != nil {
			return n, err
		}
		if s.Kind == bot.Phasers {
			offs, _ := bot.PhasersAhead(b.w.ships, b.species)
			n += len(offs)
			continue
		}
		n++
	}
	return n, nil
}

// StopFiring stops the bot's phaser system (StopFiring 0x08).
func (b *Bot) StopFiring() error {
	off, err := bot.WeaponSystem(b.w.ships, b.species, "phaser_system")
	if err != nil {
		return err
	}
	return b.send(bot.StopFiring(b.ship+int32(off)), true)
}

// Team announces the bot's team (TEAM 0x41), as a stock client does before
// each spawn in the team modes.
func (b *Bot) Team(team uint8) error {
	return b.send(codec.Team{Player: int32(b.id), Team: team}.AppendTo(nil), true)
}

// Volley turns the bot's ship toward the object with id target and fires
// the weapons of kinds at it (Fire); it returns what fired.
func (b *Bot) Volley(target int32, kinds bot.Kinds) (int, error) {
	if !b.alive() {
		return 0, fmt.Errorf("%s has no ship to fire from", b.name)
	}
	o := b.w.Game.Object(target)
	if o == nil || !o.Alive() {
		return 0, fmt.Errorf("no live object %#x to fire at", target)
	}
	p, _ := o.Position()
	return b.fireAt(target, p, kinds)
}

// Ram flies the bot's ship into target's: the target's client reports the
// collision, as stock clients do.
func (b *Bot) Ram(target *Bot) error {
	if !b.alive() || !target.alive() {
		return errors.New("ram: both need a ship")
	}
	// Head on, nose to nose: the target's client reports the rammer
	// striking its bow, where most classes carry their hull and bridge
	// (collisions skip the shields and hit what is near the contact,
	// simulation.md 5.2-5.3).
	p := target.pos
	if err := b.Move([3]float32{p[0], p[1] + 30, p[2]}, [3]float32{0, -1, 0}); err != nil {
		return err
	}
	if err := target.send(bot.Move(target.ship, p, [3]float32{0, 1, 0}), false); err != nil {
		return err
	}
	return target.send(bot.Ram(b.ship, target.ship, [3]float32{0, 1, 0}), true)
}

// SelfDestruct asks the host to blow the bot's ship up.
func (b *Bot) SelfDestruct() error { return b.send(bot.SelfDestruct(), true) }

// Chat says text (to the team with team set).
func (b *Bot) Chat(text string, team bool) error {
	return b.send(codec.Chat{Team: team, Sender: int32(b.id), Text: []byte(text)}.AppendTo(nil), true)
}

// Leave disconnects the bot.
func (b *Bot) Leave() error {
	if b.gone {
		return nil
	}
	if err := b.c.Disconnect(); err != nil {
		return err
	}
	b.w.pump()
	b.gone = true
	return nil
}

// Take returns the messages received since the last Take.
func (b *Bot) Take() [][]byte {
	out := b.inbox
	b.inbox = nil
	return out
}
