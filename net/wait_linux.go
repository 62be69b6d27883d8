//go:build linux

package net

import (
	"encoding/binary"
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// waiter lets the game loop sleep until a datagram, its deadline or a Wake
// with one wake-up of one thread. A read deadline (SetReadDeadline) is a
// runtime timer: every re-arm may interrupt the poller thread to change its
// timeout, its expiry readies the goroutine from the timer code, which
// starts a second thread looking for work, and the runtime's monitor
// thread wakes on every timer too — about eight context switches per
// deadline on an idle server. Here the socket, a timerfd (the deadline)
// and an eventfd (Wake) sit in an epoll set of our own, and the runtime's
// poller watches that one descriptor: a deadline is a file becoming
// readable, no runtime timer is involved.
type waiter struct {
	ep    *os.File // the epoll set, in the runtime's poller
	timer *os.File // timerfd, CLOCK_MONOTONIC
	wake  *os.File // eventfd
	armed time.Time
	buf   [8]byte
	// events receives the set's ready sources when the wait looks at it
	// before parking (waitFn); only whether there are any matters.
	events [3]unix.EpollEvent
	// drained: the last read took fewer datagrams than it could, so the
	// socket was empty then; the next Receive waits without reading first
	// (a recvmmsg that could only say EAGAIN). The socket is in the epoll
	// set edge-triggered, every datagram arriving after that read raises
	// an edge, and the wait looks at the set before it parks, so none is
	// left waiting.
	drained bool

	// The raw conns and the funcs handed to them are made once: a
	// closure per call would allocate on every wake-up.
	epRaw, timerRaw, wakeRaw syscall.RawConn
	spec                     unix.ItimerSpec
	serr                     error
	parked                   bool // waitFn parked once
	waitFn                   func(fd uintptr) bool
	setFn, drainFn           func(fd uintptr)
}

// newWaiter builds the epoll set around the socket c. Any failure leaves
// the socket to read deadlines (nil waiter).
func newWaiter(c *stdnet.UDPConn) (*waiter, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var sock int
	if err := raw.Control(func(fd uintptr) { sock = int(fd) }); err != nil {
		return nil, err
	}
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	w := &waiter{}
	fail := func(err error) (*waiter, error) {
		for _, f := range []*os.File{w.ep, w.timer, w.wake} {
			if f != nil {
				f.Close()
			}
		}
		return nil, err
	}
	// The runtime's poller takes the epoll descriptor only when it is
	// non-blocking (os.NewFile looks).
	if err := unix.SetNonblock(epfd, true); err != nil {
		unix.Close(epfd)
		return nil, err
	}
	w.ep = os.NewFile(uintptr(epfd), "game-wait")
	tfd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return fail(fmt.Errorf("timerfd_create: %w", err))
	}
	w.timer = os.NewFile(uintptr(tfd), "game-deadline")
	efd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return fail(fmt.Errorf("eventfd: %w", err))
	}
	w.wake = os.NewFile(uintptr(efd), "game-wake")
	for _, fd := range []int{sock, tfd, efd} {
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLET, Fd: int32(fd)}
		if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return fail(fmt.Errorf("epoll_ctl: %w", err))
		}
	}
	for _, r := range []struct {
		f   *os.File
		raw *syscall.RawConn
	}{{w.ep, &w.epRaw}, {w.timer, &w.timerRaw}, {w.wake, &w.wakeRaw}} {
		if *r.raw, err = r.f.SyscallConn(); err != nil {
			return fail(err)
		}
	}
	// waitFn's first call parks the goroutine, the next (after the
	// runtime's poller saw the set readable) ends the wait. Before it
	// parks, it looks at the set itself once, without blocking: the
	// RawConn's Read clears whatever readiness the runtime's poller had
	// noted before calling it, so an edge raised between the caller's
	// last read and this wait (a datagram that came just after a short
	// batch) would otherwise be lost, and the wait would end only at its
	// deadline. Looking drops the sources that are no longer ready (the
	// datagram already read) and reports the ones that are; an edge that
	// comes after the look finds the runtime's poller armed.
	w.waitFn = func(fd uintptr) bool {
		if w.parked {
			w.parked = false
			return true
		}
		n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, fd, uintptr(unsafe.Pointer(&w.events[0])), uintptr(len(w.events)), 0, 0, 0)
		if e == 0 && n > 0 {
			return true
		}
		w.parked = true
		return false
	}
	// The calls below are raw syscalls: neither blocks (a non-blocking
	// descriptor), and a plain syscall wakes the runtime's monitor thread
	// every time.
	w.setFn = func(fd uintptr) {
		_, _, e := unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(&w.spec)), 0, 0, 0)
		w.serr = nil
		if e != 0 {
			w.serr = e
		}
	}
	w.drainFn = func(fd uintptr) {
		_, _, _ = unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&w.buf[0])), uintptr(len(w.buf)))
	}
	return w, nil
}

