//go:build linux

package net

import (
	"encoding/binary"
	"errors"
	"fmt"
	stdnet "net"
	"net/netip"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// batchIO moves datagrams with recvmmsg and sendmmsg through the socket's
// RawConn, so the runtime's poller still parks the goroutine and honours
// deadlines. golang.org/x/net/ipv4's ReadBatch does the same but allocates
// a net.UDPAddr and its IP for every datagram received; here addresses
// are decoded into netip.AddrPort values and nothing is allocated per
// datagram in either direction.
type batchIO struct {
	raw  syscall.RawConn
	ipv6 bool // the socket is AF_INET6 (dual stack): IPv4 peers are v4-mapped

	rbuf   []byte
	rhdr   [readBatch]mmsghdr
	riov   [readBatch]unix.Iovec
	rname  [readBatch]unix.RawSockaddrInet6
	rctl   [readBatch][stampSpace]byte // SCM_TIMESTAMPNS per datagram
	stamps bool                        // the kernel timestamps arrivals
	rn     int
	rerrno unix.Errno

	whdr   [writeBatch]mmsghdr
	wiov   [writeBatch]unix.Iovec
	wname  [writeBatch]unix.RawSockaddrInet6
	wfirst int
	wcount int
	wn     int
	werrno unix.Errno

	readFn, writeFn func(fd uintptr) bool
	recvNowFn       func(fd uintptr) // readNow's, setting rgot
	rgot            bool
}

// stampSpace holds one control message with a struct timespec.
const stampSpace = 32 // CMSG_SPACE(16) on 64-bit Linux; checked in init

const sizeofTimespec = int(unsafe.Sizeof(unix.Timespec{}))

// mmsghdr is struct mmsghdr: a msghdr and the length of its datagram
// (padded to the msghdr's alignment, as in C).
type mmsghdr struct {
	Hdr unix.Msghdr
	Len uint32
}

func (b *batchIO) init(c *stdnet.UDPConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	b.raw = raw
	var serr error
	if err := raw.Control(func(fd uintptr) {
		var sa unix.Sockaddr
		sa, serr = unix.Getsockname(int(fd))
		_, b.ipv6 = sa.(*unix.SockaddrInet6)
	}); err != nil {
		return err
	}
	if serr != nil {
		return serr
	}
	// Arrival times show how long datagrams waited for the game to read
	// them (Packet.Arrived); without them reading works the same.
	if unix.CmsgSpace(sizeofTimespec) <= stampSpace {
		_ = raw.Control(func(fd uintptr) {
			b.stamps = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1) == nil
		})
	}
	b.rbuf = make([]byte, readBatch*MaxPacket)
	for i := range b.rhdr {
		b.riov[i].Base = &b.rbuf[i*MaxPacket]
		b.riov[i].SetLen(MaxPacket)
		h := &b.rhdr[i].Hdr
		h.Iov = &b.riov[i]
		h.SetIovlen(1)
		h.Name = (*byte)(unsafe.Pointer(&b.rname[i]))
	}
	for i := range b.whdr {
		h := &b.whdr[i].Hdr
		h.Iov = &b.wiov[i]
		h.SetIovlen(1)
		h.Name = (*byte)(unsafe.Pointer(&b.wname[i]))
	}
	b.readFn = b.recv
	b.writeFn = b.send
	b.recvNowFn = func(fd uintptr) { b.rgot = b.recv(fd) }
	return nil
}

func (b *batchIO) recv(fd uintptr) bool {
	for i := range b.rhdr {
		h := &b.rhdr[i].Hdr
		h.Namelen = unix.SizeofSockaddrInet6
		h.Flags = 0
		if b.stamps {
			h.Control = &b.rctl[i][0]
			h.SetControllen(stampSpace)
		}
	}
	// A raw syscall: MSG_DONTWAIT never blocks, and a plain one would
	// wake the runtime's monitor thread (sysmon) on every call to watch a
	// P in a syscall, about a thousand extra wake-ups a second under a
	// light load.
	n, _, e := unix.RawSyscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.rhdr[0])), readBatch, unix.MSG_DONTWAIT, 0, 0)
	if e == unix.EAGAIN || e == unix.EWOULDBLOCK {
		return false // wait for the poller
	}
	if e == unix.EINTR {
		return false
	}
	b.rn, b.rerrno = int(n), e
	return true
}

func (b *batchIO) read(c *stdnet.UDPConn, out []Packet, st *SocketStats) ([]Packet, error) {
	b.rn, b.rerrno = 0, 0
	if err := b.raw.Read(b.readFn); err != nil {
		return out, err
	}
	return b.collect(out, st)
}

