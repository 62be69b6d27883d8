package lua

import (
	"bytes"
	"errors"
	"io/fs"
	"sync"

	"github.com/bcserver/bcserver/lua/sandbox"

	glua "github.com/yuin/gopher-lua"
)

// Protos is a compile cache for the missions of a process: a file compiled
// once (same path, same bytes) is reused by every Runtime given the cache
// and by every reload that finds the file unchanged. gopher-lua allows
// this: a compiled FunctionProto is read-only and any number of states may
// run it. Compiling the stock library takes a few milliseconds per game
// (lib/stock.lua alone is 2.4 ms), which was most of a cold start and
// most of starting 64 games.
//
// Only successful compiles are kept; a file that fails is compiled again
// by whoever needs it, so its errors and its budget charge are exactly
// those of an uncached compile. The zero value is not usable; a nil
// *Protos compiles every time. Safe for concurrent use.
type Protos struct {
	mu       sync.Mutex
	m        map[string]*protoEntry // path + "\x00" + source -> entry
	versions map[string][]string    // path -> its keys in m, oldest first
	bytes    int                    // source bytes held as keys
}

// The cache keeps what a host's games can use: a host editing a mission
// for hours would otherwise keep every version it saved, and compiled code
// is several times the size of its source. Per path, the newest
// maxProtoVersions (games of one process reload together, so two would
// do; more serve games from different folders that share a path); in all,
// maxProtoSource bytes of source, past which the cache starts over (a
// compile costs milliseconds; nothing breaks).
const (
	maxProtoVersions = 4
	maxProtoSource   = 4 << 20
)

type protoEntry struct {
	done  chan struct{} // closed once proto/err are set
	proto *glua.FunctionProto
	err   error
}

// NewProtos returns an empty cache.
func NewProtos() *Protos {
	return &Protos{m: make(map[string]*protoEntry), versions: make(map[string][]string)}
}

// compile returns the compiled file, from the cache when it holds the same
// path and bytes, waiting when another caller (a game, Warm) is compiling
// them. charge, as for sandbox.Compile, is called once the file passed the
// nesting scan; a cached file passed it, so a hit calls it too. A miss
// compiles on the caller's goroutine, where charge may raise a Lua error
// (a panic): the entry is then dropped and its waiters compile for
// themselves, as they do after any failure.
func (c *Protos) compile(b []byte, name string, charge func()) (*glua.FunctionProto, error) {
	if c == nil {
		return sandbox.Compile(b, name, charge)
	}
	key := name + "\x00" + string(b)
	e, owner := c.claim(name, key)
	if !owner {
		<-e.done
		if e.err == nil {
			if charge != nil {
				charge()
			}
			return e.proto, nil
		}
		return sandbox.Compile(b, name, charge)
	}
	finished := false
	defer func() {
		if !finished { // charge raised a Lua error
			c.drop(name, key, e, errAbandoned)
		}
	}()
	proto, err := sandbox.Compile(b, name, charge)
	finished = true
	if err != nil {
		c.drop(name, key, e, err)
		return nil, err
	}
	e.proto = proto
	close(e.done)
	return proto, nil
}

// errAbandoned is the outcome waiters see when the compile they waited
// for ended in a panic (a budget error raised by charge, a compiler
// panic in Warm).
var errAbandoned = errors.New("compile abandoned")

// claim returns the entry for key (a version of the file name) and
// whether the caller owns it: a new in-flight entry the caller must
// complete (close done, or drop it). Entries evicted while in flight keep
// their waiters: those hold the entry.
func (c *Protos) claim(name, key string) (*protoEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[key]; e != nil {
		return e, false
	}
	if c.bytes+len(key) > maxProtoSource {
		c.m = make(map[string]*protoEntry)
		c.versions = make(map[string][]string)
		c.bytes = 0
	}
	if vs := c.versions[name]; len(vs) >= maxProtoVersions {
		c.remove(name, vs[0])
	}
	e := &protoEntry{done: make(chan struct{})}
	c.m[key] = e
	c.versions[name] = append(c.versions[name], key)
	c.bytes += len(key)
	return e, true
}

