package bot

import (
	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
)

// JoinStep is what a game message meant for a joining client.
type JoinStep int

// Join steps reported by Joiner.Handle.
const (
	JoinNothing  JoinStep = iota // not a join message
	JoinChecksum                 // a checksum request, answered (or left unanswered when Silent)
	JoinSettings                 // Settings: slot, map, maybe a new name
	JoinLoading                  // GameInit: NewPlayerInGame sent
	JoinInGame                   // the player-list event naming us: in the game
	JoinRejected                 // the host refused our checksums (0x22 / 0x23)
	JoinFile                     // a pushed file (0x25), stored and acknowledged with 0x27
)

// Joiner plays a stock client's side of the join sequence (handshake.md
// 2): it answers checksum requests from a manifest, takes Settings and
// answers GameInit with NewPlayerInGame. The Bot and the load generator
// share it.
type Joiner struct {
	Manifest *checksum.Manifest
	// Modem is the "using modem" flag reported in NewPlayerInGame.
	Modem bool
	// Silent sends nothing for a request the manifest does not cover, as a
	// stock client without those files (the default answers an empty
	// directory).
	Silent bool
	// Tamper may alter each checksum response before it is sent.
	Tamper func(req codec.ChecksumRequest, resp *codec.ChecksumResponse)
	// Settings is the last Settings message (Map aliases no datagram).
	Settings codec.Settings
	// Files, when set, is the client's Scripts/Multiplayer: round 0xFF is
	// answered from it rather than from the manifest, and pushed files
	// are written into it (mods.md 5.8).
	Files *ClientFiles
	// PushErr is the first pushed file that was refused (malformed, or a
	// path outside ErrPushPath's rules); it was acknowledged all the same,
	// as a stock client does.
	PushErr error
}

// Handle looks at one game message from the host. send queues a reliable
// message to the host; self is our wire id.
func (j *Joiner) Handle(payload []byte, self byte, send func([]byte)) JoinStep {
	if len(payload) == 0 {
		return JoinNothing
	}
	switch payload[0] {
	case codec.OpChecksumRequest:
		j.answer(payload, send)
		return JoinChecksum
	case codec.OpSettings:
		if s, err := codec.DecodeSettings(payload); err == nil {
			s.Map = append([]byte(nil), s.Map...)
			j.Settings = s
		}
		return JoinSettings
	case codec.OpGameInit:
		// The stock client answers Settings + GameInit with 2A 20 (2A 21 on
		// a modem).
		send(codec.NewPlayerInGame{Modem: j.Modem}.AppendTo(nil))
		return JoinLoading
	case codec.OpChecksumFailFile, codec.OpChecksumFailVer:
		return JoinRejected
	case codec.OpFileTransfer:
		// A stock client acknowledges every 0x25 it processed, whether or
		// not it could write the file (mods.md 5.6).
		if j.Files != nil {
			if _, err := j.Files.receive(payload); err != nil && j.PushErr == nil {
				j.PushErr = err
			}
		}
		send(codec.FileTransferAck{}.AppendTo(nil))
		return JoinFile
	case codec.OpPlayerListEvent:
		if ev, err := codec.DecodePlayerListEvent(payload); err == nil && ev.Code == codec.EventNewPlayerInGame && ev.PeerID == self {
			return JoinInGame
		}
	}
	return JoinNothing
}

func (j *Joiner) answer(payload []byte, send func([]byte)) {
	req, err := codec.DecodeChecksumRequest(payload)
	if err != nil {
		return
	}
	resp, ok := j.Manifest.Answer(req)
	if req.Round == checksum.FinalRound && j.Files != nil {
		if resp, ok = j.Files.Response(req); !ok {
			return // a directory without a .pyc: a stock client sends nothing
		}
	}
	if !ok {
		if j.Silent {
			return // a stock client with no matching files sends nothing
		}
		resp = codec.ChecksumResponse{Round: req.Round, DirHash: checksum.RequestDirHash(req.Dir)}
		if req.Round == 0 {
			resp.RefHash = j.Manifest.RefHash()
		}
	}
	if j.Tamper != nil {
		j.Tamper(req, &resp)
	}
	if out, err := resp.AppendTo(nil); err == nil {
		send(out)
	}
}
