package engine

import (
	"bytes"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/net/alby"
)

// lan is a game with several fake clients on the fake wire.
type lan struct {
	t   *testing.T
	g   *Game
	w   *testutil.Wire
	cs  []*fakeClient
	now time.Time
}

func newLAN(t *testing.T, cfg Config, names ...string) *lan {
	// Room for everyone named (the default limit is the stock 8).
	cfg.MaxPlayers = max(cfg.MaxPlayers, len(names))
	w := &testutil.Wire{Open: alby.Decrypt}
	g := newTestGame(t, cfg, w)
	l := &lan{t: t, g: g, w: w, now: t0}
	for _, n := range names {
		l.join(n)
	}
	return l
}

func (l *lan) join(name string) *fakeClient {
	c := newFakeClient(l.t, l.g, l.w, uint16(6000+len(l.cs)), name)
	c.now = l.now
	l.cs = append(l.cs, c)
	l.pump(vanillaAnswer(l.t))
	if p := l.g.Player(c.ev.accepted); p == nil || !p.InGame() {
		l.t.Fatalf("%s did not join", name)
	}
	return c
}

// pump moves datagrams both ways until nothing moves.
func (l *lan) pump(answer func([]byte) []byte) {
	for i := 0; i < 100; i++ {
		moved := false
		for _, c := range l.cs {
			c.now = l.now
			for d := c.c.Flush(l.now, nil); d != nil; d = c.c.Flush(l.now, nil) {
				feed(l.g, l.now, c.addr, d)
				moved = true
			}
		}
		out := l.w.Sent
		l.w.Sent = nil
		for _, s := range out {
			for _, c := range l.cs {
				if s.To != c.addr {
					continue
				}
				before := len(c.ev.msgs)
				_ = c.c.Receive(l.now, s.Data)
				if answer != nil {
					for _, m := range c.ev.msgs[before:] {
						if r := answer(m); r != nil {
							_ = c.c.Send(r, true)
						}
					}
				}
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}

// send has client c send payload and returns what every client received
// because of it.
func (l *lan) send(c *fakeClient, payload []byte, reliable bool) [][][]byte {
	marks := make([]int, len(l.cs))
	for i, o := range l.cs {
		marks[i] = len(o.ev.msgs)
	}
	if err := c.c.Send(payload, reliable); err != nil {
		l.t.Fatal(err)
	}
	l.pump(nil)
	got := make([][][]byte, len(l.cs))
	for i, o := range l.cs {
		got[i] = o.ev.msgs[marks[i]:]
	}
	return got
}

// retarget rewrites a captured slot-0 payload's object ids into slot s's
// block (ids at the given offsets) and its owner byte when owner >= 0.
func retarget(b []byte, slot int, owner int, idOffsets ...int) []byte {
	out := bytes.Clone(b)
	if owner >= 0 {
		out[owner] = byte(slot)
		if out[0] == codec.OpObjCreateTeam {
			// Byte 2 is the owner's wire player id; the test clients
			// join in slot order and get ids 2, 3, 4, ...
			out[2] = byte(slot + 2)
		}
	}
	for _, off := range idOffsets {
		id := int32(uint32(out[off]) | uint32(out[off+1])<<8 | uint32(out[off+2])<<16 | uint32(out[off+3])<<24)
		id += int32(slot) * 0x40000
		out[off], out[off+1], out[off+2], out[off+3] = byte(id), byte(id>>8), byte(id>>16), byte(id>>24)
	}
	return out
}

func eventMsg(op byte, factory, code uint32, src, dst int32, tail ...byte) []byte {
	return codec.Event{Op: op, Factory: factory, Code: code, Src: src, Dst: dst, Tail: tail}.AppendTo(nil)
}

const shipA = int32(0x3FFFFFFF) // slot 0's first object
