package modimport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Writing a pack never writes through anything already in OUT_DIR: the
// files go into a new folder beside it, made for this write, which is
// renamed into place; an existing pack is renamed away first and removed
// (os.RemoveAll removes links, it does not follow them). What may be
// replaced is decided by the folder's contents, not by one file's name: a
// folder holding anything an import does not write (a scripts folder, a
// link planted where report.txt goes) is refused, with the entry named.

// messagesFile is the script message table `bcserver import -messages`
// adds to a pack (engine/scriptmsg.FileName). A new import without one
// keeps the old pack's.
const messagesFile = "messages.json"

// packTop are the files an import writes at the top of a pack.
var packTop = map[string]bool{"manifest.json": true, "tables.json": true, "report.txt": true, messagesFile: true}

// classFiles are the files of a pack's class folder.
var classFileNames = map[string]bool{"ship.json": true, "subsystems.json": true, "serialization.json": true, "power.json": true}

// maxPackEntries bounds the look at an existing folder.
const maxPackEntries = 10000

// WriteDir writes the pack into dir, creating it (and its parents). A
// folder that already holds a pack (only files an import writes) is
// replaced whole, so classes a new import leaves out do not linger; any
// other non-empty folder is refused rather than overwritten.
func (p *Pack) WriteDir(dir string) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return fmt.Errorf("%s: give a folder name for the pack", dir)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	pr, err := os.OpenRoot(parent)
	if err != nil {
		return fmt.Errorf("opening %s: %w", parent, err)
	}
	defer pr.Close()
	var keep map[string][]byte
	st, err := pr.Lstat(base)
	exists := err == nil
	switch {
	case exists && st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: give the pack folder itself", dir)
	case exists && !st.IsDir():
		return fmt.Errorf("%s exists and is not a folder: not overwriting it", dir)
	case exists:
		if keep, err = existingPack(pr, base); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("looking at %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".import-")
	if err != nil {
		return fmt.Errorf("creating a folder beside %s: %w", dir, err)
	}
	tmpBase := filepath.Base(tmp)
	done := false
	defer func() {
		if !done {
			_ = pr.RemoveAll(tmpBase)
		}
	}()
	files := maps.Clone(p.Files)
	for name, b := range keep {
		if _, ok := files[name]; !ok {
			files[name] = b
		}
	}
	if err := writeFiles(tmp, files); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	if err := pr.Chmod(tmpBase, 0o755); err != nil {
		return err
	}
	if !exists {
		if err := pr.Rename(tmpBase, base); err != nil {
			return fmt.Errorf("moving the pack into %s: %w", dir, err)
		}
		done = true
		return nil
	}
	old := tmpBase + ".old"
	if err := pr.Rename(base, old); err != nil {
		return fmt.Errorf("moving the old pack %s aside: %w", dir, err)
	}
	if err := pr.Rename(tmpBase, base); err != nil {
		_ = pr.Rename(old, base)
		return fmt.Errorf("moving the pack into %s: %w", dir, err)
	}
	done = true
	if err := pr.RemoveAll(old); err != nil {
		return fmt.Errorf("removing the old pack (now %s): %w", filepath.Join(parent, old), err)
	}
	return nil
}

// writeFiles writes files into the fresh folder dir (nobody else's
// files are in it: os.MkdirTemp made it, mode 0700).
func writeFiles(dir string, files map[string][]byte) error {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if d := path.Dir(name); d != "." {
			if err := r.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(files[name])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// existingPack checks that the folder base of pr holds a pack and nothing
// else (an empty folder passes), and returns the files of it a new import
// keeps (messages.json).
func existingPack(pr *os.Root, base string) (map[string][]byte, error) {
	r, err := pr.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	top, err := listDir(r, ".")
	if err != nil {
		return nil, err
	}
	if len(top) == 0 {
		return nil, nil
	}
	refuse := func(what string) error {
		return fmt.Errorf("holds %s, which an import does not write: not replacing the folder (give another OUT_DIR, or move that out)", what)
	}
	names := map[string]fs.DirEntry{}
	for _, e := range top {
		names[e.Name()] = e
	}
	if e, ok := names["manifest.json"]; !ok || !e.Type().IsRegular() || !isPackManifest(r) {
		return nil, fmt.Errorf("is not empty and holds no pack (a manifest.json as an import writes it): not overwriting it")
	}
	seen := 0
	for _, e := range top {
		name := e.Name()
		switch {
		case packTop[name] && e.Type().IsRegular():
		case (name == "ships" || name == "projectiles") && e.IsDir():
			subs, err := listDir(r, name)
			if err != nil {
				return nil, err
			}
			for _, s := range subs {
				if seen++; seen > maxPackEntries {
					return nil, refuse(fmt.Sprintf("more than %d entries", maxPackEntries))
				}
				p := name + "/" + s.Name()
				if name == "projectiles" {
					if !s.Type().IsRegular() || !strings.HasSuffix(s.Name(), ".json") {
						return nil, refuse(display(p))
					}
					continue
				}
				if !s.IsDir() {
					return nil, refuse(display(p))
				}
				files, err := listDir(r, p)
				if err != nil {
					return nil, err
				}
				for _, f := range files {
					if !f.Type().IsRegular() || !classFileNames[f.Name()] {
						return nil, refuse(display(p + "/" + f.Name()))
					}
				}
			}
		default:
			return nil, refuse(display(name))
		}
	}
	keep := map[string][]byte{}
	if e, ok := names[messagesFile]; ok && e.Type().IsRegular() {
		b, err := readSmall(r, messagesFile)
		if err != nil {
			return nil, fmt.Errorf("reading the old %s: %w", messagesFile, err)
		}
		keep[messagesFile] = b
	}
	return keep, nil
}

// listDir lists a folder of r without following links, bounded.
func listDir(r *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []fs.DirEntry
	for {
		ents, err := f.ReadDir(256)
		out = append(out, ents...)
		if len(out) > maxPackEntries {
			return nil, fmt.Errorf("more than %d entries in %s: not a pack", maxPackEntries, display(name))
		}
		if errors.Is(err, io.EOF) || err == nil && len(ents) == 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readSmall reads a regular file of r, at most maxSource bytes.
func readSmall(r *os.Root, name string) ([]byte, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxSource {
		return nil, fmt.Errorf("%s is not a small regular file", name)
	}
	return io.ReadAll(io.LimitReader(f, maxSource))
}

// isPackManifest reports whether manifest.json reads as a pack's.
func isPackManifest(r *os.Root) bool {
	b, err := readSmall(r, "manifest.json")
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	var version string
	_, ships := m["ships"]
	_, projectiles := m["projectiles"]
	return json.Unmarshal(m["version"], &version) == nil && ships && projectiles
}
