package lua

import (
	"io/fs"
	"regexp"
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
	mu    sync.Mutex
	m     map[string]*protoEntry // path + "\x00" + source -> entry
	bytes int                    // source bytes held as keys
}

// maxProtoSource bounds the source bytes the cache keys on: a host
// editing a mission for hours would otherwise keep every version. Past it
// the cache starts over (a compile costs milliseconds; nothing breaks).
const maxProtoSource = 8 << 20

type protoEntry struct {
	done  chan struct{} // nil, or closed once Warm set proto/err
	proto *glua.FunctionProto
	err   error
}

// NewProtos returns an empty cache.
func NewProtos() *Protos { return &Protos{m: make(map[string]*protoEntry)} }

// compile returns the compiled file, from the cache when it holds the same
// path and bytes (waiting if Warm is compiling them). charge, as for
// sandbox.Compile, is called once the file passed the nesting scan; a
// cached file passed it, so a hit calls it too. A miss compiles on the
// caller's goroutine, where charge may raise a Lua error.
func (c *Protos) compile(b []byte, name string, charge func()) (*glua.FunctionProto, error) {
	if c == nil {
		return sandbox.Compile(b, name, charge)
	}
	key := name + "\x00" + string(b)
	c.mu.Lock()
	e := c.m[key]
	c.mu.Unlock()
	if e != nil {
		if e.done != nil {
			<-e.done
		}
		if e.err == nil {
			if charge != nil {
				charge()
			}
			return e.proto, nil
		}
	}
	proto, err := sandbox.Compile(b, name, charge)
	if err == nil {
		c.store(key, &protoEntry{proto: proto})
	}
	return proto, err
}

// store puts e under key, starting over when the keys grow past the bound.
func (c *Protos) store(key string, e *protoEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	if c.bytes+len(key) > maxProtoSource {
		// Entries still compiling keep their waiters: those hold the entry.
		c.m = make(map[string]*protoEntry)
		c.bytes = 0
	}
	c.m[key] = e
	c.bytes += len(key)
}

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
	requireRE := regexp.MustCompile(`\brequire\s*\(?\s*["']([A-Za-z0-9_.]+)["']`)
	queue := []string{mode + "/" + MainFile}
	for _, a := range addons {
		queue = append(queue, AddonsDir+"/"+a+"/"+MainFile)
	}
	seen := make(map[string]bool)
	for len(queue) > 0 && len(seen) < maxSourceFiles {
		p := queue[0]
		queue = queue[1:]
		b, ok := src.files[p]
		if !ok || seen[p] {
			continue
		}
		seen[p] = true
		if !c.warmOne(p, b) {
			continue
		}
		for _, m := range requireRE.FindAllSubmatch(b, -1) {
			if q, ok := src.resolve(string(m[1]), p); ok {
				queue = append(queue, q)
			}
		}
	}
}

// warmOne compiles one file into the cache unless it is there or being
// compiled; it reports whether the file compiled (or was cached).
func (c *Protos) warmOne(name string, b []byte) bool {
	key := name + "\x00" + string(b)
	c.mu.Lock()
	if e := c.m[key]; e != nil {
		c.mu.Unlock()
		return true
	}
	e := &protoEntry{done: make(chan struct{})}
	c.m[key] = e
	c.bytes += len(key)
	c.mu.Unlock()
	defer close(e.done)
	e.proto, e.err = sandbox.Compile(b, name, nil)
	if e.err != nil {
		c.mu.Lock()
		if c.m[key] == e {
			delete(c.m, key)
			c.bytes -= len(key)
		}
		c.mu.Unlock()
		return false
	}
	return true
}
