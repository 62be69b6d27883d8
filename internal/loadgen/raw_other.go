//go:build !linux

package loadgen

import (
	"errors"
	"net/netip"
)

type rawSender struct{}

func newRawSender() (*rawSender, error)                      { return nil, errors.New("not supported on this system") }
func (s *rawSender) queue(from, to netip.AddrPort, p []byte) {}
func (s *rawSender) flush() (int, error)                     { return 0, nil }
func (s *rawSender) close()                                  {}
