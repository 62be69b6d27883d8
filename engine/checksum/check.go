package checksum

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/codec"
)

// Mode chooses how strictly content hashes are enforced (handshake.md 2.4
// rule 5). Names, directory hashes and the set of files are always
// checked except in ModeOff.
type Mode uint8

const (
	// ModeVerified, the default, enforces content hashes of verified
	// entries only and reports the others as soft mismatches, because the
	// vanilla manifest's unverified hashes are wrong for files whose length
	// mod 4 is 2 or 3 (handshake.md 3.3).
	ModeVerified Mode = iota
	// ModeStrict enforces every content hash in the manifest.
	ModeStrict
	// ModeOff accepts every response that parsed.
	ModeOff
)

// ParseMode reads "verified" (or ""), "strict" or "off", ignoring case.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "verified":
		return ModeVerified, nil
	case "strict":
		return ModeStrict, nil
	case "off":
		return ModeOff, nil
	}
	return ModeVerified, fmt.Errorf("checksum mode %q: want verified, strict or off", s)
}

// String returns the name ParseMode accepts.
func (m Mode) String() string {
	switch m {
	case ModeVerified:
		return "verified"
	case ModeStrict:
		return "strict"
	case ModeOff:
		return "off"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// MarshalText implements encoding.TextMarshaler for configuration files.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler via ParseMode.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Result is the verdict on one response.
type Result struct {
	OK    bool
	Round uint8
	// Opcode is the reply to send when !OK: codec.ChecksumFailVersionOpcode
	// (0x23) for a bad round-0 ref_hash, codec.ChecksumFailFileOpcode
	// (0x22) for anything else (handshake.md 2.4).
	Opcode uint8
	// File is the string the 0x22 reply carries: the relative path of the
	// first differing file as a stock host builds it (the normalised
	// request directory, the subdirectories and the file name with the
	// manifest's letter case, e.g. "scripts/ships/Hardpoints/akira.pyc";
	// a name the manifest lacks is its hash in hex), or the normalised
	// request directory when the failure is not about one file
	// (handshake.md 2.4). For 0x23 it is the version string.
	File string
	// Reason says what failed, for the host's log.
	Reason string
	// Note, when set, says why (part of) the tree was not checked, e.g.
	// the manifest has no entry for round 0xFF.
	Note string
	// Soft lists content mismatches on unverified entries in ModeVerified:
	// log them, do not punish (handshake.md 3.3).
	Soft []Mismatch
}

// Reply returns the 0x22/0x23 message for a failed Result.
func (r Result) Reply() codec.ChecksumFail {
	return codec.ChecksumFail{Opcode: r.Opcode, File: r.File}
}

// Mismatch is a content hash that differs from the manifest.
type Mismatch struct {
	Path     string // e.g. "scripts/ships/Hardpoints/akira.pyc"
	NameHash uint32
	Want     uint32 // manifest
	Got      uint32 // client
}

// String formats the mismatch for a log line.
func (m Mismatch) String() string {
	return fmt.Sprintf("%s: content hash 0x%08X, manifest has 0x%08X (unverified)", m.Path, m.Got, m.Want)
}

// Policy is how Check judges a response: the content-hash Mode and the
// presence rule.
type Policy struct {
	Mode Mode
	// RequirePresent also fails a client that lacks a manifest file or
	// subdirectory. It is stricter than stock, which passes such a client
	// in rounds 0-3 (handshake.md 2.4 rule 3), and refuses clients a stock
	// host accepts; it is kept as an option for hosts that want every file
	// of the manifest on every client.
	RequirePresent bool
}

// Check validates resp, the client's answer to req, against the manifest
// with the stock presence rule (CheckPolicy with only mode set).
func (m *Manifest) Check(req codec.ChecksumRequest, resp codec.ChecksumResponse, mode Mode) Result {
	return m.CheckPolicy(req, resp, Policy{Mode: mode})
}

// CheckPolicy validates resp, the client's answer to req, against the
// manifest (handshake.md 2.4 policy):
//
//   - resp must be for req's round;
//   - round 0: ref_hash must be the version string's hash, else 0x23;
//   - dir_hash must equal RequestDirHash(req.Dir), computed here, else 0x22
//     naming the normalised request directory;
//   - every manifest file the client also has, found by name hash (never by
//     position), must have the manifest's content hash (per mode), else
//     0x22 naming its relative path; files and subdirectories the client
//     lacks pass, as on a stock host, unless p.RequirePresent; extra files
//     and subdirectories always pass; subdirectories both sides have are
//     checked recursively;
//   - without a manifest entry for the request (the vanilla manifest has
//     none for round 0xFF) any well-formed tree passes, with a Note.
//
// A nil manifest checks only round, ref_hash and dir_hash. In ModeOff
// every response passes. CheckPolicy does not modify m.
func (m *Manifest) CheckPolicy(req codec.ChecksumRequest, resp codec.ChecksumResponse, p Policy) Result {
	mode := p.Mode
	res := Result{OK: true, Round: req.Round}
	if mode == ModeOff {
		return res
	}
	root := RequestPath(req.Dir)
	if resp.Round != req.Round {
		res.fail(codec.ChecksumFailFileOpcode, root,
			fmt.Sprintf("response is for round %d, the request was round %d", resp.Round, req.Round))
		return res
	}
	if req.Round == 0 {
		if want := m.RefHash(); resp.RefHash != want {
			// 0x23 carries the host's version string, not a file name:
			// stock sends 23 02 00 36 30 ("60", handshake.md 2.4).
			res.fail(codec.ChecksumFailVersionOpcode, m.versionString(),
				fmt.Sprintf("version mismatch: ref_hash 0x%08X, want 0x%08X", resp.RefHash, want))
			return res
		}
	}
	if want := RequestDirHash(req.Dir); resp.DirHash != want {
		res.fail(codec.ChecksumFailFileOpcode, root,
			fmt.Sprintf("dir_hash 0x%08X, want 0x%08X = StringHash(%q)", resp.DirHash, want, strings.TrimSuffix(req.Dir, "/")))
		return res
	}
	d, why := m.lookup(req)
	if d == nil {
		res.Note = why
		if why == "" {
			res.Note = fmt.Sprintf("manifest has no entry for round %d (%s %s); tree not checked", req.Round, req.Dir, req.Filter)
		}
		return res
	}
	c := checker{m: m, mode: mode, present: p.RequirePresent, res: &res}
	c.dirs[0] = root
	c.tree(&d.Tree, &resp.Tree, 0)
	return res
}

// RequestPath normalises a request directory as the stock host does before
// it builds paths (mods.md 5.4): backslashes become '/', a trailing CR/LF
// and one trailing '/' are removed. "scripts/" gives "scripts", the root of
// "scripts/App.pyc" in a 0x22 reply.
func RequestPath(dir string) string {
	dir = strings.ReplaceAll(dir, `\`, "/")
	dir = strings.TrimRight(dir, "\r\n")
	return strings.TrimSuffix(dir, "/")
}

func (r *Result) fail(op uint8, file, reason string) {
	r.OK = false
	r.Opcode = op
	r.File = file
	r.Reason = reason
}

// versionString is the version string the 0x23 reply carries: the
// manifest's, "60" for the stock one.
func (m *Manifest) versionString() string {
	if m != nil && m.VersionString != "" {
		return m.VersionString
	}
	if m == nil || m.RefHash() == StockVersionHash {
		return StockVersionString
	}
	return ""
}

type checker struct {
	m       *Manifest
	mode    Mode
	present bool // Policy.RequirePresent
	res     *Result
	// dirs holds the directory names down to the level being checked, so
	// a path is only joined when a message needs it and a passing Check
	// does not allocate. Manifests are at most codec.ChecksumMaxDepth deep.
	dirs [codec.ChecksumMaxDepth + 1]string
}

func (c *checker) join(depth int, name string) string {
	return strings.Join(c.dirs[:depth+1], "/") + "/" + name
}

func (c *checker) tree(want *Tree, got *codec.ChecksumTree, depth int) bool {
	idx := newFileIndex(got.Files, len(want.Files))
	for i := range want.Files {
		f := &want.Files[i]
		content, found := idx.lookup(uint32(f.NameHash))
		if !found {
			if !c.present {
				continue // stock: a file the client lacks passes (handshake.md 2.4)
			}
			path := c.join(depth, displayName(f.Filename, uint32(f.NameHash)))
			c.res.fail(codec.ChecksumFailFileOpcode, path, "missing file "+path)
			return false
		}
		if content == uint32(f.ContentHash) {
			continue
		}
		name := displayName(f.Filename, uint32(f.NameHash))
		if c.mode == ModeStrict || c.m.ContentVerified(f) {
			path := c.join(depth, name)
			c.res.fail(codec.ChecksumFailFileOpcode, path, fmt.Sprintf("%s: content hash 0x%08X, want 0x%08X",
				path, content, uint32(f.ContentHash)))
			return false
		}
		c.res.Soft = append(c.res.Soft, Mismatch{Path: c.join(depth, name), NameHash: uint32(f.NameHash),
			Want: uint32(f.ContentHash), Got: content})
	}
	for i := range want.Subdirs {
		s := &want.Subdirs[i]
		g := findSubdir(got.Subdirs, uint32(s.NameHash))
		if g == nil {
			if !c.present {
				continue // stock: a subdirectory the client lacks passes
			}
			path := c.join(depth, displayName(s.Name, uint32(s.NameHash)))
			c.res.fail(codec.ChecksumFailFileOpcode, path, "missing directory "+path)
			return false
		}
		if depth+1 >= len(c.dirs) {
			// Unreachable for a validated manifest; refuse rather than panic.
			c.res.fail(codec.ChecksumFailFileOpcode, c.join(depth, s.Name), "manifest deeper than the wire allows")
			return false
		}
		c.dirs[depth+1] = displayName(s.Name, uint32(s.NameHash))
		if !c.tree(&s.Tree, &g.Tree, depth+1) {
			return false
		}
	}
	return true
}

// findSubdir returns the first subdirectory with the name hash. A stock
// client cannot send two (names are unique in a directory; a 32-bit
// collision between two names there is not worth handling).
func findSubdir(subs []codec.SubdirEntry, name uint32) *codec.SubdirEntry {
	for i := range subs {
		if subs[i].NameHash == name {
			return &subs[i]
		}
	}
	return nil
}

// linearScanBudget bounds the comparisons done by plain scanning; above it
// the client's files are sorted once. Stock rounds (51 x 51 at most) stay
// below it and allocate nothing; a hostile response with thousands of
// entries costs O(n log n) instead of O(n*m).
const linearScanBudget = 4096

// fileIndex finds a file of a response by name hash: the first one in the
// client's order, duplicates being as impossible as in findSubdir.
type fileIndex struct {
	files  []codec.FileEntry
	sorted bool
}

func newFileIndex(files []codec.FileEntry, lookups int) fileIndex {
	if len(files)*lookups <= linearScanBudget {
		return fileIndex{files: files}
	}
	s := slices.Clone(files)
	slices.SortStableFunc(s, func(a, b codec.FileEntry) int {
		switch {
		case a.NameHash < b.NameHash:
			return -1
		case a.NameHash > b.NameHash:
			return 1
		}
		return 0
	})
	return fileIndex{files: s, sorted: true}
}

func (x fileIndex) lookup(name uint32) (content uint32, found bool) {
	if !x.sorted {
		for _, f := range x.files {
			if f.NameHash == name {
				return f.ContentHash, true
			}
		}
		return 0, false
	}
	i, ok := slices.BinarySearchFunc(x.files, name, func(f codec.FileEntry, n uint32) int {
		switch {
		case f.NameHash < n:
			return -1
		case f.NameHash > n:
			return 1
		}
		return 0
	})
	if !ok {
		return 0, false
	}
	return x.files[i].ContentHash, true
}

// Answer builds the response a client holding exactly the manifest's
// files would send to req: our headless test client uses it. It returns
// false when the manifest has no entry for req, or the entry has no file
// at all, because a stock client that finds no matching file sends nothing
// (handshake.md 2.3).
func (m *Manifest) Answer(req codec.ChecksumRequest) (codec.ChecksumResponse, bool) {
	d, _ := m.lookup(req)
	if d == nil || !d.Tree.hasFiles() {
		return codec.ChecksumResponse{}, false
	}
	resp := codec.ChecksumResponse{Round: req.Round, DirHash: RequestDirHash(req.Dir), Tree: d.Tree.wire()}
	if req.Round == 0 {
		resp.RefHash = m.RefHash()
	}
	return resp, true
}

func (t *Tree) hasFiles() bool {
	if len(t.Files) > 0 {
		return true
	}
	for i := range t.Subdirs {
		if t.Subdirs[i].Tree.hasFiles() {
			return true
		}
	}
	return false
}

func (t *Tree) wire() codec.ChecksumTree {
	var w codec.ChecksumTree
	if len(t.Files) > 0 {
		w.Files = make([]codec.FileEntry, len(t.Files))
		for i, f := range t.Files {
			w.Files[i] = codec.FileEntry{NameHash: uint32(f.NameHash), ContentHash: uint32(f.ContentHash)}
		}
	}
	if len(t.Subdirs) > 0 {
		w.Subdirs = make([]codec.SubdirEntry, len(t.Subdirs))
		for i := range t.Subdirs {
			w.Subdirs[i] = codec.SubdirEntry{NameHash: uint32(t.Subdirs[i].NameHash), Tree: t.Subdirs[i].Tree.wire()}
		}
	}
	return w
}
