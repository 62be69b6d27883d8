//go:build !linux

package net

import (
	stdnet "net"
	"net/netip"
)

// batchIO reads and writes one datagram per call where the platform has
// no recvmmsg/sendmmsg.
type batchIO struct{ buf []byte }

func (b *batchIO) init(*stdnet.UDPConn) error {
	b.buf = make([]byte, 64<<10)
	return nil
}

func (b *batchIO) read(c *stdnet.UDPConn, out []Packet, st *SocketStats) ([]Packet, error) {
	n, addr, err := c.ReadFromUDPAddrPort(b.buf)
	if err != nil {
		return out, err
	}
	if n > MaxPacket {
		st.Oversize.Add(1)
		return out, nil
	}
	return append(out, Packet{Addr: netip.AddrPortFrom(addr.Addr().Unmap(), addr.Port()), Data: b.buf[:n]}), nil
}

func (b *batchIO) write(c *stdnet.UDPConn, buf []byte, lens []int, to []netip.AddrPort, st *SocketStats) error {
	var last error
	for i, n := range lens {
		d := buf[:n]
		buf = buf[n:]
		st.Writes.Add(1)
		if _, err := c.WriteToUDPAddrPort(d, to[i]); err != nil {
			st.SendErrors.Add(1)
			last = err
			continue
		}
		st.Sent.Add(1)
	}
	return last
}
