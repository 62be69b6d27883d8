// Package net is the stock BC 1.1 UDP transport (spec/transport.md):
// datagram framing, the seven transport message types, two reliable
// channels per peer with ACKs, retransmission and in-order delivery,
// fragmentation and bounded reassembly, keepalive and timeouts.
//
// The protocol logic is a plain state machine: Conn takes decrypted
// datagrams and the current time and produces datagrams to send, with no
// sockets and no goroutines, so tests drive it with a fake clock and an
// in-memory link. Host manages the peers of a server (connect, ids,
// refusals, leave), and Socket is the thin UDP loop underneath. The AlbyRules
// cipher is in the alby subpackage.
package net
