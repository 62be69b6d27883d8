package modimport

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// oNonblock opens a named pipe without waiting for a writer: the open
// returns at once and the file's type (fstat) then refuses it. It does
// nothing to a regular file.
const oNonblock = syscall.O_NONBLOCK

// rootTree reads a folder on disk through an os.Root: no name resolves
// outside the folder, whatever links it meets (a link swapped in after the
// walk included), and names are bytes, not UTF-8.
type rootTree struct{ r *os.Root }

func (t rootTree) readDir(dir string, limit int) ([]fs.DirEntry, error) {
	f, err := t.r.OpenFile(dir, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []fs.DirEntry
	for {
		// In chunks, so a folder of a million entries is refused without
		// listing it all.
		ents, err := f.ReadDir(256)
		out = append(out, ents...)
		if len(out) > limit {
			return nil, errTooMany
		}
		if errors.Is(err, io.EOF) || err == nil && len(ents) == 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (t rootTree) open(name string) (io.ReadCloser, int64, error) {
	f, err := t.r.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	return regular(f)
}
