package checksum

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/bcserver/bcserver/codec"
)

// Meta values written by bchash. FileHashStock in meta.file_hash declares
// that every content hash in the manifest was computed with the stock
// FileHash tail rule (handshake.md 3.2) from real files, so each entry
// counts as verified (handshake.md 2.4 rule 5, 3.3). The vanilla manifest
// has no file_hash field: it was built with the earlier, wrong tail rule.
const (
	FileHashStock = "stock"
	GeneratorName = "bchash"
	// GeneratorVersion is the manifest format revision bchash writes.
	GeneratorVersion = "1"
)

// Manifest holds the hashes a stock client with the expected files sends,
// so the server needs no game files (handshake.md 3.3). Its JSON form is
// that of vectors/manifest-vanilla-1.1.json, plus an optional round-0xFF
// directory entry, meta.file_hash and per-subdirectory subdirs.
//
// A Manifest is read-only after loading: Check and Answer never modify it,
// so one value can be shared by every game.
type Manifest struct {
	Meta              Meta        `json:"meta"`
	VersionString     string      `json:"version_string"`
	VersionStringHash Hex32       `json:"version_string_hash"`
	Directories       []Directory `json:"directories"`
}

// Meta is informational, except FileHash.
type Meta struct {
	Name             string `json:"name,omitempty"`
	Generator        string `json:"generator,omitempty"`
	GeneratorVersion string `json:"generator_version,omitempty"`
	// FileHash is FileHashStock when every content hash was computed with
	// the stock FileHash; every entry then counts as content-verified.
	FileHash string `json:"file_hash,omitempty"`
	Notes    string `json:"notes,omitempty"`
}

// Directory is the expected answer to one request (one round).
type Directory struct {
	Round     uint8  `json:"index"` // 0..3, or 0xFF (255)
	Path      string `json:"path"`  // request directory without the trailing slash
	Filter    string `json:"filter"`
	Recursive bool   `json:"recursive"`
	// DirNameHash is informational: Check computes the expected dir_hash
	// from the request it sent (handshake.md 3.3 item 1).
	DirNameHash Hex32 `json:"dir_name_hash"`
	Tree
}

// Tree is one directory level of a manifest entry.
type Tree struct {
	Files   []File   `json:"files"`
	Subdirs []Subdir `json:"subdirs"`
}

// File is one expected file. Filename is optional; it names the file in
// the 0x22 reply and in logs.
type File struct {
	Filename    string `json:"filename,omitempty"`
	NameHash    Hex32  `json:"name_hash"`
	ContentHash Hex32  `json:"content_hash"`
	// ContentVerified marks a content hash known to equal what a stock
	// client sends (handshake.md 3.3 item 3).
	ContentVerified bool `json:"content_verified,omitempty"`
}

// Subdir is one expected subdirectory of a recursive round.
type Subdir struct {
	Name     string `json:"name,omitempty"`
	NameHash Hex32  `json:"name_hash"`
	Tree
}

// Hex32 is a uint32 written as "0x%08X", the manifest's hash notation. A
// plain JSON number is accepted on input.
type Hex32 uint32

