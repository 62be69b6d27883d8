package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/bot"
)

// Over loopback UDP, our bot plays a stock client without a mod's
// Scripts/Multiplayer files: the server pushes them (one of them larger
// than one datagram, so fragmented), the bot acknowledges each, and it
// joins with the server's exact bytes (mods.md 5).
func TestUDPFilePush(t *testing.T) {
	big := make([]byte, 3000)
	for i := range big {
		big[i] = byte(i * 7)
	}
	host := map[string][]byte{
		"SpeciesToShip.pyc":        {0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0, 'm', 'o', 'd'},
		"__init__.pyc":             {0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0},
		"Episode/__init__.pyc":     {1},
		"Episode/KM4/KM4.pyc":      big,
		"Episode/KM4/__init__.pyc": {2},
	}
	dir := t.TempDir()
	for rel, data := range host {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := checksum.LoadPushTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, func(c *engine.Config) { c.Push, c.PushTree = checksum.PushPush, tree })
	files := bot.NewClientFiles(map[string][]byte{
		"SpeciesToShip.pyc":    {0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0, 's', 't', 'o', 'c', 'k'},
		"__init__.pyc":         {0x99, 0x4E, 0x0D, 0x0A, 7, 7, 7, 7}, // another timestamp: equal
		"Episode/__init__.pyc": {1},
	})
	b := newBot(t, srv, "Stock", func(c *bot.Config) { c.Files = files })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.WaitState(ctx, bot.InGame); err != nil {
		t.Fatal(err)
	}
	got := files.Received()
	want := []string{"Scripts/Multiplayer/SpeciesToShip.pyc", "Scripts/Multiplayer/Episode/KM4/KM4.pyc", "Scripts/Multiplayer/Episode/KM4/__init__.pyc"}
	if len(got) != len(want) || b.PushErr() != nil {
		t.Fatalf("received %+v (%v)", got, b.PushErr())
	}
	for i, r := range got {
		rel := r.Path[len("Scripts/Multiplayer/"):]
		if r.Path != want[i] || r.Hash != checksum.FileHash(host[rel]) || r.Size != len(host[rel]) {
			t.Errorf("file %d: %+v, want %s", i, r, want[i])
		}
		if data, _ := files.File(rel); string(data) != string(host[rel]) {
			t.Errorf("%s: stored bytes differ", rel)
		}
	}
}
