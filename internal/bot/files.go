package bot

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
)

// ClientFiles is a client's Scripts/Multiplayer folder, in memory: what a
// stock client hashes for checksum round 0xFF and where it writes the files
// a host pushes with 0x25 (mods.md 5.8). Paths are relative to
// Scripts/Multiplayer with "/" separators. Safe for concurrent use.
type ClientFiles struct {
	mu       sync.Mutex
	files    map[string][]byte
	received []Received
	notify   func(Received)
}

// Received is one file a host pushed.
type Received struct {
	// Path is the wire path as sent, e.g.
	// "Scripts/Multiplayer/SpeciesToShip.pyc".
	Path string
	Size int
	// Hash is the stock FileHash of the bytes received.
	Hash uint32
}

// NewClientFiles returns a folder holding files (copied).
func NewClientFiles(files map[string][]byte) *ClientFiles {
	c := &ClientFiles{files: map[string][]byte{}}
	for k, v := range files {
		c.files[k] = slices.Clone(v)
	}
	return c
}

// LoadClientFiles reads every file under dir of fsys (a client's
// Scripts/Multiplayer on disk, say).
func LoadClientFiles(fsys fs.FS, dir string) (*ClientFiles, error) {
	c := &ClientFiles{files: map[string][]byte{}}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := p
		if dir != "." {
			rel = strings.TrimPrefix(p, dir+"/")
		}
		c.files[rel] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("client files %s: %w", dir, err)
	}
	return c, nil
}

// File returns a copy of one file.
func (c *ClientFiles) File(rel string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.files[rel]
	return slices.Clone(b), ok
}

// Files returns a copy of every file.
func (c *ClientFiles) Files() map[string][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string][]byte, len(c.files))
	for k, v := range c.files {
		out[k] = slices.Clone(v)
	}
	return out
}

// Received lists the pushed files in arrival order.
func (c *ClientFiles) Received() []Received {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.received)
}

// Response builds the round-0xFF answer of a stock client holding these
// files (handshake.md 2.3): the *.pyc files (the request's filter,
// matched ignoring case as Windows does), each directory's files and
// subdirectories in byte-wise name order (mods.md 5.4), names hashed as
// stored. It returns false when the folder or any directory below it has
// no matching file: a stock client then sends nothing (mods.md 5.3 step 3).
func (c *ClientFiles) Response(req codec.ChecksumRequest) (codec.ChecksumResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	type dir struct {
		files map[string]uint32
		dirs  map[string]*dir
	}
	root := &dir{files: map[string]uint32{}, dirs: map[string]*dir{}}
	for rel, data := range c.files {
		if !strings.EqualFold(path.Ext(rel), ".pyc") {
			continue
		}
		d := root
		parts := strings.Split(rel, "/")
		for _, p := range parts[:len(parts)-1] {
			sub := d.dirs[p]
			if sub == nil {
				sub = &dir{files: map[string]uint32{}, dirs: map[string]*dir{}}
				d.dirs[p] = sub
			}
			d = sub
		}
		d.files[parts[len(parts)-1]] = checksum.FileHash(data)
	}
	var build func(d *dir) (codec.ChecksumTree, bool)
	build = func(d *dir) (codec.ChecksumTree, bool) {
		var t codec.ChecksumTree
		if len(d.files) == 0 {
			return t, false
		}
		for _, name := range slices.Sorted(maps.Keys(d.files)) {
			t.Files = append(t.Files, codec.FileEntry{NameHash: checksum.StringHash(name), ContentHash: d.files[name]})
		}
		for _, name := range slices.Sorted(maps.Keys(d.dirs)) {
			sub, ok := build(d.dirs[name])
			if !ok {
				return t, false
			}
			t.Subdirs = append(t.Subdirs, codec.SubdirEntry{NameHash: checksum.StringHash(name), Tree: sub})
		}
		return t, true
	}
	tree, ok := build(root)
	if !ok {
		return codec.ChecksumResponse{}, false
	}
	return codec.ChecksumResponse{Round: req.Round, DirHash: checksum.RequestDirHash(req.Dir), Tree: tree}, true
}

// ErrPushPath is returned for a pushed path a careful client refuses: not
// under Scripts/Multiplayer, with a ".." or empty component, or not a
// .pyc. A stock client enforces none of this (mods.md 5.8); the bot checks
// it so tests catch a server that sends such a path.
var ErrPushPath = errors.New("pushed path outside the rules")

// receive stores a 0x25 as a stock client writes it.
func (c *ClientFiles) receive(payload []byte) (Received, error) {
	m, err := codec.DecodeFileTransfer(payload)
	if err != nil {
		return Received{}, err
	}
	p := string(m.Path)
	rel, ok := strings.CutPrefix(p, checksum.MultiplayerDir+"/")
	if !ok || !strings.HasSuffix(rel, ".pyc") || strings.Contains(p, `\`) {
		return Received{}, fmt.Errorf("%q: %w", p, ErrPushPath)
	}
	for _, part := range strings.Split(rel, "/") {
		if part == "" || part == "." || part == ".." {
			return Received{}, fmt.Errorf("%q: %w", p, ErrPushPath)
		}
	}
	r := Received{Path: p, Size: len(m.Data), Hash: checksum.FileHash(m.Data)}
	c.mu.Lock()
	c.files[rel] = slices.Clone(m.Data)
	c.received = append(c.received, r)
	notify := c.notify
	c.mu.Unlock()
	if notify != nil {
		notify(r)
	}
	return r, nil
}

// OnReceive sets fn to be called with each file stored from a push, in
// arrival order, on the bot's goroutine (bcbot prints them).
func (c *ClientFiles) OnReceive(fn func(Received)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notify = fn
}
