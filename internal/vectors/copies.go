package vectors

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Copy is one folder or file the repo keeps a copy of: Shared is its path
// inside the shared reference folder, Repo the path of the copy inside the
// module. Copies are exact: same files, same bytes.
type Copy struct {
	Shared, Repo string
}

// Copies lists every copy the repo keeps of the shared reference folder. It
// is the one list both `make sync-shared` (cmd/syncshared) and the drift
// test use.
func Copies() []Copy {
	return []Copy{
		{Shared: "vectors", Repo: "testdata/vectors"},
		{Shared: "data/vanilla-1.1", Repo: "engine/ships/data/vanilla-1.1"},
		// The data dictionary: the format of the vanilla set and of mod packs.
		{Shared: "data/README.md", Repo: "engine/ships/data/README.md"},
		{Shared: "vectors/manifest-vanilla-1.1.json", Repo: "engine/checksum/manifest-vanilla-1.1.json"},
	}
}

// SharedDir returns the shared reference folder beside the module root (or
// BCSERVER_SHARED), and false when there is none, as in a bare clone.
func SharedDir() (string, bool) {
	d := os.Getenv("BCSERVER_SHARED")
	if d == "" {
		root, err := ModuleRoot()
		if err != nil {
			return "", false
		}
		d = filepath.Join(filepath.Dir(root), "shared")
	}
	if st, err := os.Stat(filepath.Join(d, "vectors")); err != nil || !st.IsDir() {
		return "", false
	}
	return d, true
}

// Drift compares copy c under root (the module root) with its source under
// shared and returns one line per difference: a file that differs, is
// missing from the copy, or is in the copy but no longer in the source.
func Drift(root, shared string, c Copy) ([]string, error) {
	src, dst := filepath.Join(shared, c.Shared), filepath.Join(root, c.Repo)
	want, err := listFiles(src)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src, err)
	}
	have, err := listFiles(dst)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", dst, err)
	}
	var out []string
	for rel := range want {
		if _, ok := have[rel]; !ok {
			out = append(out, fmt.Sprintf("%s: missing (in %s)", filepath.Join(c.Repo, rel), c.Shared))
			continue
		}
		a, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(dst, rel))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(a, b) {
			out = append(out, fmt.Sprintf("%s: differs from %s", filepath.Join(c.Repo, rel), filepath.Join(c.Shared, rel)))
		}
	}
	for rel := range have {
		if _, ok := want[rel]; !ok {
			out = append(out, fmt.Sprintf("%s: not in %s any more", filepath.Join(c.Repo, rel), c.Shared))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Sync makes copy c under root identical to its source under shared:
// every source file is written and files the source no longer has are
// removed. It returns the relative paths it changed.
func Sync(root, shared string, c Copy) ([]string, error) {
	drift, err := Drift(root, shared, c)
	if err != nil || len(drift) == 0 {
		return nil, err
	}
	src, dst := filepath.Join(shared, c.Shared), filepath.Join(root, c.Repo)
	want, err := listFiles(src)
	if err != nil {
		return nil, err
	}
	have, err := listFiles(dst)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for rel := range have {
		if _, ok := want[rel]; !ok {
			if err := os.Remove(filepath.Join(dst, rel)); err != nil {
				return nil, err
			}
		}
	}
	for rel := range want {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dst, rel)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
	}
	return drift, nil
}

// listFiles returns the regular files under p relative to p; a p that is a
// file gives the single entry ".".
func listFiles(p string) (map[string]struct{}, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	out := map[string]struct{}{}
	if !st.IsDir() {
		out["."] = struct{}{}
		return out, nil
	}
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(p, q)
		if err != nil {
			return err
		}
		out[rel] = struct{}{}
		return nil
	})
	return out, err
}
