//go:build linux

package loadgen

import (
	"net"
	"time"

	"golang.org/x/sys/unix"

	bcnet "github.com/bcserver/bcserver/net"
)

// enableTimestamps asks the kernel to stamp every datagram with the time
// it reached the socket (SO_TIMESTAMPNS), so relay latency is measured to
// the moment the datagram arrived, not to when a busy generator got round
// to reading it.
func enableTimestamps(c *net.UDPConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	_ = raw.Control(func(fd uintptr) {
		ok = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1) == nil
	})
	return ok
}

// oobSize holds one SCM_TIMESTAMPNS control message.
var oobSize = unix.CmsgSpace(16)

// arrival finds the SCM_TIMESTAMPNS stamp in a control buffer.
func arrival(oob []byte) (time.Time, bool) { return bcnet.ArrivalTime(oob) }
