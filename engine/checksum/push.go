package checksum

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/codec"
)

// PushMode is the server's rule for checksum round 0xFF (mods.md 5.10).
type PushMode uint8

const (
	// PushOff, the default, accepts any well-formed round-0xFF response and
	// sends 0x28 + Settings + GameInit: never a 0x25 (handshake.md 2.4
	// rule 4).
	PushOff PushMode = iota
	// PushVerify compares the response with the push tree by the stock
	// rules and refuses a client that differs with 0x22 naming the first
	// differing path. Not stock (a stock host never fails round 0xFF), but
	// every stock client handles 0x22 in any round.
	PushVerify
	// PushPush sends the client the files it lacks or has with other
	// content, one 0x25 per 0x27, before Settings, as a stock host does.
	PushPush
)

// ParsePushMode reads "off" (or ""), "verify" or "push", ignoring case.
func ParsePushMode(s string) (PushMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "off":
		return PushOff, nil
	case "verify":
		return PushVerify, nil
	case "push":
		return PushPush, nil
	}
	return PushOff, fmt.Errorf("push mode %q: want off, verify or push", s)
}

// String returns the name ParsePushMode accepts.
func (m PushMode) String() string {
	switch m {
	case PushOff:
		return "off"
	case PushVerify:
		return "verify"
	case PushPush:
		return "push"
	}
	return fmt.Sprintf("PushMode(%d)", uint8(m))
}

// MarshalText implements encoding.TextMarshaler.
func (m PushMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler via ParsePushMode.
func (m *PushMode) UnmarshalText(b []byte) error {
	v, err := ParsePushMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// MultiplayerDir is the directory of the round-0xFF request as a stock
// host sends it and the root of every pushed path (mods.md 5.2, 5.4).
const MultiplayerDir = "Scripts/Multiplayer"

// PushMessageMax is the most payload one message can carry: fragment
// index and count are single bytes, so 255 fragments of 405 and 406 bytes
// (mods.md 5.5).
const PushMessageMax = 405 + 254*406

// MaxPushFile is the largest file a 0x25 with a wire path of pathLen bytes
// can carry: 103,526 - pathLen (mods.md 5.5).
func MaxPushFile(pathLen int) int { return PushMessageMax - 3 - pathLen }

// Path limits of mods.md 5.10 rule 2.
const (
	maxPushComponent = 64
	maxPushPath      = 200
)

// Load-time caps: a push tree is what clients download, so a tree beyond
// these is a mistake (a whole install given as the folder), not a mod.
const (
	maxPushTreeFiles = 4096
	maxPushTreeBytes = 64 << 20
)

// PushFile is one file of a PushTree.
type PushFile struct {
	// Path is the wire path: "Scripts/Multiplayer/" + the relative path
	// with "/" separators and the letter case as stored.
	Path string
	// Name is the file name as stored; NameHash its StringHash.
	Name     string
	NameHash uint32
	// Hash is the stock FileHash of the content (handshake.md 3.2).
	Hash uint32
	// Size is the file's size; Data its bytes (nil for a tree built
	// from a manifest, which can verify but not push).
	Size int
	Data []byte
}

type pushDir struct {
	name     string
	nameHash uint32
	path     string
	files    []PushFile // byte-wise by name, as the stock scanner keeps them (mods.md 5.4)
	dirs     []*pushDir // likewise
}

// PushTree is the server's copy of a client's Scripts/Multiplayer
// directory (mods.md 5.10 rules 1-2): the files it may push in push mode
// and the reference it compares round-0xFF responses with. It is read-only
// once loaded and may be shared by every game.
type PushTree struct {
	root    pushDir
	files   int
	bytes   int
	hasData bool
	// Skipped lists the files and folders left out at load, each with the
	// reason, for the host's log.
	Skipped []string
}

// Files returns the number of files in the tree; Bytes their total size.
func (t *PushTree) Files() int { return t.files }

// Bytes returns the total size of the tree's files.
func (t *PushTree) Bytes() int { return t.bytes }

// CanPush reports whether the tree holds the files' bytes (loaded from a
// folder) rather than only their hashes (from a manifest).
func (t *PushTree) CanPush() bool { return t != nil && t.hasData }

// LoadPushTree lists dir, which stands for the client's
// Scripts/Multiplayer, once (mods.md 5.10 rule 1): regular files named
// *.pyc, no symbolic links. Files and folders whose names break the path
// rules of rule 2, or that are too large for one 0x25, are left out and
// named in Skipped; other files (.py sources) are ignored. It fails when a
// folder that would reach a client (the root, or one with files below it)
// has no .pyc of its own: a stock client whose such folder holds no match
// never answers round 0xFF again (mods.md 5.3 step 3).
func LoadPushTree(dir string) (*PushTree, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("push tree: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("push tree: %s is not a folder", dir)
	}
	t := &PushTree{hasData: true}
	t.root = pushDir{name: "Multiplayer", nameHash: StringHash("Multiplayer"), path: MultiplayerDir}
	if err := t.load(&t.root, dir, 0); err != nil {
		return nil, fmt.Errorf("push tree %s: %w", dir, err)
	}
	if len(t.root.files) == 0 {
		return nil, fmt.Errorf("push tree %s: the folder itself holds no .pyc file; a stock client could not scan it (mods.md 5.10)", dir)
	}
	return t, nil
}

func (t *PushTree) load(d *pushDir, dir string, depth int) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	// The stock scanner keeps names in byte-wise order (mods.md 5.4);
	// ReadDir already sorts that way.
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		rel := d.path + "/" + name
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			t.skip(rel, "a symbolic link")
		case e.IsDir():
			if why := checkComponent(name, false); why != "" {
				t.skip(rel, why)
				continue
			}
			if depth+1 > codec.ChecksumMaxDepth {
				t.skip(rel, fmt.Sprintf("deeper than %d levels", codec.ChecksumMaxDepth))
				continue
			}
			sub := &pushDir{name: name, nameHash: StringHash(name), path: rel}
			if err := t.load(sub, p, depth+1); err != nil {
				return err
			}
			switch {
			case len(sub.files) > 0:
				d.dirs = append(d.dirs, sub)
			case len(sub.dirs) > 0:
				return fmt.Errorf("folder %s holds no .pyc of its own but has some below it: once pushed, a stock client could not scan it (mods.md 5.10)", rel)
			}
		case e.Type().IsRegular():
			if !strings.EqualFold(filepath.Ext(name), ".pyc") {
				continue // sources and other files are never pushed (mods.md 5.9)
			}
			if why := checkComponent(name, true); why != "" {
				t.skip(rel, why)
				continue
			}
			if len(rel) > maxPushPath {
				t.skip(rel, fmt.Sprintf("path longer than %d bytes", maxPushPath))
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if len(data) > MaxPushFile(len(rel)) {
				t.skip(rel, fmt.Sprintf("%d bytes, one message carries at most %d", len(data), MaxPushFile(len(rel))))
				continue
			}
			if t.files++; t.files > maxPushTreeFiles {
				return fmt.Errorf("more than %d files", maxPushTreeFiles)
			}
			if t.bytes += len(data); t.bytes > maxPushTreeBytes {
				return fmt.Errorf("more than %d bytes", maxPushTreeBytes)
			}
			d.files = append(d.files, PushFile{Path: rel, Name: name, NameHash: StringHash(name),
				Hash: FileHash(data), Size: len(data), Data: data})
		default:
			t.skip(rel, "not a regular file")
		}
	}
	if len(d.files) > 0xFFFF || len(d.dirs) > 0xFF {
		return fmt.Errorf("%s: %d files and %d folders, a response holds 65535 and 255", d.path, len(d.files), len(d.dirs))
	}
	return nil
}

