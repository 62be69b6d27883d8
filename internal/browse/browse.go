// Package browse is the browsing side of GameSpy "QR1" (shared/spec/
// gamespy.md 3), for our own tools and tests: send `\status\` to a list
// of targets (by default the stock LAN broadcast sweep, LANTargets),
// collect the replies (Discover) and parse them (ParseReply). The gamespy
// plugin answers; bcbot and the tests ask: both use this package, neither
// the other.
package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
)

// LAN browsing constants (gamespy.md 3).
const (
	// DefaultGamePort is the stock game (and query) port.
	DefaultGamePort = 22101
	// LANFirstPort and LANLastPort bound the ports a stock client
	// broadcasts `\status\` to when browsing the LAN.
	LANFirstPort = 22101
	LANLastPort  = 22201
	// DefaultDiscoverWait is how long a stock client keeps collecting
	// after the last reply.
	DefaultDiscoverWait = 3 * time.Second
)

// Bounds on what Discover and ParseReply accept, so a hostile network
// cannot make them grow without limit.
const (
	maxReplyKeys       = 1024 // keys in one datagram
	maxDiscoverSources = 1024 // distinct servers in one Discover
	maxGroupsPerSource = 4    // distinct queryids per server
	maxFragments       = 32   // fragments per reply
	maxDiscoverReads   = 1 << 16
)

