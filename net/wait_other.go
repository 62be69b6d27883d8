//go:build !linux

package net

import (
	stdnet "net"
	"time"
)

// waiter is Linux's; elsewhere Receive waits with read deadlines.
type waiter struct{}

func newWaiter(*stdnet.UDPConn) (*waiter, error) { return nil, nil }

func (*waiter) poke()  {}
func (*waiter) close() {}

func (s *Socket) receiveWait(time.Time) ([]Packet, error) { panic("no waiter") }