// arm sets the timerfd to expire at deadline (the zero time: never). The
// timer is only touched when the deadline changed or the armed one passed.
func (w *waiter) arm(deadline, now time.Time) error {
	if deadline.Equal(w.armed) && (deadline.IsZero() || now.Before(deadline)) {
		return nil // armed already, and not expired
	}
	w.spec = unix.ItimerSpec{}
	if !deadline.IsZero() {
		w.spec.Value = unix.NsecToTimespec(max(int64(deadline.Sub(now)), 1))
	}
	if err := w.timerRaw.Control(w.setFn); err != nil {
		return err
	}
	if w.serr != nil {
		return w.serr
	}
	w.armed = deadline
	return nil
}

// wait parks the goroutine until the epoll set has an event: a datagram,
// the timer, a Wake. Every new event in the set wakes the runtime's poller
// (the set is in it edge-triggered) and the poller reports the set only
// while a source in it is still ready, so an event that came while the
// loop was busy ends the next wait at once and one whose source was
// already read is dropped; the caller then looks at every source.
func (w *waiter) wait() error {
	w.parked = false
	return w.epRaw.Read(w.waitFn)
}

// poke makes a wait end (any goroutine).
func (w *waiter) poke() { _, _ = w.wake.Write(one[:]) }

// one is the eventfd increment.
var one = func() (b [8]byte) { binary.NativeEndian.PutUint64(b[:], 1); return }()

func (w *waiter) close() {
	w.ep.Close()
	w.timer.Close()
	w.wake.Close()
}

// readNow reads what the socket holds without waiting.
func (b *batchIO) readNow(out []Packet, st *SocketStats) ([]Packet, error) {
	b.rn, b.rerrno, b.rgot = 0, 0, false
	if err := b.raw.Control(b.recvNowFn); err != nil {
		return out, ErrSocketClosed // the only way Control fails
	}
	if !b.rgot {
		return out, nil
	}
	return b.collect(out, st)
}

// receiveWait is Receive with the waiter.
func (s *Socket) receiveWait(deadline time.Time) ([]Packet, error) {
	w := s.wait
	for {
		if w.drained {
			w.drained = false // after the wait, read
		} else {
			pkts, err := s.io.readNow(s.pkts[:0], &s.Stats)
			s.pkts = pkts
			if err != nil {
				if errors.Is(err, ErrSocketClosed) {
					return nil, ErrSocketClosed
				}
				continue // ICMP errors surface here on some systems; read on
			}
			if len(pkts) > 0 {
				s.Stats.Reads.Add(1)
				w.drained = s.io.rn < readBatch
				return pkts, nil
			}
		}
		if s.woken.Swap(false) {
			// Empty the wake counter (an expired timer needs no read:
			// setting it again resets it). A poke that lands after this
			// leaves the counter set until the next Wake: a wait may then
			// end early for nothing, never late.
			_ = w.wakeRaw.Control(w.drainFn)
			return nil, nil
		}
		now := time.Now()
		if !deadline.IsZero() && !now.Before(deadline) {
			return nil, nil
		}
		if err := w.arm(deadline, now); err != nil {
			return nil, ErrSocketClosed
		}
		if err := w.wait(); err != nil {
			return nil, ErrSocketClosed
		}
	}
}
