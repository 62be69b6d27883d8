package engine

import (
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// Observer receives timings from the game loop (the metrics plugin). Its
// methods run on the game goroutine in the packet and tick paths, so they
// must be cheap and must not block.
type Observer interface {
	// TickDone reports how long one Advance that ran game ticks took
	// (mission tick handlers, simulation, StateUpdates, transport timers).
	TickDone(d time.Duration)
	// BatchDone reports the time from taking a batch of datagrams off the
	// socket queue to the flush that sent what they caused (the relays).
	BatchDone(d time.Duration)
	// ReceiveDelay reports how long the oldest datagram of a batch waited
	// in the socket before the game read it (where the platform
	// timestamps arrivals): near zero unless the process lacks CPU.
	ReceiveDelay(d time.Duration)
}

// SetObserver installs o (nil removes it). Call it on the game goroutine.
func (g *Game) SetObserver(o Observer) { g.obs = o }

// RTT returns the player's smoothed round-trip time, with false before the
// first sample.
func (p *Player) RTT() (time.Duration, bool) {
	if p.peer == nil {
		return 0, false
	}
	d, n := p.peer.RTT()
	return d, n > 0
}

// TransportStats returns the counters of the player's connection; they
// stay readable in the PlayerLeft event.
func (p *Player) TransportStats() bcnet.Stats {
	if p.peer == nil {
		return bcnet.Stats{}
	}
	return p.peer.Stats()
}

// ServerStats counts the datagrams and bytes of the game socket; readable
// from any goroutine.
type ServerStats struct {
	BytesIn                atomic.Uint64 // datagrams in: the transport counts them (Game.TransportStats)
	DatagramsOut, BytesOut atomic.Uint64
	SendErrors             atomic.Uint64
	// Wakeups counts the loop's iterations: a datagram batch, a deadline
	// or a Wake (Do, Post, the end of the game).
	Wakeups atomic.Uint64
	// StuckDeadlines counts deadlines the game still reported as due right
	// after the Advance that was for them (a bug; the loop then sleeps
	// 1 ms instead of spinning).
	StuckDeadlines atomic.Uint64
}

// countingWriter counts what the game sends through the socket.
type countingWriter struct {
	w     bcnet.PacketWriter
	stats *ServerStats
}

func (c countingWriter) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	n, err := c.w.WriteToUDPAddrPort(b, addr)
	if err != nil {
		c.stats.SendErrors.Add(1)
		return n, err
	}
	c.stats.DatagramsOut.Add(1)
	c.stats.BytesOut.Add(uint64(n))
	return n, err
}

// Stats returns the socket counters.
func (s *Server) Stats() *ServerStats { return &s.stats }

// SocketStats returns what the socket reader dropped (oversize datagrams,
// queue overflow).
func (s *Server) SocketStats() *bcnet.SocketStats { return s.sockStats }

// ReasonName names the stock END_GAME reason (missions.md 3.6) for logs,
// metrics and match history.
func (e *GameEnded) ReasonName() string {
	switch e.Reason {
	case codec.EndItsJustOver:
		return "its_just_over"
	case codec.EndTimeUp:
		return "time_up"
	case codec.EndNumFragsReached:
		return "frag_limit"
	case codec.EndScoreLimitReached:
		return "score_limit"
	case codec.EndStarbaseDead:
		return "starbase_dead"
	case codec.EndBorgDead:
		return "borg_dead"
	case codec.EndEnterpriseDead:
		return "enterprise_dead"
	}
	return "other"
}