// remove forgets key, a version of name (c.mu held).
func (c *Protos) remove(name, key string) {
	if _, ok := c.m[key]; !ok {
		return
	}
	delete(c.m, key)
	c.bytes -= len(key)
	vs := c.versions[name]
	for i, k := range vs {
		if k == key {
			vs = append(vs[:i:i], vs[i+1:]...)
			break
		}
	}
	if len(vs) == 0 {
		delete(c.versions, name)
	} else {
		c.versions[name] = vs
	}
}

// drop removes an entry whose compile failed and releases its waiters
// with err.
func (c *Protos) drop(name, key string, e *protoEntry, err error) {
	c.mu.Lock()
	if c.m[key] == e {
		c.remove(name, key)
	}
	c.mu.Unlock()
	e.proto, e.err = nil, err
	close(e.done)
}

// maxWarmSource bounds the source Warm compiles: it runs outside any
// mission budget, so a folder of huge files must not keep a core busy at
// start (the stock missions are ~30 KB).
const maxWarmSource = 1 << 20

// Warm compiles, on the calling goroutine, what a Runtime opening mode
// with these folders will compile first: the mode's main.lua, its addons'
// and the modules they require by a literal name, transitively. A Runtime
// that opens the mode meanwhile waits for a file being compiled here
// instead of compiling it again, so a caller starts Warm on another
// goroutine as early as it knows the mode (server.New does) and the
// compiling overlaps the rest of the start. Errors are left for the
// Runtime to report.
func (c *Protos) Warm(fsys, libFS fs.FS, mode string, addons []string) {
	if c == nil {
		return
	}
	src, err := readSource(fsys, libFS, mode, addons)
	if err != nil {
		return
	}
	queue := []string{mode + "/" + MainFile}
	for _, a := range addons {
		queue = append(queue, AddonsDir+"/"+a+"/"+MainFile)
	}
	seen := make(map[string]bool)
	budget := maxWarmSource
	for len(queue) > 0 && len(seen) < maxSourceFiles {
		p := queue[0]
		queue = queue[1:]
		b, ok := src.files[p]
		if !ok || seen[p] {
			continue
		}
		seen[p] = true
		if budget -= len(b); budget < 0 {
			return // the rest is compiled under the game's load budget
		}
		if !c.warmOne(p, b) {
			continue
		}
		for _, name := range literalRequires(b) {
			if q, ok := src.resolve(name, p); ok {
				queue = append(queue, q)
			}
		}
	}
}

// warmOne compiles one file into the cache unless it is there or being
// compiled; it reports whether the file compiled (or was cached).
func (c *Protos) warmOne(name string, b []byte) (ok bool) {
	key := name + "\x00" + string(b)
	e, owner := c.claim(name, key)
	if !owner {
		return true // compiled or being compiled: its requires are warmed by then or found by the game
	}
	finished := false
	defer func() {
		if !finished {
			// A compiler panic on some input: Warm runs on a goroutine of
			// its own, where it would end the process. The game that
			// needs the file compiles it itself and reports it there.
			_ = recover()
			c.drop(name, key, e, errAbandoned)
			ok = false
		}
	}()
	proto, err := sandbox.Compile(b, name, nil)
	finished = true
	if err != nil {
		c.drop(name, key, e, err)
		return false
	}
	e.proto = proto
	close(e.done)
	return true
}

// literalRequires returns the module names b passes to require as a
// literal: require("a.b"), require "a", require('c'). It is a guess for
// Warm (a name in a comment is compiled for nothing, a computed one is
// compiled when required), so it scans rather than parses: a regexp took
// over a millisecond on the stock library.
func literalRequires(b []byte) []string {
	var out []string
	const word = "require"
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte(word))
		if k < 0 {
			return out
		}
		at := i + k
		i = at + len(word)
		if at > 0 && isNameByte(b[at-1]) {
			continue // e.g. "myrequire"
		}
		j := i
		for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '(') {
			j++
		}
		if j >= len(b) || b[j] != '"' && b[j] != '\'' {
			continue
		}
		q := b[j]
		end := j + 1
		for end < len(b) && (isNameByte(b[end]) || b[end] == '.') {
			end++
		}
		if end < len(b) && b[end] == q && end > j+1 {
			out = append(out, string(b[j+1:end]))
		}
	}
}

func isNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
