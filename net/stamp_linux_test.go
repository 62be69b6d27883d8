package net

import (
	"net/netip"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux every datagram read carries the kernel's arrival time: after
// the send began and before the read returned.
func TestSocketArrivalTimes(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", "[::]:0"} {
		t.Run(listen, func(t *testing.T) {
			a, b := listenT(t, "127.0.0.1:0"), listenT(t, listen)
			// A dual-stack socket bound to [::] is reached over IPv4 loopback.
			to := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), b.LocalAddr().Port())
			before := time.Now()
			for i := 0; i < 3; i++ {
				if _, err := a.WriteToUDPAddrPort([]byte{byte(i)}, to); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Flush(); err != nil {
				t.Fatal(err)
			}
			got := receiveN(t, b, 3)
			after := time.Now()
			for i, p := range got {
				// A second of slack either way: the wall clock may be
				// stepped while the test runs.
				if p.Arrived.IsZero() || p.Arrived.Before(before.Add(-time.Second)) || p.Arrived.After(after.Add(time.Second)) {
					t.Fatalf("datagram %d arrived %v, sent after %v, read by %v", i, p.Arrived, before, after)
				}
			}
		})
	}
}

// cmsg encodes one control message as the kernel lays it out: a header
// whose cmsg_len is n (or the true length when n is 0), the data, and
// padding to the next message.
func cmsg(level, typ int32, data []byte, n int) []byte {
	h := unix.Cmsghdr{Level: level, Type: typ}
	h.SetLen(unix.CmsgLen(len(data)))
	if n != 0 {
		h.SetLen(n)
	}
	b := make([]byte, unix.CmsgSpace(len(data)))
	copy(b, unsafe.Slice((*byte)(unsafe.Pointer(&h)), unix.SizeofCmsghdr))
	copy(b[unix.CmsgLen(0):], data)
	return b
}

func timespecBytes(sec, nsec int64) []byte {
	ts := unix.NsecToTimespec(sec*1e9 + nsec)
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&ts)), unsafe.Sizeof(ts))...)
}

// ArrivalTime finds the stamp wherever it is among the control messages
// and refuses, without reading past it, any buffer whose lengths do not
// fit.
func TestArrivalTime(t *testing.T) {
	ts := timespecBytes(1700000000, 123456789)
	want := time.Unix(1700000000, 123456789)
	stamp := cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, 0)
	other := cmsg(unix.SOL_IP, unix.IP_TTL, []byte{64, 0, 0, 0}, 0)
	for _, tc := range []struct {
		name string
		oob  []byte
		ok   bool
	}{
		{"stamp", stamp, true},
		{"after another message", append(append([]byte(nil), other...), stamp...), true},
		{"empty", nil, false},
		{"shorter than a header", stamp[:unix.SizeofCmsghdr-1], false},
		{"header only", stamp[:unix.SizeofCmsghdr], false},
		{"stamp cut short", stamp[:len(stamp)-1], false},
		{"other message only", other, false},
		{"SCM_TIMESTAMP, not NS", cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMP, ts, 0), false},
		{"wrong level", cmsg(unix.SOL_IP, unix.SCM_TIMESTAMPNS, ts, 0), false},
		{"length under a header", cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, unix.SizeofCmsghdr-1), false},
		{"length past the buffer", cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, len(stamp)+1), false},
		{"length too short for a timespec", cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, unix.CmsgLen(len(ts)-1)), false},
		// cmsg_len within the buffer but its padded space beyond it: the
		// walk must stop, not slice past the end.
		{"unpadded last message", cmsg(unix.SOL_IP, unix.IP_TTL, []byte{1, 2, 3, 4}, 0)[:unix.CmsgLen(4)], false},
	} {
		got, ok := ArrivalTime(tc.oob)
		if ok != tc.ok || (ok && !got.Equal(want)) || (!ok && !got.IsZero()) {
			t.Errorf("%s: %v %v, want ok=%v", tc.name, got, ok, tc.ok)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = ArrivalTime(stamp) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}

// ArrivalTime never panics and agrees with the allocating parser of
// x/sys wherever that one accepts the buffer.
func FuzzArrivalTime(f *testing.F) {
	ts := timespecBytes(1700000000, 5)
	f.Add(cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, 0))
	f.Add(append(cmsg(unix.SOL_IP, unix.IP_TTL, []byte{64, 0, 0, 0}, 0), cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, ts, 0)...))
	f.Add(cmsg(unix.SOL_IP, unix.IP_TTL, []byte{1, 2, 3, 4}, 0)[:unix.CmsgLen(4)])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, oob []byte) {
		got, ok := ArrivalTime(oob)
		if len(oob) < unix.SizeofCmsghdr {
			if ok {
				t.Fatalf("a stamp from %d bytes", len(oob))
			}
			return
		}
		msgs, err := unix.ParseSocketControlMessage(oob)
		if err != nil {
			return
		}
		var want time.Time
		found := false
		for _, m := range msgs {
			if m.Header.Level == unix.SOL_SOCKET && m.Header.Type == unix.SCM_TIMESTAMPNS && len(m.Data) >= int(unsafe.Sizeof(unix.Timespec{})) {
				var ts unix.Timespec
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&ts)), unsafe.Sizeof(ts)), m.Data)
				want, found = time.Unix(ts.Unix()), true
				break
			}
		}
		if ok != found || !got.Equal(want) {
			t.Fatalf("ArrivalTime %v %v, x/sys finds %v %v", got, ok, want, found)
		}
	})
}
