package net

import "time"

// rttEstimator smooths round-trip samples the way TCP does (RFC 6298:
// SRTT = 7/8 SRTT + 1/8 sample). A sample is the time from the first send
// of a reliable message to its ACK; a retransmitted message gives none,
// since its ACK may answer either copy (Karn's rule). The stock client
// ACKs at once, so the figure is close to the network round trip.
type rttEstimator struct {
	srtt    time.Duration
	last    time.Duration
	samples uint64
}

func (r *rttEstimator) sample(d time.Duration) {
	if d < 0 {
		return
	}
	r.last = d
	r.samples++
	if r.samples == 1 {
		r.srtt = d
		return
	}
	r.srtt += (d - r.srtt) / 8
}

// RTT returns the smoothed round-trip time and the number of samples it
// rests on (0: no reliable message was ACKed on its first send yet).
func (c *Conn) RTT() (smoothed time.Duration, samples uint64) { return c.rtt.srtt, c.rtt.samples }

// LastRTT returns the latest round-trip sample (0 before the first).
func (c *Conn) LastRTT() time.Duration { return c.rtt.last }

// RTT returns the peer's smoothed round-trip time and its sample count.
func (p *Peer) RTT() (time.Duration, uint64) { return p.conn.RTT() }
