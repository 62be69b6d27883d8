package engine

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

func fakePyc(body string) []byte { return append([]byte{0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0}, body...) }

// writeFiles lays out slash paths under dir.
func writeFiles(t *testing.T, dir string, files map[string][]byte) string {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hostScripts is the server's push tree: a mod's species table and mission.
var hostScripts = map[string][]byte{
	"SpeciesToShip.pyc":         fakePyc("mod species"),
	"__init__.pyc":              fakePyc(""),
	"Episode/__init__.pyc":      fakePyc(""),
	"Episode/KM4/KM4.pyc":       fakePyc("km mission"),
	"Episode/KM4/KM4Menus.pyc":  fakePyc("km menus"),
	"Episode/Mission1/M1.pyc":   fakePyc("stock"),
	"Episode/Mission1/init.pyc": fakePyc(""),
}

// stockScripts is a client without the mod: the stock species table.
var stockScripts = map[string][]byte{
	"SpeciesToShip.pyc":         fakePyc("stock species"),
	"__init__.pyc":              fakePyc(""),
	"Episode/__init__.pyc":      fakePyc(""),
	"Episode/Mission1/M1.pyc":   fakePyc("stock"),
	"Episode/Mission1/init.pyc": fakePyc(""),
}

// scriptsClient answers like a stock client whose Scripts/Multiplayer
// holds files: vanilla rounds 0-3, round 0xFF hashed from files, and each
// 0x25 written into files and acknowledged. hold keeps the 0x27 back.
type scriptsClient struct {
	t        *testing.T
	files    map[string][]byte
	vanilla  func([]byte) []byte
	received []string
	hold     bool
}

func newScriptsClient(t *testing.T, files map[string][]byte) *scriptsClient {
	c := &scriptsClient{t: t, files: map[string][]byte{}, vanilla: vanillaAnswer(t)}
	for k, v := range files {
		c.files[k] = v
	}
	return c
}

func (c *scriptsClient) answer(p []byte) []byte {
	switch p[0] {
	case codec.OpChecksumRequest:
		req, _ := codec.DecodeChecksumRequest(p)
		if req.Round != checksum.FinalRound {
			return c.vanilla(p)
		}
		root := c.t.TempDir()
		writeFiles(c.t, filepath.Join(root, "Scripts", "Multiplayer"), c.files)
		m, err := checksum.Build(root, checksum.BuildOptions{})
		if err != nil {
			c.t.Fatal(err)
		}
		resp, ok := m.Answer(req)
		if !ok {
			c.t.Fatal("no files")
		}
		b, _ := resp.AppendTo(nil)
		return b
	case codec.OpFileTransfer:
		m, err := codec.DecodeFileTransfer(p)
		if err != nil {
			c.t.Fatalf("0x25: %v", err)
		}
		rel, ok := strings.CutPrefix(string(m.Path), "Scripts/Multiplayer/")
		if !ok {
			c.t.Fatalf("pushed path %q", m.Path)
		}
		c.files[rel] = bytes.Clone(m.Data)
		c.received = append(c.received, rel)
		if c.hold {
			return nil
		}
		return codec.FileTransferAck{}.AppendTo(nil)
	}
	return c.vanilla(p)
}

func pushGame(t *testing.T, mode checksum.PushMode, mutate func(*Config)) (*Game, *testutil.Wire, *bytes.Buffer) {
	t.Helper()
	tree, err := checksum.LoadPushTree(writeFiles(t, t.TempDir(), hostScripts))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Push, cfg.PushTree = mode, tree
	if mutate != nil {
		mutate(&cfg)
	}
	var logs bytes.Buffer
	w := &testutil.Wire{Open: alby.Decrypt}
	g, err := NewGame(Options{Config: cfg, Out: w, Now: t0, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return g, w, &logs
}

// idle lets d pass in keepalive-sized steps, the client's transport
// answering as a stock client's does while a dialog is open.
func (fc *fakeClient) idle(d time.Duration) {
	const step = time.Second
	for end := fc.now.Add(d); fc.now.Before(end); {
		fc.now = fc.now.Add(min(step, end.Sub(fc.now)))
		_ = fc.c.Tick(fc.now)
		fc.g.Advance(fc.now)
		fc.pump(nil)
	}
}

func opsOf(ms [][]byte) []byte {
	var out []byte
	for _, m := range ms {
		out = append(out, m[0])
	}
	return out
}

// A stock client without the mod receives the mod's differing and missing
// files, one 0x25 per 0x27, in the stock order, and then 0x28, Settings and
// GameInit; its files then equal the server's (mods.md 5.3-5.7).
func TestPushJoin(t *testing.T) {
	g, w, logs := pushGame(t, checksum.PushPush, nil)
	sc := newScriptsClient(t, stockScripts)
	c := newFakeClient(t, g, w, 5001, "Modless")
	c.pump(sc.answer)
	if p := g.Player(2); p == nil || !p.InGame() {
		t.Fatalf("not in game: %+v\n%s", p, logs)
	}
	want := []string{"SpeciesToShip.pyc", "Episode/KM4/KM4.pyc", "Episode/KM4/KM4Menus.pyc"}
	if strings.Join(sc.received, ",") != strings.Join(want, ",") {
		t.Fatalf("pushed %q, want %q", sc.received, want)
	}
	for rel, data := range hostScripts {
		if !bytes.Equal(sc.files[rel], data) {
			t.Errorf("%s differs after the push", rel)
		}
	}
	// After the last 0x25 come 0x28, Settings, GameInit.
	ops := opsOf(c.ev.msgs)
	i := bytes.LastIndexByte(ops, codec.OpFileTransfer)
	if !bytes.HasPrefix(ops[i+1:], []byte{codec.OpTransferDone, codec.OpSettings, codec.OpGameInit}) {
		t.Fatalf("after the push: % X", ops[i+1:])
	}
	if bytes.Count(ops, []byte{codec.OpSettings}) != 1 || bytes.IndexByte(ops, codec.OpSettings) < i {
		t.Fatalf("settings before the last file: % X", ops)
	}
	if !strings.Contains(logs.String(), "pushing files to a joining player") || !strings.Contains(logs.String(), "files=3") {
		t.Errorf("no push log line:\n%s", logs)
	}
	// The same address joins again, now with the mod: nothing to push.
	_ = c.c.Disconnect()
	c.pump(nil)
	again := newFakeClient(t, g, w, 5002, "Modded")
	again.pump(sc.answer)
	if len(sc.received) != 3 || g.Player(3) == nil || !g.Player(3).InGame() {
		t.Fatalf("second join pushed %q", sc.received[3:])
	}
	if strings.Contains(logs.String(), "pushed again") {
		t.Fatalf("a repeat warning without a repeat:\n%s", logs)
	}
	// A client at the same address that lost the files again (a .py
	// recompiled over them, mods.md 5.8) is pushed them again, with a
	// warning: one for the address, however many files and rejoins (a
	// client rejoining in a loop made one per file per join); the rest are
	// counted and at debug.
	warns := func() int {
		n := 0
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "level=WARN") && strings.Contains(l, "pushed again") {
				n++
			}
		}
		return n
	}
	third := newFakeClient(t, g, w, 5003, "Overridden")
	third.pump(newScriptsClient(t, stockScripts).answer)
	if n := strings.Count(logs.String(), "pushed again"); n != 3 || warns() != 1 {
		t.Fatalf("%d repeat lines (want 3), %d at warn (want 1):\n%s", n, warns(), logs)
	}
	for i := range 10 {
		_ = third.c.Disconnect()
		third.pump(nil)
		third = newFakeClient(t, g, w, uint16(5004+i), "Overridden")
		third.pump(newScriptsClient(t, stockScripts).answer)
	}
	if warns() != 1 || g.Stats.PushWarningsThrottled.Load() != 32 {
		t.Fatalf("after 10 rejoins: %d warnings, %d throttled (want 1, 32)", warns(), g.Stats.PushWarningsThrottled.Load())
	}
}

// One file is outstanding at a time; the wait for the first 0x27 is long
// enough for a person to answer the dialog, later ones are shorter, and a
// client that never answers is dropped (mods.md 5.10 rule 6).
func TestPushOneAtATimeAndTimeouts(t *testing.T) {
	g, w, logs := pushGame(t, checksum.PushPush, nil)
	sc := newScriptsClient(t, stockScripts)
	sc.hold = true
	c := newFakeClient(t, g, w, 5001, "Slow")
	c.pump(sc.answer)
	p := g.Player(2)
	if len(sc.received) != 1 || p == nil || p.State != StateChecksum {
		t.Fatalf("received %q before any 0x27", sc.received)
	}
	// A person takes almost three minutes to press OK; the client's
	// transport keeps the connection alive meanwhile.
	c.idle(DefaultPushFirstAck - time.Second)
	if g.Player(2) == nil {
		t.Fatal("dropped while the dialog was open")
	}
	_ = c.c.Send(codec.FileTransferAck{}.AppendTo(nil), true)
	c.pump(sc.answer)
	if len(sc.received) != 2 {
		t.Fatalf("received %q after one 0x27", sc.received)
	}
	c.idle(DefaultPushAck + time.Second)
	if g.Player(2) != nil || !c.ev.booted || c.ev.boot != bcnet.BootTimedOut {
		t.Fatalf("a client that stopped answering is still there (booted %t)", c.ev.booted)
	}
	if !strings.Contains(logs.String(), "file push timed out") {
		t.Errorf("no timeout log:\n%s", logs)
	}
}

// Stray 0x27s (none pending, or after the push) are ignored, and a client
// may not send 0x25 itself (mods.md 5.10 rule 7).
func TestPushStrayMessages(t *testing.T) {
	g, w, _ := pushGame(t, checksum.PushPush, nil)
	sc := newScriptsClient(t, hostScripts) // nothing to push
	c := newFakeClient(t, g, w, 5001, "Stray")
	sent := false
	c.pump(func(p []byte) []byte {
		if !sent && p[0] == codec.OpChecksumRequest {
			sent = true
			_ = c.c.Send(codec.FileTransferAck{}.AppendTo(nil), true)
			_ = c.c.Send(codec.FileTransfer{Path: []byte("Scripts/x.pyc")}.AppendTo(nil), true)
		}
		if p[0] == codec.OpGameInit {
			_ = c.c.Send(codec.FileTransferAck{}.AppendTo(nil), true)
		}
		return sc.answer(p)
	})
	if p := g.Player(2); p == nil || !p.InGame() {
		t.Fatal("stray messages broke the join")
	}
	_ = c.c.Send(codec.FileTransferAck{}.AppendTo(nil), true)
	c.pump(nil)
	ops := opsOf(c.ev.msgs)
	if n := bytes.Count(ops, []byte{codec.OpSettings}); n != 1 || bytes.Contains(ops, []byte{codec.OpFileTransfer}) {
		t.Fatalf("a stray 0x27 was answered: % X", ops)
	}
	if g.Stats.HandshakeDropped.Load() != 3 {
		t.Errorf("dropped %d handshake messages, want 3", g.Stats.HandshakeDropped.Load())
	}
}

// Verify mode, and push mode over its limits, refuse a client whose files
// differ with 0x22 naming the first differing path (mods.md 5.10).
func TestPushVerify(t *testing.T) {
	for name, setup := range map[string]func(*Config){
		"verify":             func(c *Config) { c.Push = checksum.PushVerify },
		"push over a limit":  func(c *Config) { c.PushLimits.JoinFiles = 2 },
		"push over the size": func(c *Config) { c.PushLimits.JoinBytes = 20 },
	} {
		t.Run(name, func(t *testing.T) {
			g, w, _ := pushGame(t, checksum.PushPush, setup)
			sc := newScriptsClient(t, stockScripts)
			c := newFakeClient(t, g, w, 5001, "Refused")
			c.pump(sc.answer)
			last := c.ev.msgs[len(c.ev.msgs)-1]
			f, err := codec.DecodeChecksumFail(last)
			if err != nil || f.File != "Scripts/Multiplayer/SpeciesToShip.pyc" || len(sc.received) != 0 {
				t.Fatalf("reply %X (%v), pushed %q", last, err, sc.received)
			}
			ok := newScriptsClient(t, hostScripts)
			d := newFakeClient(t, g, w, 5002, "Same")
			d.pump(ok.answer)
			if p := g.Player(3); p == nil || !p.InGame() {
				t.Fatal("a client with the server's files was refused")
			}
		})
	}
}

// A client leaving in the middle of a push takes its queue with it.
func TestPushLeave(t *testing.T) {
	g, w, _ := pushGame(t, checksum.PushPush, nil)
	sc := newScriptsClient(t, stockScripts)
	sc.hold = true
	c := newFakeClient(t, g, w, 5001, "Gone")
	c.pump(sc.answer)
	p := g.Player(2)
	if p == nil || p.push == nil {
		t.Fatal("no push in progress")
	}
	_ = c.c.Disconnect()
	c.pump(nil)
	if g.Player(2) != nil || p.push != nil {
		t.Fatal("push kept after the leave")
	}
	g.Advance(c.now.Add(DefaultPushTotal))
}

// With the push off, a client whose species tables differ from the pack's
// is logged (mods.md 7.3) and admitted.
func TestSpeciesTablesWarning(t *testing.T) {
	g, w, logs := pushGame(t, checksum.PushOff, func(c *Config) {
		c.SpeciesTables = map[string]uint32{"SpeciesToShip.pyc": checksum.FileHash(hostScripts["SpeciesToShip.pyc"])}
	})
	newFakeClient(t, g, w, 5001, "Modded").pump(newScriptsClient(t, hostScripts).answer)
	if strings.Contains(logs.String(), "species table differs") {
		t.Fatalf("warned about a matching table:\n%s", logs)
	}
	c := newFakeClient(t, g, w, 5002, "Stock")
	c.pump(newScriptsClient(t, stockScripts).answer)
	if p := g.Player(3); p == nil || !p.InGame() || !strings.Contains(logs.String(), "species table differs") {
		t.Fatalf("player %+v, logs:\n%s", p, logs)
	}
}

func TestPushConfigValidated(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Push = checksum.PushVerify
	if err := cfg.Validate(); err == nil {
		t.Error("verify without a tree")
	}
	m, err := checksum.Build(writeFiles(t, t.TempDir(), map[string][]byte{"Scripts/Multiplayer/__init__.pyc": fakePyc("")}), checksum.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.PushTree, _ = checksum.PushTreeFromManifest(m)
	if err := cfg.Validate(); err != nil {
		t.Errorf("verify from a manifest: %v", err)
	}
	cfg.Push = checksum.PushPush
	if err := cfg.Validate(); err == nil {
		t.Error("push from a manifest's hashes")
	}
}