// StatusQuery is the datagram a stock client sends to browse (gamespy.md 3).
const StatusQuery = `\status\`

// LANTargets returns the stock LAN sweep: 255.255.255.255 on every port
// from 22101 to 22201 (gamespy.md 3). A server on a port outside that range
// is not found on the LAN by stock clients either.
func LANTargets() []netip.AddrPort {
	out := make([]netip.AddrPort, 0, LANLastPort-LANFirstPort+1)
	bcast := netip.AddrFrom4([4]byte{255, 255, 255, 255})
	for p := LANFirstPort; p <= LANLastPort; p++ {
		out = append(out, netip.AddrPortFrom(bcast, uint16(p)))
	}
	return out
}

// Found is one server that answered a [Discover].
type Found struct {
	// Addr is the reply's source address: the address to join
	// (gamespy.md 3).
	Addr netip.AddrPort
	// Info holds the reply's keys merged over all its fragments, without
	// `queryid` and `final`.
	Info map[string]string
	// QueryID is N of the reply's `\queryid\N.M`.
	QueryID int
	// Fragments is the number of datagrams received for the reply.
	Fragments int
	// Complete is true when the fragment carrying `\final\` and every
	// fragment before it arrived.
	Complete bool
}

// Discover sends `\status\` from conn to every target (for the LAN use
// [LANTargets]; the socket must allow broadcast, which Go's UDP sockets do)
// and collects replies until wait passes without a new one (default
// [DefaultDiscoverWait], as the stock client) or ctx ends. Fragmented
// replies are put together by queryid. It returns the servers found,
// sorted by address, also when it returns an error.
//
// Discover sets and then clears conn's read deadline; do not read from
// conn elsewhere meanwhile.
func Discover(ctx context.Context, conn *net.UDPConn, targets []netip.AddrPort, wait time.Duration) ([]Found, error) {
	if conn == nil {
		return nil, errors.New("plugin/gamespy: discover: nil conn")
	}
	if wait <= 0 {
		wait = DefaultDiscoverWait
	}
	var sendErrs []error
	sent := 0
	for _, t := range targets {
		if _, err := conn.WriteToUDPAddrPort([]byte(StatusQuery), t); err != nil {
			sendErrs = append(sendErrs, fmt.Errorf("to %s: %w", t, err))
			continue
		}
		sent++
	}
	if sent == 0 && len(targets) > 0 {
		return nil, fmt.Errorf("plugin/gamespy: discover: sending %s: %w", StatusQuery, errors.Join(sendErrs...))
	}

	// Wake the blocked read when ctx ends.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Unix(1, 0)) })
	defer func() {
		stop()
		_ = conn.SetReadDeadline(time.Time{})
	}()

	c := collector{sources: make(map[netip.AddrPort]*source)}
	buf := make([]byte, 64<<10)
	deadline := time.Now().Add(wait)
	var readErr error
	for range maxDiscoverReads {
		if err := conn.SetReadDeadline(deadline); err != nil {
			readErr = fmt.Errorf("plugin/gamespy: discover: %w", err)
			break
		}
		// Checked after setting the deadline so that a cancellation racing
		// with it is never lost (the AfterFunc either ran before this check
		// or will reset the deadline after it).
		if ctx.Err() != nil {
			break
		}
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				break
			}
			readErr = fmt.Errorf("plugin/gamespy: discover: reading replies: %w", err)
			break
		}
		if c.add(netip.AddrPortFrom(from.Addr().Unmap(), from.Port()), buf[:n]) {
			deadline = time.Now().Add(wait)
		}
	}
	found := c.results()
	if readErr != nil {
		return found, readErr
	}
	if err := ctx.Err(); err != nil {
		return found, fmt.Errorf("plugin/gamespy: discover: %w", err)
	}
	return found, nil
}

// ParseReply parses one reply datagram, `\key\value\key\value...`, into a
// map. `\final\` yields the key "final" with an empty value; a trailing key
// without a value also gets "". Empty keys are skipped, and a repeated key
// keeps its last value.
func ParseReply(b []byte) (map[string]string, error) {
	if len(b) == 0 {
		return nil, errors.New("plugin/gamespy: parse reply: empty datagram")
	}
	if b[0] != '\\' {
		return nil, fmt.Errorf("plugin/gamespy: parse reply: starts with %#02x, not a backslash", b[0])
	}
	m := make(map[string]string)
	rest := b[1:]
	for len(rest) > 0 {
		var k, v []byte
		k, rest = cutBackslash(rest)
		v, rest = cutBackslash(rest)
		if len(k) == 0 {
			continue
		}
		if _, dup := m[string(k)]; !dup && len(m) >= maxReplyKeys {
			return nil, fmt.Errorf("plugin/gamespy: parse reply: more than %d keys", maxReplyKeys)
		}
		m[string(k)] = string(v)
	}
	return m, nil
}

func cutBackslash(b []byte) (before, after []byte) {
	if i := bytes.IndexByte(b, '\\'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// ParseQueryID splits a `queryid` value "N.M" into the query counter N
// and the 1-based fragment number M.
func ParseQueryID(s string) (n, m int, ok bool) {
	a, b, found := strings.Cut(s, ".")
	if !found {
		return 0, 0, false
	}
	n, err1 := strconv.Atoi(a)
	m, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 0 || m < 1 {
		return 0, 0, false
	}
	return n, m, true
}

// collector gathers reply fragments per source and per queryid.
type collector struct {
	sources map[netip.AddrPort]*source
}

type source struct {
	groups []*group
}

type group struct {
	id    int
	frags map[int]map[string]string
	final int // fragment number carrying `\final\`; 0 while unknown
}

// add files one datagram and reports whether it was new (a valid reply
// fragment not seen before), which is what extends the wait.
func (c *collector) add(from netip.AddrPort, b []byte) bool {
	kv, err := ParseReply(b)
	if err != nil {
		return false
	}
	// Replies from servers that leave out the queryid count as fragment
	// 1 of query 0.
	id, frag := 0, 1
	if q, ok := kv["queryid"]; ok {
		var valid bool
		if id, frag, valid = ParseQueryID(q); !valid || frag > maxFragments {
			return false
		}
	}
	_, final := kv["final"]
	delete(kv, "queryid")
	delete(kv, "final")

	s := c.sources[from]
	if s == nil {
		if len(c.sources) >= maxDiscoverSources {
			return false
		}
		s = &source{}
		c.sources[from] = s
	}
	var g *group
	for _, x := range s.groups {
		if x.id == id {
			g = x
		}
	}
	if g == nil {
		if len(s.groups) >= maxGroupsPerSource {
			return false
		}
		g = &group{id: id, frags: make(map[int]map[string]string)}
		s.groups = append(s.groups, g)
	}
	if _, dup := g.frags[frag]; dup {
		return false
	}
	g.frags[frag] = kv
	if final {
		g.final = frag
	}
	return true
}

func (g *group) complete() bool {
	if g.final == 0 {
		return false
	}
	for i := 1; i <= g.final; i++ {
		if _, ok := g.frags[i]; !ok {
			return false
		}
	}
	return true
}

// results picks, per source, the best reply (complete before incomplete,
// then the most fragments, then the first seen) and merges its fragments
// in order.
func (c *collector) results() []Found {
	out := make([]Found, 0, len(c.sources))
	for addr, s := range c.sources {
		var best *group
		for _, g := range s.groups {
			if best == nil ||
				(g.complete() && !best.complete()) ||
				(g.complete() == best.complete() && len(g.frags) > len(best.frags)) {
				best = g
			}
		}
		if best == nil {
			continue
		}
		nums := make([]int, 0, len(best.frags))
		for n := range best.frags {
			nums = append(nums, n)
		}
		slices.Sort(nums)
		info := make(map[string]string)
		for _, n := range nums {
			for k, v := range best.frags[n] {
				info[k] = v
			}
		}
		out = append(out, Found{
			Addr:      addr,
			Info:      info,
			QueryID:   best.id,
			Fragments: len(best.frags),
			Complete:  best.complete(),
		})
	}
	slices.SortFunc(out, func(a, b Found) int { return a.Addr.Compare(b.Addr) })
	return out
}
