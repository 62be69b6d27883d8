// Package engine runs a game for the players connected to it: the per-peer
// join handshake (checksum validation against a manifest, Settings,
// NewPlayerInGame), admission (player limit, password, bans), the player
// slots, the routing table that relays, consumes or drops each game
// message, chat, the engine events that missions and plugins subscribe
// to, timers, the game tick and the loop that ties the transport to them.
//
// The model of the game's objects — ships, damage, weapons, collisions,
// deaths, repair, the host's StateUpdates — is the world (engine/world):
// the routing table hands it the messages it consumes, the tick advances
// it, and the Game is its Env, carrying its events on the event bus and
// its messages to the players. The world's types keep their engine names
// (Object, ShipDestroyed, ...) for missions and plugins. Missions make
// ships of the host's own through PrepareHostShip and AddHostShip
// (hostships.go) and fly them with the world's controls; while any exists
// no player is given their owner slot, and ending or restarting the game
// deletes them.
//
// One goroutine owns one Game. The Server loop reads datagrams from the
// socket reader's channel, feeds them to the transport Host, which calls
// back into the Game synchronously, and flushes what the Game queued right
// away, so a relayed message leaves within the same loop iteration.
// Nothing else touches a Game's state: other goroutines hand work to it
// with Server.Do.
package engine
