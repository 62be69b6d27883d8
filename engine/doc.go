// Package engine owns the game: the per-peer join handshake (checksum
// validation against a manifest, Settings, NewPlayerInGame), the player
// slots, the engine events that missions and plugins subscribe to, and the
// loop that ties the transport to them.
//
// One goroutine owns one Game. The Server loop reads datagrams from the
// socket reader's channel, feeds them to the transport Host, which calls
// back into the Game synchronously, and flushes what the Game queued right
// away, so a relayed message leaves within the same loop iteration.
// Nothing else touches a Game's state: other goroutines hand work to it
// with Server.Do.
package engine
