package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
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
	switch payload[0] {
	case codec.OpChecksumRequest:
		b.answerChecksum(payload)
		return
	case codec.OpSettings:
		if s, err := codec.DecodeSettings(payload); err == nil {
			s.Map = append([]byte(nil), s.Map...)
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
		}
	case codec.OpGameInit:
		// The stock client answers Settings + GameInit with 2A 20 (2A 21 on
		// a modem).
		_ = b.client.Send(codec.NewPlayerInGame{Modem: b.cfg.Modem}.AppendTo(nil), true)
		b.setState(Loading, nil)
	case codec.OpChecksumFailFile, codec.OpChecksumFailVer:
		if !b.cfg.StayOnReject {
			// The stock client leaves by itself (handshake.md 2.4).
			f, _ := codec.DecodeChecksumFail(payload)
			_ = b.client.Disconnect()
			defer b.setState(Closed, fmt.Errorf("checksum rejected (0x%02X %q)", payload[0], f.File))
		}
	case codec.OpPlayerListEvent:
		if ev, err := codec.DecodePlayerListEvent(payload); err == nil && ev.Code == codec.EventNewPlayerInGame && ev.PeerID == b.client.ID() {
			b.setState(InGame, nil)
		}
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

func (b *Bot) answerChecksum(payload []byte) {
	req, err := codec.DecodeChecksumRequest(payload)
	if err != nil {
		b.log.Debug("bad checksum request", "err", err)
		return
	}
	resp, ok := b.manifest.Answer(req)
	if !ok {
		if b.cfg.Silent {
			return // a stock client with no matching files sends nothing
		}
		resp = codec.ChecksumResponse{Round: req.Round, DirHash: checksum.RequestDirHash(req.Dir)}
		if req.Round == 0 {
			resp.RefHash = b.manifest.RefHash()
		}
	}
	if b.cfg.Tamper != nil {
		b.cfg.Tamper(req, &resp)
	}
	out, err := resp.AppendTo(nil)
	if err != nil {
		b.log.Debug("encoding checksum response", "err", err)
		return
	}
	_ = b.client.Send(out, true)
}
