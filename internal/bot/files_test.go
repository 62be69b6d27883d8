package bot

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
)

var clientScripts = map[string][]byte{
	"SpeciesToShip.pyc":             {0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0, 's'},
	"__init__.pyc":                  {0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0},
	"SpeciesToShip.py":              []byte("# source"),
	"Episode/__init__.pyc":          {1},
	"Episode/Mission1/Mission1.pyc": {2, 3},
	"Episode/Mission1/__init__.pyc": {4},
	"Episode/Mission2/Mission2.pyc": {5},
}

// The round-0xFF answer from memory equals what a stock client with the
// same files on disk sends (the manifest builder's answer).
func TestClientFilesResponse(t *testing.T) {
	root := t.TempDir()
	for rel, data := range clientScripts {
		p := filepath.Join(root, "Scripts", "Multiplayer", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := checksum.Build(root, checksum.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := checksum.StockRequests()[4]
	want, _ := m.Answer(req)
	got, ok := NewClientFiles(clientScripts).Response(req)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("response\n got %+v\nwant %+v", got, want)
	}
	disk, err := LoadClientFiles(os.DirFS(root), "Scripts/Multiplayer")
	if err != nil || !reflect.DeepEqual(disk.Files(), clientScripts) {
		t.Fatalf("loaded %v, %v", disk.Files(), err)
	}
	// The folder itself as the file system (bcbot -client-scripts).
	self, err := LoadClientFiles(os.DirFS(filepath.Join(root, "Scripts", "Multiplayer")), ".")
	if err != nil || !reflect.DeepEqual(self.Files(), clientScripts) {
		t.Fatalf("loaded %v, %v", self.Files(), err)
	}
	// A folder without a .pyc of its own: a stock client sends nothing.
	hollow := NewClientFiles(map[string][]byte{"__init__.pyc": {1}, "Episode/Mission1/Mission1.pyc": {2}})
	if _, ok := hollow.Response(req); ok {
		t.Error("answered with a hollow folder")
	}
}

func TestClientFilesReceive(t *testing.T) {
	c := NewClientFiles(clientScripts)
	var j Joiner
	j.Files = c
	var sent [][]byte
	send := func(b []byte) { sent = append(sent, b) }
	push := func(p string, data []byte) JoinStep {
		return j.Handle(codec.FileTransfer{Path: []byte(p), Data: data}.AppendTo(nil), 2, send)
	}
	if push("Scripts/Multiplayer/Episode/KM4/KM4.pyc", []byte{9, 9}) != JoinFile {
		t.Fatal("not a file step")
	}
	if b, ok := c.File("Episode/KM4/KM4.pyc"); !ok || string(b) != "\x09\x09" {
		t.Fatalf("stored %X", b)
	}
	for _, bad := range []string{"Scripts/Multiplayer/../../evil.pyc", "Scripts/ships/x.pyc", "Scripts/Multiplayer/x.py", `Scripts/Multiplayer\x.pyc`} {
		j.PushErr = nil
		push(bad, nil)
		if !errors.Is(j.PushErr, ErrPushPath) {
			t.Errorf("%q: %v", bad, j.PushErr)
		}
	}
	// Every 0x25 is acknowledged, refused or not (mods.md 5.6).
	if len(sent) != 5 {
		t.Fatalf("%d acks for 5 files", len(sent))
	}
	for _, s := range sent {
		if len(s) != 1 || s[0] != codec.OpFileTransferAck {
			t.Fatalf("ack %X", s)
		}
	}
	if r := c.Received(); len(r) != 1 || r[0].Path != "Scripts/Multiplayer/Episode/KM4/KM4.pyc" || r[0].Hash != checksum.FileHash([]byte{9, 9}) {
		t.Fatalf("received %+v", r)
	}
}
