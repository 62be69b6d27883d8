//go:build linux

package loadgen

import (
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawSender sends hand-built IPv4 datagrams (any source address) through
// a raw socket, batched with sendmmsg.
type rawSender struct {
	fd    int
	bufs  [][]byte
	to    []unix.RawSockaddrInet4
	iov   []unix.Iovec
	hdrs  []mmsghdr
	count int
}

type mmsghdr struct {
	Hdr unix.Msghdr
	Len uint32
}

const rawBatch = 256

func newRawSender() (*rawSender, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_RAW)
	if err != nil {
		return nil, err
	}
	if err := unix.SetsockoptInt(fd, unix.IPPROTO_IP, unix.IP_HDRINCL, 1); err != nil {
		unix.Close(fd)
		return nil, err
	}
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 4<<20)
	s := &rawSender{fd: fd, bufs: make([][]byte, rawBatch), to: make([]unix.RawSockaddrInet4, rawBatch),
		iov: make([]unix.Iovec, rawBatch), hdrs: make([]mmsghdr, rawBatch)}
	for i := range s.bufs {
		s.bufs[i] = make([]byte, 0, 128)
	}
	return s, nil
}

func (s *rawSender) queue(from, to netip.AddrPort, payload []byte) {
	if s.count == rawBatch {
		_, _ = s.flush()
	}
	i := s.count
	s.bufs[i] = ipv4UDP(s.bufs[i], from, to, payload)
	s.to[i] = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: to.Addr().As4()}
	s.iov[i].Base = &s.bufs[i][0]
	s.iov[i].SetLen(len(s.bufs[i]))
	s.hdrs[i].Hdr = unix.Msghdr{Name: (*byte)(unsafe.Pointer(&s.to[i])), Namelen: unix.SizeofSockaddrInet4, Iov: &s.iov[i]}
	s.hdrs[i].Hdr.SetIovlen(1)
	s.count++
}

// flush sends what is queued; a full kernel queue drops the rest (it is a
// flood).
func (s *rawSender) flush() (int, error) {
	sent := 0
	for sent < s.count {
		n, _, e := unix.Syscall6(unix.SYS_SENDMMSG, uintptr(s.fd), uintptr(unsafe.Pointer(&s.hdrs[sent])), uintptr(s.count-sent), 0, 0, 0)
		if e != 0 {
			if e == unix.EINTR {
				continue
			}
			if e == unix.EAGAIN || e == unix.ENOBUFS {
				break
			}
			s.count = 0
			return sent, e
		}
		sent += int(n)
	}
	s.count = 0
	return sent, nil
}

func (s *rawSender) close() { unix.Close(s.fd) }