// collect turns what the last recvmmsg read into Packets.
func (b *batchIO) collect(out []Packet, st *SocketStats) ([]Packet, error) {
	if b.rerrno != 0 {
		return out, os.NewSyscallError("recvmmsg", b.rerrno)
	}
	for i := 0; i < b.rn; i++ {
		h := &b.rhdr[i]
		if h.Hdr.Flags&unix.MSG_TRUNC != 0 || int(h.Len) > MaxPacket {
			st.Oversize.Add(1)
			continue
		}
		addr, ok := decodeSockaddr(&b.rname[i])
		if !ok {
			continue
		}
		p := Packet{Addr: addr, Data: b.rbuf[i*MaxPacket : i*MaxPacket+int(h.Len)]}
		if b.stamps {
			p.Arrived, _ = ArrivalTime(b.rctl[i][:min(int(h.Hdr.Controllen), stampSpace)])
		}
		out = append(out, p)
	}
	return out, nil
}

// ArrivalTime returns the kernel's arrival time of a datagram from the
// control data read with it (the oob of ReadMsgUDP, or a recvmmsg control
// buffer) on a socket with SO_TIMESTAMPNS on, and false when the data
// holds no SCM_TIMESTAMPNS message. It walks every control message with
// unix.ParseOneSocketControlMessage, which checks each length against the
// buffer, and allocates nothing (unix.ParseSocketControlMessage allocates
// a slice per call).
func ArrivalTime(oob []byte) (time.Time, bool) {
	// ParseOneSocketControlMessage reads a whole header without checking
	// that the buffer holds one.
	for len(oob) >= unix.SizeofCmsghdr {
		h, data, rest, err := unix.ParseOneSocketControlMessage(oob)
		if err != nil {
			break
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && len(data) >= sizeofTimespec {
			var ts unix.Timespec
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&ts)), sizeofTimespec), data)
			return time.Unix(ts.Unix()), true
		}
		oob = rest
	}
	return time.Time{}, false
}

// decodeSockaddr reads a sockaddr_in or sockaddr_in6 (v4-mapped addresses
// unmapped).
func decodeSockaddr(sa *unix.RawSockaddrInet6) (netip.AddrPort, bool) {
	port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:])
	switch sa.Family {
	case unix.AF_INET:
		in4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(in4.Addr), port), true
	case unix.AF_INET6:
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), port), true
	}
	return netip.AddrPort{}, false
}

// encodeSockaddr writes to into sa for a socket of the given family and
// returns the length to pass to the kernel.
func encodeSockaddr(sa *unix.RawSockaddrInet6, to netip.AddrPort, ipv6 bool) (uint32, error) {
	a := to.Addr()
	var port [2]byte
	binary.BigEndian.PutUint16(port[:], to.Port())
	if !ipv6 {
		a = a.Unmap()
		if !a.Is4() {
			return 0, fmt.Errorf("IPv6 destination %v on an IPv4 socket", to)
		}
		in4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		*in4 = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: a.As4()}
		*(*[2]byte)(unsafe.Pointer(&in4.Port)) = port
		return unix.SizeofSockaddrInet4, nil
	}
	*sa = unix.RawSockaddrInet6{Family: unix.AF_INET6, Addr: a.As16()}
	*(*[2]byte)(unsafe.Pointer(&sa.Port)) = port
	return unix.SizeofSockaddrInet6, nil
}

func (b *batchIO) send(fd uintptr) bool {
	// Raw, as recv: MSG_DONTWAIT never blocks.
	n, _, e := unix.RawSyscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&b.whdr[b.wfirst])), uintptr(b.wcount), unix.MSG_DONTWAIT, 0, 0)
	if e == unix.EAGAIN || e == unix.EWOULDBLOCK || e == unix.EINTR {
		return false // the send buffer is full: wait until it drains
	}
	b.wn, b.werrno = int(n), e
	return true
}

func (b *batchIO) write(c *stdnet.UDPConn, buf []byte, lens []int, to []netip.AddrPort, st *SocketStats) error {
	var last error
	off, i := 0, 0
	for i < len(lens) {
		k := 0
		for ; i < len(lens) && k < writeBatch; i++ {
			n := lens[i]
			d := buf[off : off+n]
			off += n
			nl, err := encodeSockaddr(&b.wname[k], to[i], b.ipv6)
			if err != nil {
				st.SendErrors.Add(1) // not sendable on this socket
				last = err
				continue
			}
			b.wiov[k].Base = unsafe.SliceData(d)
			b.wiov[k].SetLen(n)
			b.whdr[k].Hdr.Namelen = nl
			k++
		}
		for first := 0; first < k; {
			b.wfirst, b.wcount = first, k-first
			b.wn, b.werrno = 0, 0
			if err := b.raw.Write(b.writeFn); err != nil {
				return err
			}
			st.Writes.Add(1)
			if b.werrno != 0 && b.wn <= 0 {
				// The first datagram was refused: count it and go on.
				st.SendErrors.Add(1)
				last = os.NewSyscallError("sendmmsg", b.werrno)
				if errors.Is(b.werrno, unix.EBADF) {
					return last
				}
				first++
				continue
			}
			st.Sent.Add(uint64(b.wn))
			first += b.wn
		}
	}
	return last
}
