package engine

// EvBroadcast is raised for every reliable message the host sends to all
// the players in the game (Game.SendInGame): the world's fire messages and
// explosions, END_GAME, the mission's score and chat broadcasts, relayed
// chat. Recorders and spectator views use it to see the game as the
// clients do; nothing may change what is sent.
const EvBroadcast = "broadcast"

// Broadcast is one message sent to every in-game player but Except (nil
// for none). Payload is valid only during dispatch.
type Broadcast struct {
	Payload []byte
	Except  *Player
}

// Name implements Event.
func (*Broadcast) Name() string { return EvBroadcast }