// MarshalJSON writes the "0x%08X" form.
func (h Hex32) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"0x%08X"`, uint32(h))), nil
}

// UnmarshalJSON reads "0x..." strings (either case) and plain numbers.
func (h *Hex32) UnmarshalJSON(b []byte) error {
	s := string(b)
	if unq, err := strconv.Unquote(s); err == nil {
		if len(unq) < 3 || (unq[:2] != "0x" && unq[:2] != "0X") {
			return fmt.Errorf("hash %s: want a \"0x\" hex string", s)
		}
		s = unq[2:]
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			return fmt.Errorf("hash %s: %w", b, err)
		}
		*h = Hex32(v)
		return nil
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return fmt.Errorf("hash %s: want a \"0x\" hex string or a number", b)
	}
	*h = Hex32(v)
	return nil
}

// String returns the "0x%08X" form.
func (h Hex32) String() string { return fmt.Sprintf("0x%08X", uint32(h)) }

//go:embed manifest-vanilla-1.1.json
var vanillaJSON string

// Vanilla returns a fresh copy of the stock BC 1.1 manifest (OpenBC's,
// with the corrections of handshake.md 3.3). It has no round-0xFF entry,
// and only the six entries of rounds 0, 1 and 3 are content-verified.
//
// The copy is made from vanillaLoaded, the embedded file as LoadManifest
// returns it, generated into vanilla_manifest.go (TestVanillaManifestDecoded
// -update, run by make sync-shared, and otherwise checking it is current):
// parsing the JSON took ~0.45 ms per game.
func Vanilla() (*Manifest, error) {
	return vanillaLoaded.clone(), nil
}

// clone returns a deep copy of m: callers own and may change what Vanilla
// returns.
func (m *Manifest) clone() *Manifest {
	c := *m
	c.Directories = slices.Clone(m.Directories)
	for i := range c.Directories {
		c.Directories[i].Tree = c.Directories[i].Tree.clone()
	}
	return &c
}

func (t Tree) clone() Tree {
	t.Files = slices.Clone(t.Files)
	t.Subdirs = slices.Clone(t.Subdirs)
	for i := range t.Subdirs {
		t.Subdirs[i].Tree = t.Subdirs[i].Tree.clone()
	}
	return t
}

// ParseManifestFile loads the manifest at path.
func ParseManifestFile(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	m, err := LoadManifest(f)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	return m, nil
}

// LoadManifest decodes and validates a JSON manifest. Unknown fields are an
// error (a misspelt "content_verified" must not silently weaken a check),
// as are hashes that contradict their names: version_string_hash against
// version_string, dir_name_hash against path, name_hash against filename
// or name. Missing hashes are filled in from the names.
func LoadManifest(r io.Reader) (*Manifest, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding manifest: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("decoding manifest: data after the JSON object")
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// WriteJSON writes m in the manifest format (two-space indent, like the
// vanilla file).
func (m *Manifest) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	return nil
}

// ContentVerified reports whether f's content hash may be enforced in
// ModeVerified: marked per entry, or the whole manifest was generated with
// the stock FileHash (meta.file_hash = "stock").
func (m *Manifest) ContentVerified(f *File) bool {
	return f.ContentVerified || (m != nil && m.Meta.FileHash == FileHashStock)
}

// RefHash is the round-0 ref_hash expected from clients: StringHash of the
// manifest's version string, or of "60" without a manifest.
func (m *Manifest) RefHash() uint32 {
	switch {
	case m == nil:
		return StockVersionHash
	case m.VersionString != "":
		return StringHash(m.VersionString)
	case m.VersionStringHash != 0:
		return uint32(m.VersionStringHash)
	}
	return StockVersionHash
}

// Lookup returns the entry for req: the directory with req's round whose
// path (ignoring case and one trailing slash, as Windows does), filter
// (ignoring case) and recursive flag match the request. An entry with the
// round but other parameters describes some other request and is not used.
func (m *Manifest) Lookup(req codec.ChecksumRequest) (*Directory, bool) {
	d, _ := m.lookup(req)
	return d, d != nil
}

// lookup is Lookup that also explains, for the log, why an entry with the
// request's round was not used.
func (m *Manifest) lookup(req codec.ChecksumRequest) (*Directory, string) {
	if m == nil {
		return nil, ""
	}
	for i := range m.Directories {
		d := &m.Directories[i]
		if d.Round != req.Round {
			continue
		}
		if !strings.EqualFold(strings.TrimSuffix(d.Path, "/"), strings.TrimSuffix(req.Dir, "/")) ||
			!strings.EqualFold(d.Filter, req.Filter) || d.Recursive != req.Recursive {
			return nil, fmt.Sprintf("manifest entry for round %d is %q %q recursive=%t, the request is %q %q recursive=%t",
				d.Round, d.Path, d.Filter, d.Recursive, req.Dir, req.Filter, req.Recursive)
		}
		return d, ""
	}
	return nil, ""
}

func (m *Manifest) validate() error {
	switch {
	case m.VersionString == "" && m.VersionStringHash == 0:
		m.VersionString = StockVersionString
		m.VersionStringHash = StockVersionHash
	case m.VersionString == "":
	case m.VersionStringHash == 0:
		m.VersionStringHash = Hex32(StringHash(m.VersionString))
	case uint32(m.VersionStringHash) != StringHash(m.VersionString):
		return fmt.Errorf("manifest: version_string_hash %v is not StringHash(%q) = 0x%08X",
			m.VersionStringHash, m.VersionString, StringHash(m.VersionString))
	}
	seen := map[uint8]bool{}
	for i := range m.Directories {
		d := &m.Directories[i]
		if seen[d.Round] {
			return fmt.Errorf("manifest: two entries for round %d", d.Round)
		}
		seen[d.Round] = true
		if d.Path == "" || d.Filter == "" {
			return fmt.Errorf("manifest round %d: path and filter are required", d.Round)
		}
		want := RequestDirHash(d.Path)
		switch d.DirNameHash {
		case 0:
			d.DirNameHash = Hex32(want)
		case Hex32(want):
		default:
			return fmt.Errorf("manifest round %d: dir_name_hash %v is not StringHash(%q) = 0x%08X",
				d.Round, d.DirNameHash, strings.TrimSuffix(d.Path, "/"), want)
		}
		entries := 0
		if err := d.Tree.validate(d.Path, 0, &entries); err != nil {
			return fmt.Errorf("manifest round %d: %w", d.Round, err)
		}
	}
	return nil
}

// validate checks names against hashes and the wire limits (so Answer can
// always encode), and turns missing lists into empty ones so the manifest
// writes back in the same shape.
func (t *Tree) validate(dir string, depth int, entries *int) error {
	if t.Files == nil {
		t.Files = []File{}
	}
	if t.Subdirs == nil {
		t.Subdirs = []Subdir{}
	}
	if len(t.Files) > math.MaxUint16 || len(t.Subdirs) > math.MaxUint8 {
		return fmt.Errorf("%s: %d files and %d subdirectories, the wire holds 65535 and 255", dir, len(t.Files), len(t.Subdirs))
	}
	if len(t.Subdirs) > 0 && depth >= codec.ChecksumMaxDepth {
		return fmt.Errorf("%s: subdirectories deeper than %d levels", dir, codec.ChecksumMaxDepth)
	}
	if *entries += len(t.Files) + len(t.Subdirs); *entries > codec.ChecksumMaxEntries {
		return fmt.Errorf("%s: more than %d files and subdirectories", dir, codec.ChecksumMaxEntries)
	}
	for i := range t.Files {
		f := &t.Files[i]
		if err := checkNameHash(&f.NameHash, f.Filename); err != nil {
			return fmt.Errorf("%s: file %w", dir, err)
		}
	}
	for i := range t.Subdirs {
		s := &t.Subdirs[i]
		if err := checkNameHash(&s.NameHash, s.Name); err != nil {
			return fmt.Errorf("%s: subdirectory %w", dir, err)
		}
		if err := s.Tree.validate(dir+"/"+displayName(s.Name, uint32(s.NameHash)), depth+1, entries); err != nil {
			return err
		}
	}
	return nil
}

func checkNameHash(h *Hex32, name string) error {
	if name == "" {
		return nil
	}
	want := Hex32(StringHash(name))
	switch *h {
	case 0:
		*h = want
	case want:
	default:
		return fmt.Errorf("%q: name_hash %v is not StringHash = %v", name, *h, want)
	}
	return nil
}

// displayName is a manifest name, or its hash when the manifest has none.
func displayName(name string, hash uint32) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("0x%08X", hash)
}
