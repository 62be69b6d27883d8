package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// botEvents implements net.ClientEvents. The client, and so these methods,
// run only on the bot's goroutine; b.mu guards what other goroutines read.
type botEvents Bot

func (e *botEvents) Accepted(id byte) {
	b := (*Bot)(e)
	b.mu.Lock()
	b.id = id
	b.mu.Unlock()
	b.setState(Checksums, nil)
}

func (e *botEvents) Booted(r bcnet.BootReason) {
	b := (*Bot)(e)
	b.mu.Lock()
	b.boot = r
	b.mu.Unlock()
	b.setState(Closed, fmt.Errorf("booted by the server (reason %d)", r))
}

func (e *botEvents) Disconnected() {
	b := (*Bot)(e)
	b.mu.Lock()
	b.shutdown = true
	b.mu.Unlock()
	b.setState(Closed, errors.New("the server shut down"))
}

func (e *botEvents) Peer(id byte, name string) {
	b := (*Bot)(e)
	b.mu.Lock()
	b.peers[id] = name
	b.mu.Unlock()
}

func (e *botEvents) PeerGone(id byte) {
	b := (*Bot)(e)
	b.mu.Lock()
	delete(b.peers, id)
	b.mu.Unlock()
}

func (e *botEvents) Message(payload []byte, reliable bool) {
	b := (*Bot)(e)
	if len(payload) == 0 {
		return
	}
	send := func(m []byte) { _ = b.client.Send(m, true) }
	switch b.join.Handle(payload, b.client.ID(), send) {
	case JoinChecksum:
		return
	case JoinSettings:
		s := b.join.Settings
		b.mu.Lock()
		b.settings = s
		if s.NameChanged {
			b.name = s.NewName
		}
		b.mu.Unlock()
		if s.NameChanged {
			// The stock client adopts the new name and announces it
			// with its identity again (handshake.md 2.5).
			_ = b.client.SetName(s.NewName)
		}
	case JoinLoading:
		b.setState(Loading, nil)
	case JoinRejected:
		if !b.cfg.StayOnReject {
			// The stock client leaves by itself (handshake.md 2.4).
			f, _ := codec.DecodeChecksumFail(payload)
			_ = b.client.Disconnect()
			defer b.setState(Closed, fmt.Errorf("checksum rejected (0x%02X %q)", payload[0], f.File))
		}
	case JoinInGame:
		b.setState(InGame, nil)
	case JoinFile:
		b.mu.Lock()
		b.pushErr = b.join.PushErr
		b.mu.Unlock()
	}
	now := time.Now()
	if b.cfg.OnMessage != nil && b.cfg.OnMessage(now, payload) {
		return
	}
	m := Message{At: now, Payload: append([]byte(nil), payload...), Reliable: reliable}
	select {
	case b.inbox <- m:
	default:
		// Drop the oldest so the newest (usually what a test waits for)
		// gets in.
		b.mu.Lock()
		b.dropped++
		b.mu.Unlock()
		select {
		case <-b.inbox:
		default:
		}
		select {
		case b.inbox <- m:
		default:
		}
	}
}
