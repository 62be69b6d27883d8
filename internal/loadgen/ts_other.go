//go:build !linux

package loadgen

import (
	"net"
	"time"
)

func enableTimestamps(*net.UDPConn) bool { return false }

var oobSize = 0

func arrival([]byte) (time.Time, bool) { return time.Time{}, false }
