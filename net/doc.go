// Package net is the stock BC 1.1 UDP transport (spec/transport.md):
// datagram framing, the seven transport message types, two reliable
// channels per peer with ACKs, retransmission and in-order delivery,
// fragmentation and bounded reassembly, keepalive and timeouts.
//
// The protocol logic is a plain state machine: Conn takes decrypted
// datagrams and the current time and produces datagrams to send, with no
// sockets and no goroutines, so tests drive it with a fake clock and an
// in-memory link. Its retransmission timeout follows each peer's measured
// round trip, and overtaken or backlogged messages go again early
// (rtt.go); a Host's Conns share one pool of message buffers (pool.go).
//
// Host manages the peers of a server: connects, wire ids, refusals, the
// identity relay, leaving. A connect holds no slot until the client
// answers its reply (Verifier), and everything sent by or to strangers is
// budgeted before any work is done (budget.go).
//
// Socket is the thin UDP layer underneath, read and written in batches
// by the goroutine that owns it (recvmmsg/sendmmsg on Linux). The
// AlbyRules cipher is in the alby subpackage.
package net
