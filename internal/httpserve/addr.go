package httpserve

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Key is the unit the per-address limits count: an IPv4 address, or the
// /64 an IPv6 address is in (one subscriber's network: a single host can
// take any address of its /64, so counting addresses would give it 2^64
// budgets).
func Key(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p
	}
	p, _ := a.Prefix(a.BitLen())
	return p
}

// AddrOf returns the IP address of a "host:port" remote address (the
// zero Addr when it is not one).
func AddrOf(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// Proxies are the reverse proxies whose X-Forwarded-For is believed.
type Proxies []netip.Prefix

// ParseProxies reads trusted_proxies entries: addresses ("10.0.0.5",
// "::1") or networks ("10.0.0.0/8"). key names the configuration key in
// errors.
func ParseProxies(key string, list []string) (Proxies, error) {
	var out Proxies
	for _, s := range list {
		s = strings.TrimSpace(s)
		if strings.Contains(s, "/") {
			p, err := netip.ParsePrefix(s)
			if err != nil {
				return nil, fmt.Errorf("%s %q: want an address or a network (10.0.0.0/8)", key, s)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("%s %q: want an address or a network (10.0.0.0/8)", key, s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Trusted reports whether a is one of the proxies.
func (ps Proxies) Trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// maxForwarded bounds the X-Forwarded-For entries looked at: a chain of
// proxies is a handful long; a longer header is a client's invention.
const maxForwarded = 16

// Client returns the address a request comes from: the connection's
// peer, or, when that is a trusted proxy, the last address of
// X-Forwarded-For that is not a trusted proxy itself (each proxy appends
// the address it got the request from, so the entries left of the first
// untrusted one are whatever the client wrote). A header that does not
// parse leaves the proxy's own address: better one shared budget than
// one the client chooses.
func (ps Proxies) Client(r *http.Request) netip.Addr {
	peer := AddrOf(r.RemoteAddr)
	if len(ps) == 0 || !ps.Trusted(peer) {
		return peer
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for part := range strings.SplitSeq(h, ",") {
			hops = append(hops, part)
			if len(hops) > 4*maxForwarded {
				return peer
			}
		}
	}
	for i, n := len(hops)-1, 0; i >= 0 && n < maxForwarded; i, n = i-1, n+1 {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer
		}
		a = a.Unmap()
		if !ps.Trusted(a) {
			return a
		}
	}
	return peer
}

// RealIP returns h with each request's RemoteAddr set to its client's
// address (Client) when it came through a trusted proxy, so every rate
// limit, cap and audit line below sees the viewer, not the proxy.
func (ps Proxies) RealIP(h http.Handler) http.Handler {
	if len(ps) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer := AddrOf(r.RemoteAddr)
		if c := ps.Client(r); c != peer && c.IsValid() {
			r2 := r.Clone(r.Context())
			r2.RemoteAddr = netip.AddrPortFrom(c, 0).String()
			r = r2
		}
		h.ServeHTTP(w, r)
	})
}
