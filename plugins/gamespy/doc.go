// Package gamespy implements the GameSpy "QR1" discovery protocol that
// Star Trek: Bridge Commander 1.1 uses for its server browser
// (shared/spec/gamespy.md).
//
// It has three parts, none of which owns a socket:
//
//   - [Responder] answers the plaintext `\status\`-style query datagrams that
//     arrive on the game port (gamespy.md 2). The caller's socket loop routes
//     every datagram whose first byte is `\` to [Responder.Handle] and sends
//     the datagrams it produces back to the source from the same socket
//     (gamespy.md 1).
//   - [Heartbeater] schedules one game's UDP heartbeats to the master
//     servers and keeps their addresses (gamespy.md 4). The heartbeat names
//     the game port ([HeartbeatPort]), because the master lists the server
//     at the heartbeat's source IP and that port. Heartbeats must leave from
//     the game socket, because the master sends its challenge to the
//     heartbeat's source address, so the caller sends the bytes it builds.
//   - [Plugin] runs both on an engine.Game: one Plugin per game, told that
//     game's port.
//
// The browsing side (send `\status\`, collect and parse the replies) is
// package internal/browse, which our tools and tests share with this one.
//
// Everything is plaintext ASCII; none of it uses the AlbyRules cipher or the
// transport framing of the game protocol.
package gamespy