func (t *PushTree) skip(path, why string) {
	t.Skipped = append(t.Skipped, path+": "+why)
}

// checkComponent applies mods.md 5.10 rule 2 to one path component and
// returns why it is refused ("" when fine). A file name has exactly one
// '.', the lower-case ".pyc" suffix, because the client cuts module names
// at the first '.'; a folder name has none.
func checkComponent(name string, file bool) string {
	switch {
	case len(name) < 1 || len(name) > maxPushComponent:
		return fmt.Sprintf("name of %d bytes (1..%d)", len(name), maxPushComponent)
	case name == "." || name == "..":
		return "a dot name"
	case name[0] == ' ' || name[0] == '.' || name[len(name)-1] == ' ' || name[len(name)-1] == '.':
		return "leading or trailing space or dot"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c > 0x7E || strings.IndexByte(`\/:*?"<>|`, c) >= 0 {
			return fmt.Sprintf("character 0x%02X is not allowed", c)
		}
	}
	dots := strings.Count(name, ".")
	switch {
	case file && (dots != 1 || !strings.HasSuffix(name, ".pyc")):
		return "a file name needs exactly one '.', the lower-case .pyc suffix"
	case !file && dots != 0:
		return "a folder name may not contain '.'"
	}
	return ""
}

// PushTreeFromManifest builds a hash-only tree from the manifest's
// round-0xFF entry (bchash writes one), for verify mode without the files.
// It returns false when the manifest has no such entry.
func PushTreeFromManifest(m *Manifest) (*PushTree, bool) {
	if m == nil {
		return nil, false
	}
	var d *Directory
	for i := range m.Directories {
		if m.Directories[i].Round == FinalRound {
			d = &m.Directories[i]
		}
	}
	if d == nil {
		return nil, false
	}
	t := &PushTree{}
	t.root = pushDir{name: "Multiplayer", nameHash: StringHash("Multiplayer"), path: RequestPath(d.Path)}
	t.fromManifest(&t.root, &d.Tree)
	return t, true
}

