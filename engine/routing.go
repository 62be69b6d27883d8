package engine

import (
	"time"

	"github.com/bcserver/bcserver/codec"
)

// In-game routing: what the host does with each message of a player in the
// game. Chat and script messages have their own handlers (chat.go,
// modgame.go); engine opcodes go through the routing table: each row's
// check (checks.go) validates the sender and decodes the message once, its
// apply (worldroutes.go) hands that decoded value to the world, and relay
// rows are then forwarded unchanged.

// gameMessage handles a message from an in-game player: chat to the core
// relay, other script messages to the mission layer, engine opcodes to the
// routing table.
func (g *Game) gameMessage(p *Player, payload []byte, reliable bool) {
	if !g.allow(p, len(payload)) || !g.fairRate(p, payload[0]) {
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

// relayAction is what the host does with a game opcode from an in-game
// player (opcodes.md 2 and 4).
type relayAction uint8

// route is one row of the routing table.
type route struct {
	action relayAction
	// check validates a message before anything happens and decodes what
	// its apply needs into in; it returns false for a message the sender
	// may not send (and counts why).
	check func(g *Game, p *Player, in *inbound) bool
	// fair runs after check: the fair-play judgement of what check
	// decoded (fair.go); it returns false for a message to drop.
	fair func(g *Game, p *Player, in *inbound) bool
	// apply runs after check, on what check decoded: the host's own use
	// of the message (objects, state, events). For actRelay it runs
	// before the relay.
	apply func(g *Game, p *Player, in *inbound)
}

// inbound is the message being routed: its bytes, and what its row's check
// decoded of it for the row's apply, so each message is decoded once. The
// game keeps one and reuses it; the decoded slices point into the payload
// and are valid only while it is routed.
type inbound struct {
	payload  []byte
	reliable bool
	// at is when the message could have arrived had nothing been lost
	// (fair.go arrivedAt), set by the fair-play judgements of fire.
	at time.Time

	ev    codec.Event       // the event forwards (checkEventSource, checkWeaponEvent)
	obj   codec.ObjCreate   // ObjCreate and ObjCreateTeam, decoded whole (checkObjCreate)
	torp  codec.TorpedoFire // checkTorpedo
	pulse codec.PulseFire   // checkPulse
	state codec.StateUpdate // checkStateUpdate
}

// routes is the routing table for opcodes 0x00..0x2A; script messages
// (>= 0x2B) go to chat and the mission layer. Read-only.
var routes = [codec.MaxMessageTypes]route{
	codec.OpSettings:           {action: actDrop},
	codec.OpGameInit:           {action: actDrop},
	codec.OpObjCreate:          {action: actConsume, check: checkObjCreate, apply: acceptShip}, // relayed once admitted (shiprules.go)
	codec.OpObjCreateTeam:      {action: actConsume, check: checkObjCreate, apply: acceptShip},
	0x04:                       {action: actDrop}, // dead slot; kicks are transport boots
	0x05:                       {action: actDrop},
	codec.OpPythonEvent:        {action: actConsume}, // server-generated; a client copy is consumed
	codec.OpStartFiring:        {action: actRelay, check: checkWeaponEvent, apply: applyStartFiring},
	codec.OpStopFiring:         {action: actRelay, check: checkWeaponEvent, apply: applyStopFiring},
	codec.OpStopFiringAtTarget: {action: actRelay, check: checkWeaponEvent, apply: applyStopFiringAt},
	codec.OpSubsystemStatus:    {action: actRelay, check: checkEventSource, apply: applySubsystemStatus},
	codec.OpAddToRepairList:    {action: actRelay, check: checkEventSource},
	codec.OpClientEvent:        {action: actRelay, check: checkEventSource},
	codec.OpPythonEvent2:       {action: actConsume, check: checkEventSource}, // relaying it duplicates the host's own 0x06
	codec.OpStartCloaking:      {action: actRelay, check: checkEventSource},
	codec.OpStopCloaking:       {action: actRelay, check: checkEventSource},
	codec.OpStartWarp:          {action: actRelay, check: checkEventSource, apply: applyStartWarp},
	codec.OpRepairListPriority: {action: actRelay, check: checkEventSource, apply: applyRepairPriority},
	codec.OpSetPhaserLevel:     {action: actRelay, check: checkWeaponEvent, apply: applyPhaserLevel},
	codec.OpHostMsg:            {action: actConsume, apply: applySelfDestruct},
	codec.OpDestroyObject:      {action: actDrop},
	codec.OpCollisionEffect:    {action: actConsume, apply: applyCollision},
	codec.OpUICollisionSetting: {action: actDrop},
	codec.OpPlayerListEvent:    {action: actDrop},
	codec.OpDeletePlayerAnim:   {action: actDrop},
	codec.OpTorpedoFire:        {action: actRelay, check: checkTorpedo, fair: fairTorpedo, apply: applyTorpedoFire},
	codec.OpPulseFire:          {action: actRelay, check: checkPulse, fair: fairPulse, apply: applyPulseFire},
	codec.OpTorpedoTypeChange:  {action: actRelay, check: checkEventSource, apply: applyTorpedoType},
	codec.OpStateUpdate:        {action: actConsume, check: checkStateUpdate, fair: fairMove, apply: applyStateUpdate},
	codec.OpObjectPrompt:       {action: actDrop},
	codec.OpRequestObject:      {action: actConsume, apply: applyRequestObject},
	codec.OpEnterSet:           {action: actDrop},
	codec.OpChecksumRequest:    {action: actDrop},
	codec.OpChecksumResponse:   {action: actConsume}, // a late duplicate of a validated round
	codec.OpChecksumFailFile:   {action: actDrop},
	codec.OpChecksumFailVer:    {action: actDrop},
	0x24:                       {action: actDrop},
	codec.OpFileTransfer:       {action: actDrop},
	0x26:                       {action: actDrop},
	codec.OpFileTransferAck:    {action: actConsume}, // only meaningful after 0x25, which we never send
	codec.OpTransferDone:       {action: actDrop},
	codec.OpExplosion:          {action: actDrop},
	codec.OpNewPlayerInGame:    {action: actConsume}, // a repeat from an in-game player
}

// route handles an engine opcode (< 0x2B) from an in-game player.
func (g *Game) route(p *Player, payload []byte, reliable bool) {
	op := payload[0]
	r := routes[op]
	if r.action == actDrop {
		g.Stats.RelayDropped.Add(1)
		g.log.Debug("opcode not accepted from a client", "player", p.ID, "opcode", codec.OpcodeName(op))
		return
	}
	in := &g.in
	in.payload, in.reliable, in.at = payload, reliable, g.now
	if r.check != nil && !r.check(g, p, in) {
		return
	}
	if r.fair != nil && !r.fair(g, p, in) {
		return
	}
	if r.apply != nil {
		r.apply(g, p, in)
	}
	if r.action == actRelay {
		g.relay(p, payload, reliable)
	}
}

// relay forwards the received bytes unchanged to every other in-game
// player (opcodes.md 4.1-4.2).
func (g *Game) relay(from *Player, payload []byte, reliable bool) {
	g.Stats.Relayed.Add(1)
	for _, p := range g.bySlot {
		if p != nil && p != from && p.InGame() {
			if err := p.peer.Send(payload, reliable); err != nil {
				g.log.Debug("relay", "to", p.ID, "err", err)
			}
		}
	}
}
