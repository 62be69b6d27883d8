package engine

import (
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
)

// Checksum round 0xFF and the file push (mods.md 5): the rules of
// Config.Push, the one-file-per-0x27 transfer and its timeouts.

// Push timeouts (mods.md 5.10 rule 6; stock has none): the first file
// waits for a person to answer the client's "Receive File Warning"
// dialog.
const (
	DefaultPushFirstAck = 180 * time.Second
	DefaultPushAck      = 60 * time.Second
	DefaultPushTotal    = 10 * time.Minute
)

// pushRepeatWindow is how long a pushed path is remembered per client
// address: pushed again within it, the client has a .py that overrides the
// push (mods.md 5.8, 5.10 rule 9).
const pushRepeatWindow = time.Hour

// maxPushLog bounds the remembered pushes.
const maxPushLog = 4096

// pushState is one join's transfer in progress.
type pushState struct {
	files   []*checksum.PushFile
	next    int // index of the file the next 0x27 asks for
	started time.Time
	bytes   int
}

type pushKey struct {
	addr netip.Addr
	path string
}

// pushLog remembers recent pushes per client address.
type pushLog map[pushKey]time.Time

// pushWarnLog remembers when a client address was last warned about, per
// warning: a client rejoining in a loop made one warning per file per
// join (2,250 lines in a third of a second).
type pushWarnLog map[pushWarnKey]time.Time

type pushWarnKey struct {
	addr netip.Addr
	what string
}

// pushWarnEvery is the shortest time between two push warnings of one
// kind about one address; the ones between are counted (Stats) and at
// debug.
const pushWarnEvery = 10 * time.Minute

// pushWarn logs a push warning about addr unless the same warning was
// logged about it within pushWarnEvery (then at debug). It reports whether
// it warned.
func (g *Game) pushWarn(addr netip.Addr, what string, attrs ...any) bool {
	if g.mod.pushWarns == nil {
		g.mod.pushWarns = pushWarnLog{}
	}
	k := pushWarnKey{addr, what}
	if at, ok := g.mod.pushWarns[k]; ok && g.now.Sub(at) < pushWarnEvery {
		g.Stats.PushWarningsThrottled.Add(1)
		g.log.Debug(what, attrs...)
		return false
	}
	g.mod.pushWarns[k] = g.now
	if len(g.mod.pushWarns) > maxPushLog {
		for k, at := range g.mod.pushWarns {
			if g.now.Sub(at) >= pushWarnEvery {
				delete(g.mod.pushWarns, k)
			}
		}
		if len(g.mod.pushWarns) > maxPushLog {
			clear(g.mod.pushWarns) // only the throttle is lost
		}
	}
	g.log.Warn(what, append(attrs, "next_in", pushWarnEvery.String())...)
	return true
}

// finalRound applies Config.Push to a well-formed round-0xFF response.
func (g *Game) finalRound(p *Player, resp codec.ChecksumResponse) {
	tree := g.cfg.PushTree
	if g.cfg.Push == checksum.PushOff || tree == nil {
		g.checkSpeciesTables(p, resp)
		g.validated(p)
		return
	}
	d := tree.Diff(resp)
	if d.DirMismatch {
		g.log.Info("round 0xFF from a non-stock client: dir_hash is not Scripts/Multiplayer's", "player", p.ID, "name", p.Name, "dir_hash", resp.DirHash)
	}
	if len(d.Files) == 0 {
		g.validated(p)
		return
	}
	if g.cfg.Push == checksum.PushPush {
		err := g.cfg.PushLimits.Check(d)
		if err == nil {
			g.startPush(p, d)
			return
		}
		// Never a partial set: the join falls back to verify (mods.md 5.10
		// rule 3).
		g.pushWarn(p.Addr.Addr(), "file push over its limits, verifying instead", "player", p.ID, "name", p.Name, "addr", p.Addr, "reason", err)
	}
	g.rejectPlayer(p, checksum.Result{Round: checksum.FinalRound, Opcode: codec.OpChecksumFailFile, File: d.First(),
		Reason: "Scripts/Multiplayer differs from the server's: " + d.First()})
}