func (t *PushTree) fromManifest(d *pushDir, tree *Tree) {
	for _, f := range tree.Files {
		name := displayName(f.Filename, uint32(f.NameHash))
		d.files = append(d.files, PushFile{Path: d.path + "/" + name, Name: name, NameHash: uint32(f.NameHash), Hash: uint32(f.ContentHash)})
		t.files++
	}
	slices.SortStableFunc(d.files, func(a, b PushFile) int { return strings.Compare(a.Name, b.Name) })
	for i := range tree.Subdirs {
		s := &tree.Subdirs[i]
		name := displayName(s.Name, uint32(s.NameHash))
		sub := &pushDir{name: name, nameHash: uint32(s.NameHash), path: d.path + "/" + name}
		t.fromManifest(sub, &s.Tree)
		d.dirs = append(d.dirs, sub)
	}
	slices.SortStableFunc(d.dirs, func(a, b *pushDir) int { return strings.Compare(a.name, b.name) })
}

// PushDiff is what a round-0xFF response lacks against the tree.
type PushDiff struct {
	// DirMismatch: the response's dir_hash is not that of
	// Scripts/Multiplayer (a non-stock client); Files then holds the
	// whole tree, as a stock host queues it (mods.md 5.3 step 4).
	DirMismatch bool
	// Files are the files to push, in the stock queue order (mods.md 5.4):
	// a directory's missing or differing files, then the subtrees the
	// client lacks, then the common subdirectories in the client's order.
	Files []*PushFile
}

// Bytes returns the total size of the files.
func (d PushDiff) Bytes() int {
	n := 0
	for _, f := range d.Files {
		n += f.Size
	}
	return n
}

// First names the first difference as verify mode reports it in 0x22: the
// first file's path, or Scripts/Multiplayer for a dir_hash mismatch
// (mods.md 5.10).
func (d PushDiff) First() string {
	if d.DirMismatch || len(d.Files) == 0 {
		return MultiplayerDir
	}
	return d.Files[0].Path
}

// Diff compares a round-0xFF response with the tree by the stock host's
// rules (mods.md 5.3): a file whose name hash the client does not list, or
// whose content hash differs, is queued; a subdirectory the client lacks
// is queued whole; what only the client has is ignored. FileHash ignores
// the .pyc timestamp, so recompiled files are equal. The returned files
// point into the tree.
func (t *PushTree) Diff(resp codec.ChecksumResponse) PushDiff {
	var out PushDiff
	if resp.DirHash != RequestDirHash(MultiplayerDir) {
		out.DirMismatch = true
		t.root.all(&out.Files)
		return out
	}
	t.root.diff(&resp.Tree, &out.Files)
	return out
}

func (d *pushDir) all(q *[]*PushFile) {
	for i := range d.files {
		*q = append(*q, &d.files[i])
	}
	for _, s := range d.dirs {
		s.all(q)
	}
}

func (d *pushDir) diff(got *codec.ChecksumTree, q *[]*PushFile) {
	idx := newFileIndex(got.Files, len(d.files))
	for i := range d.files {
		f := &d.files[i]
		if content, found := idx.lookup(f.NameHash); !found || content != f.Hash {
			*q = append(*q, f)
		}
	}
	for _, s := range d.dirs {
		if findSubdir(got.Subdirs, s.nameHash) == nil {
			s.all(q)
		}
	}
	// Common subdirectories in the client's order; a client subdirectory
	// the host lacks is skipped.
	for i := range got.Subdirs {
		g := &got.Subdirs[i]
		if findSubdir(got.Subdirs[:i], g.NameHash) != nil {
			continue // a repeated name hash: the first one counts
		}
		for _, s := range d.dirs {
			if s.nameHash == g.NameHash {
				s.diff(&g.Tree, q)
				break
			}
		}
	}
}

// PushLimits bound one join's push (mods.md 5.10 rule 3). A queue beyond
// any of them is not pushed in part: the join falls back to verify.
type PushLimits struct {
	// File is the largest file pushed; 0 = the hard limit of one message.
	File int
	// JoinBytes and JoinFiles bound one join's push (2 MiB, 256 files).
	JoinBytes int
	JoinFiles int
}

// DefaultPushLimits returns the limits of mods.md 5.10 rule 3.
func DefaultPushLimits() PushLimits { return PushLimits{JoinBytes: 2 << 20, JoinFiles: 256} }

// Check returns why d may not be pushed, or nil.
func (l PushLimits) Check(d PushDiff) error {
	if l.JoinFiles > 0 && len(d.Files) > l.JoinFiles {
		return fmt.Errorf("%d files to push, the limit is %d", len(d.Files), l.JoinFiles)
	}
	if n := d.Bytes(); l.JoinBytes > 0 && n > l.JoinBytes {
		return fmt.Errorf("%d bytes to push, the limit is %d", n, l.JoinBytes)
	}
	for _, f := range d.Files {
		if f.Data == nil {
			return errors.New("the push tree holds hashes only (from a manifest), not files")
		}
		if l.File > 0 && f.Size > l.File {
			return fmt.Errorf("%s is %d bytes, the per-file limit is %d", f.Path, f.Size, l.File)
		}
	}
	return nil
}
