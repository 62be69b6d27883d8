package checksum

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/codec"
)

// BuildOptions configures Build. The zero value builds a manifest for the
// stock requests and version string.
type BuildOptions struct {
	Name          string                  // meta.name
	Notes         string                  // meta.notes
	VersionString string                  // "" = StockVersionString ("60")
	Requests      []codec.ChecksumRequest // nil = StockRequests()
}

// Build hashes the files under root that a stock client with root as its
// game folder would report for each request, and returns them as a
// manifest whose entries are all content-verified (meta.file_hash =
// "stock"). root is a BC install or a mod folder laid out like one (it
// holds scripts/); a folder named scripts itself is accepted too.
//
// It follows the stock client as far as it is known (handshake.md 2.2,
// 2.3): path components and the filter are matched ignoring case, as on
// Windows, because requests say both "scripts/" and "Scripts/"; names are
// hashed as stored on disk; recursive rounds descend into every
// subdirectory. A request whose directory does not exist gets no entry.
//
// Entries are sorted by a byte-wise, case-sensitive name comparison, as
// the stock scanner keeps them (mods.md 5.4; the captured round 3 lists
// CardSpecificSetup, KeyboardConfig, __init__, mainmenu), which only
// matters for the order of Answer's response. A choice where the stock
// behaviour differs: a subdirectory with no matching file anywhere below
// it is left out (a stock client would send no response at all, mods.md
// 5.3; Check allows extra subdirectories, so a client that reports it
// still passes). A file that cannot be read is an error rather than the
// client's hash 0.
func Build(root string, opts BuildOptions) (*Manifest, error) {
	if fi, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("build manifest: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("build manifest: %s is not a directory", root)
	}
	reqs := opts.Requests
	if reqs == nil {
		reqs = StockRequests()
	}
	version := opts.VersionString
	if version == "" {
		version = StockVersionString
	}
	m := &Manifest{
		Meta: Meta{
			Name:             opts.Name,
			Generator:        GeneratorName,
			GeneratorVersion: GeneratorVersion,
			FileHash:         FileHashStock,
			Notes:            opts.Notes,
		},
		VersionString:     version,
		VersionStringHash: Hex32(StringHash(version)),
		Directories:       []Directory{},
	}
	for _, req := range reqs {
		rel := strings.TrimSuffix(req.Dir, "/")
		dir, err := resolveDir(root, rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("checksum round %d: %w", req.Round, err)
		}
		b := builder{filter: strings.ToLower(req.Filter), recursive: req.Recursive}
		tree, err := b.tree(dir, 0)
		if err != nil {
			return nil, fmt.Errorf("checksum round %d: %w", req.Round, err)
		}
		m.Directories = append(m.Directories, Directory{
			Round:       req.Round,
			Path:        rel,
			Filter:      req.Filter,
			Recursive:   req.Recursive,
			DirNameHash: Hex32(RequestDirHash(req.Dir)),
			Tree:        tree,
		})
	}
	// The same checks as a loaded manifest, e.g. two requests for one round.
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("build manifest from %s: %w", root, err)
	}
	return m, nil
}

// resolveDir finds rel ("scripts/ships") under root, matching each
// component ignoring case and preferring an exact match, as Windows
// would. The error wraps fs.ErrNotExist when a component is missing.
func resolveDir(root, rel string) (string, error) {
	comps := strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' })
	for _, c := range comps {
		if c == ".." {
			return "", fmt.Errorf("request directory %q leaves the game folder", rel)
		}
	}
	dir, err := resolveComps(root, comps)
	if errors.Is(err, fs.ErrNotExist) && len(comps) > 0 && strings.EqualFold(filepath.Base(filepath.Clean(root)), comps[0]) {
		// root is the scripts folder itself.
		if d, err2 := resolveComps(root, comps[1:]); err2 == nil {
			return d, nil
		}
	}
	return dir, err
}

func resolveComps(root string, comps []string) (string, error) {
	dir := root
	for _, c := range comps {
		if c == "." {
			continue
		}
		next, err := findEntry(dir, c)
		if err != nil {
			return "", err
		}
		dir = next
	}
	return dir, nil
}

func findEntry(dir, name string) (string, error) {
	exact := filepath.Join(dir, name)
	if fi, err := os.Stat(exact); err == nil && fi.IsDir() {
		return exact, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", dir, err)
	}
	for _, e := range ents {
		if !strings.EqualFold(e.Name(), name) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("no directory %q in %s: %w", name, dir, fs.ErrNotExist)
}

type builder struct {
	filter    string // lower-cased
	recursive bool
	entries   int
}

func (b *builder) tree(dir string, depth int) (Tree, error) {
	t := Tree{Files: []File{}, Subdirs: []Subdir{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return t, fmt.Errorf("reading %s: %w", dir, err)
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				return t, fmt.Errorf("following %s: %w", p, err)
			}
			mode = fi.Mode().Type()
		}
		switch {
		case mode.IsRegular():
			if !wildcardMatch(b.filter, strings.ToLower(e.Name())) {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return t, fmt.Errorf("hashing %w", err)
			}
			t.Files = append(t.Files, File{
				Filename:        e.Name(),
				NameHash:        Hex32(StringHash(e.Name())),
				ContentHash:     Hex32(FileHash(data)),
				ContentVerified: true,
			})
		case mode.IsDir() && b.recursive:
			if depth >= codec.ChecksumMaxDepth {
				return t, fmt.Errorf("%s: deeper than %d levels below the requested directory, a response could not carry it", p, codec.ChecksumMaxDepth)
			}
			sub, err := b.tree(p, depth+1)
			if err != nil {
				return t, err
			}
			if sub.hasFiles() {
				t.Subdirs = append(t.Subdirs, Subdir{Name: e.Name(), NameHash: Hex32(StringHash(e.Name())), Tree: sub})
			}
		}
	}
	if len(t.Files) > math.MaxUint16 || len(t.Subdirs) > math.MaxUint8 {
		return t, fmt.Errorf("%s: %d files and %d subdirectories, a response holds 65535 and 255", dir, len(t.Files), len(t.Subdirs))
	}
	if b.entries += len(t.Files) + len(t.Subdirs); b.entries > codec.ChecksumMaxEntries {
		return t, fmt.Errorf("%s: more than %d files and subdirectories in one round", dir, codec.ChecksumMaxEntries)
	}
	return t, nil
}

// wildcardMatch matches name against a Windows-style pattern where '*' is
// any run of characters and '?' any one; everything else is literal.
// Both are lower-cased by the caller (Windows matches ignoring case).
func wildcardMatch(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == name[n]):
			p++
			n++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
