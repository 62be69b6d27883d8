package net

import "time"

// Config holds the transport timers and limits. The zero value of any field
// means its stock default (DefaultConfig).
type Config struct {
	ResendFirst time.Duration // first retransmission interval (1 s)
	ResendStep  time.Duration // linear backoff step per resend (1 s)
	ResendMax   time.Duration // backoff cap (5 s), also the cap of the adaptive timeout
	RTOMin      time.Duration // floor of the adaptive retransmission timeout (100 ms)
	// FixedResend turns the adaptive loss recovery off (round-trip timeout,
	// fast retransmission, link return) and keeps the stock schedule.
	FixedResend     bool
	AckInterval     time.Duration // ACK repeat interval (0.667 s)
	AckSends        int           // times an ACK is sent at most (3)
	Keepalive       time.Duration // idle time before a keepalive is queued (5 s)
	Timeout         time.Duration // silence from the peer before it is dropped (45 s)
	UnackedTimeout  time.Duration // a reliable message unACKed this long drops the peer (45 s)
	ReassemblyTTL   time.Duration // incomplete fragmented messages expire (45 s)
	BootLinger      time.Duration // a booted peer is kept this long at most for its notice to be ACKed (5 s)
	ShutdownWait    time.Duration // at shutdown, the wait for the clients' ACKs of the host's 0x05 (15 s)
	MaxMessageSize  int           // largest reassembled message (64 KiB)
	MaxReassembly   int           // bytes held in reassembly and reorder buffers per peer (256 KiB)
	MaxReassemblies int           // concurrent fragmented messages per peer (16)
	MaxQueued       int           // messages queued or awaiting ACK per peer before Send fails (8192)
}

// DefaultConfig returns the stock timer values of transport.md 9 and the
// server's resource limits.
func DefaultConfig() Config {
	return Config{
		ResendFirst:     time.Second,
		ResendStep:      time.Second,
		ResendMax:       5 * time.Second,
		RTOMin:          100 * time.Millisecond,
		AckInterval:     667 * time.Millisecond,
		AckSends:        3,
		Keepalive:       5 * time.Second,
		Timeout:         45 * time.Second,
		UnackedTimeout:  45 * time.Second,
		ReassemblyTTL:   45 * time.Second,
		BootLinger:      5 * time.Second,
		ShutdownWait:    15 * time.Second,
		MaxMessageSize:  64 << 10,
		MaxReassembly:   256 << 10,
		MaxReassemblies: 16,
		MaxQueued:       8192,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	set := func(v *time.Duration, dv time.Duration) {
		if *v <= 0 {
			*v = dv
		}
	}
	set(&c.ResendFirst, d.ResendFirst)
	set(&c.ResendStep, d.ResendStep)
	set(&c.ResendMax, d.ResendMax)
	set(&c.RTOMin, d.RTOMin)
	set(&c.AckInterval, d.AckInterval)
	set(&c.Keepalive, d.Keepalive)
	set(&c.Timeout, d.Timeout)
	set(&c.UnackedTimeout, d.UnackedTimeout)
	set(&c.ReassemblyTTL, d.ReassemblyTTL)
	set(&c.BootLinger, d.BootLinger)
	set(&c.ShutdownWait, d.ShutdownWait)
	seti := func(v *int, dv int) {
		if *v <= 0 {
			*v = dv
		}
	}
	seti(&c.AckSends, d.AckSends)
	c.AckSends = min(c.AckSends, 255) // ackEntry counts sends in a byte
	seti(&c.MaxMessageSize, d.MaxMessageSize)
	seti(&c.MaxReassembly, d.MaxReassembly)
	seti(&c.MaxReassemblies, d.MaxReassemblies)
	seti(&c.MaxQueued, d.MaxQueued)
	return c
}

// Stats counts what a Conn has seen and done.
type Stats struct {
	DatagramsIn, DatagramsOut uint64
	MessagesIn, MessagesOut   uint64
	Delivered                 uint64
	Retransmits               uint64
	FastRetransmits           uint64 // retransmissions made due early: a later message was ACKed
	LinkReturns               uint64 // silences after which the backlog was resent at once
	Duplicates                uint64 // reliable messages (or fragments) seen again
	OutOfWindow               uint64
	Malformed                 uint64 // datagrams that failed to parse (fully or partly)
	AcksIn, AcksOut           uint64
	AcksUnmatched             uint64
	ReassemblyDrops           uint64 // fragmented messages abandoned (limits, conflicts, expiry)
	BufferDrops               uint64 // reliable messages refused because the reorder buffer was full
	Keepalives                uint64 // idle keepalives (type 0x02) queued
	KeepalivesIn              uint64 // keepalives received
}