// startPush sends the first file. Settings follows the 0x27 of the last
// one (mods.md 5.7).
func (g *Game) startPush(p *Player, d checksum.PushDiff) {
	p.push = &pushState{files: d.Files, started: g.now, bytes: d.Bytes()}
	g.log.Info("pushing files to a joining player", "player", p.ID, "name", p.Name, "addr", p.Addr,
		"files", len(d.Files), "bytes", p.push.bytes)
	g.sendPushFile(p, g.cfg.PushFirstAck)
}

// sendPushFile sends the next file and arms the wait for its 0x27.
func (g *Game) sendPushFile(p *Player, wait time.Duration) {
	ps := p.push
	f := ps.files[ps.next]
	ps.next++
	m := codec.FileTransfer{Path: []byte(f.Path), Data: f.Data}
	if err := g.send(p, m.AppendTo(make([]byte, 0, m.Len())), true); err != nil {
		g.pushWarn(p.Addr.Addr(), "file push failed", "player", p.ID, "addr", p.Addr, "file", f.Path, "err", err)
	}
	g.log.Debug("file pushed", "player", p.ID, "file", f.Path, "bytes", f.Size, "n", ps.next, "of", len(ps.files))
	g.notePushed(p.Addr.Addr(), f.Path)
	p.deadline = g.now.Add(wait)
	if end := ps.started.Add(g.cfg.PushTotal); end.Before(p.deadline) {
		p.deadline = end
	}
}

// fileAck handles a 0x27 from a joining player: the next file, or after
// the last one 0x28 + Settings + GameInit. A 0x27 with no push pending is
// ignored (a stock host would resend the whole bundle; mods.md 5.10 rule 7).
func (g *Game) fileAck(p *Player, payload []byte) {
	if _, err := codec.DecodeFileTransferAck(payload); err != nil {
		g.Stats.Malformed.Add(1)
		g.log.Debug("malformed file ack", "player", p.ID, "err", err)
		return
	}
	ps := p.push
	if ps == nil {
		g.dropHandshake(p, payload[0], "file ack with no push pending")
		return
	}
	if ps.next < len(ps.files) {
		g.sendPushFile(p, g.cfg.PushAck)
		return
	}
	p.push = nil
	g.log.Debug("file push complete", "player", p.ID, "files", len(ps.files), "seconds", g.now.Sub(ps.started).Seconds())
	g.validated(p)
}

// notePushed remembers a push and warns when the same path went to the
// same address within the hour: that client has a .py that recompiles over
// the pushed .pyc at every join (mods.md 5.8).
func (g *Game) notePushed(addr netip.Addr, path string) {
	if g.mod.pushes == nil {
		g.mod.pushes = pushLog{}
	}
	k := pushKey{addr, path}
	if at, ok := g.mod.pushes[k]; ok && g.now.Sub(at) < pushRepeatWindow {
		g.pushWarn(addr, "file pushed again to the same client within the hour: it has a .py overriding the pushed .pyc",
			"addr", addr, "file", path, "last", at)
	}
	g.mod.pushes[k] = g.now
	if len(g.mod.pushes) > maxPushLog {
		for k, at := range g.mod.pushes {
			if g.now.Sub(at) >= pushRepeatWindow {
				delete(g.mod.pushes, k)
			}
		}
		if len(g.mod.pushes) > maxPushLog {
			clear(g.mod.pushes) // only a warning is lost
		}
	}
}

// checkSpeciesTables warns, in push mode off, when a client's compiled
// species tables hash otherwise than the ones the pack was built from:
// without them the server's model of a ship can silently differ from the
// clients' (mods.md 7.3).
func (g *Game) checkSpeciesTables(p *Player, resp codec.ChecksumResponse) {
	if len(g.cfg.SpeciesTables) == 0 {
		return
	}
	for name, want := range g.cfg.SpeciesTables {
		h := checksum.StringHash(name)
		got, found := uint32(0), false
		for _, f := range resp.Tree.Files {
			if f.NameHash == h {
				got, found = f.ContentHash, true
				break
			}
		}
		if !found || got != want {
			g.log.Warn("client's species table differs from the ship data's: its ships may not match the server's model",
				"player", p.ID, "name", p.Name, "file", checksum.MultiplayerDir+"/"+name, "present", found)
		}
	}
}
