package lua

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bcserver/bcserver/lua/sandbox"
)

// bc.storage outlives the process when Options.StorageDir is set: it is
// written to StorageDir/<mode>.json after every load and reload, every
// StorageSave, and at shutdown, and read back when the mission opens.
// Writes are atomic (a temporary file, synced, renamed over the old one),
// so a crash leaves the previous file or the new one, never half of one.
//
// The file (schema 1):
//
//	{"schema": 1, "mode": "deathmatch", "version": 3,
//	 "saved": "2026-01-02T15:04:05Z", "storage": {...}}
//
// storage is bc.storage as JSON: a table is an object; a string key is
// written as is, a number key as "#2", a boolean key as "#true"; a string
// key that itself starts with "#" gets another "#" in front. Numbers,
// strings and booleans are JSON's. A table referenced twice is written
// twice (and read back as two tables); a cycle is cut where it closes.
// Since shared tables multiply, a write that would hold more than
// StorageSize entries is refused and the previous file kept.

// StorageSchema is the version of the storage file format.
const StorageSchema = 1

type storageFile struct {
	Schema  int             `json:"schema"`
	Mode    string          `json:"mode"`
	Version int             `json:"version"`
	Saved   time.Time       `json:"saved"`
	Storage json.RawMessage `json:"storage"`
}

// persister writes one mode's storage file, one write at a time.
type persister struct {
	path       string
	mode       string
	maxEntries int
	maxBytes   int64

	mu      sync.Mutex // serialises writes
	pending sync.WaitGroup
}

func newPersister(dir, mode string, maxEntries int, maxBytes int64) *persister {
	return &persister{path: filepath.Join(dir, mode+".json"), mode: mode, maxEntries: maxEntries, maxBytes: maxBytes}
}

// load reads the file; a missing file is no storage, not an error.
func (p *persister) load() (any, error) {
	b, err := os.ReadFile(p.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f storageFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	if f.Schema != StorageSchema {
		return nil, fmt.Errorf("%s: schema %d, this server reads %d", p.path, f.Schema, StorageSchema)
	}
	if f.Mode != p.mode {
		return nil, fmt.Errorf("%s: storage of mode %q, not %q", p.path, f.Mode, p.mode)
	}
	v, err := decodeStorage(f.Storage)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	return v, nil
}

// decodeStorage reads the storage object of a storage file.
func decodeStorage(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	return storageFromJSON(raw, 0)
}

// encodeStorage writes bc.storage as the storage object of a storage
// file, within the limits.
func encodeStorage(data any, maxEntries int, maxBytes int64) ([]byte, error) {
	lim := &writeLimit{entries: maxEntries, bytes: maxBytes}
	doc, err := storageToJSON(data, make(map[*Table]bool), lim)
	switch {
	case errors.Is(err, errTooManyEntries):
		return nil, fmt.Errorf("bc.storage written out holds more than %d entries (a table referenced twice is written twice); the file was not updated", maxEntries)
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("bc.storage written out is larger than the memory limit of %s (a string or table stored under many keys is written each time); the file was not updated", sandbox.MiB(maxBytes))
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// Restarted is bc.storage as a restarted server reads it back: written to
// the storage file and parsed again, under the default limits (shared
// tables come back as copies, a cycle is cut). The mission test runner
// restarts games with it.
func Restarted(data *Table) (any, error) {
	if data == nil {
		return nil, nil
	}
	b, err := encodeStorage(data, DefaultStorageSize, DefaultMemoryLimit)
	if err != nil {
		return nil, err
	}
	return decodeStorage(b)
}

// save writes data atomically; async runs the write on its own goroutine.
func (p *persister) save(data any, version int, now time.Time, async bool) error {
	body, err := encodeStorage(data, p.maxEntries, p.maxBytes)
	if err != nil {
		return err
	}
	f := storageFile{Schema: StorageSchema, Mode: p.mode, Version: version, Saved: now.UTC(), Storage: body}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if !async {
		return p.write(b)
	}
	p.pending.Add(1)
	go func() {
		defer p.pending.Done()
		_ = p.write(b) // a failed write is retried at the next save
	}()
	return nil
}

// wait blocks until background writes are done.
func (p *persister) wait() { p.pending.Wait() }

func (p *persister) write(b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(p.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.path), "."+p.mode+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p.path)
}

var (
	errTooManyEntries = errors.New("too many entries")
	errTooLarge       = errors.New("too large")
)

// writeLimit is what a storage write may still hold. Entries and bytes
// are both needed: the memory walk counts a shared table or long string
// once, the file holds every copy.
type writeLimit struct {
	entries int
	bytes   int64
}

func (l *writeLimit) add(s string) error {
	if l.bytes -= int64(len(s)) + 8; l.bytes < 0 {
		return errTooLarge
	}
	return nil
}

// storageToJSON converts plain data (see convert.go) to JSON values,
// within lim.
func storageToJSON(v any, open map[*Table]bool, lim *writeLimit) (any, error) {
	switch v := v.(type) {
	case nil, bool:
		return v, nil
	case string:
		return v, lim.add(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil // JSON has no NaN or infinity
		}
		return v, nil
	case *Table:
		if open[v] {
			return nil, nil // a cycle
		}
		open[v] = true
		defer delete(open, v)
		if lim.entries -= len(*v); lim.entries < 0 {
			return nil, errTooManyEntries
		}
		obj := make(map[string]any, len(*v))
		for _, p := range *v {
			k, ok := storageKey(p.Key)
			if !ok {
				continue
			}
			if err := lim.add(k); err != nil {
				return nil, err
			}
			val, err := storageToJSON(p.Value, open, lim)
			if err != nil {
				return nil, err
			}
			obj[k] = val
		}
		return obj, nil
	}
	return nil, fmt.Errorf("value of type %T in storage", v)
}

func storageKey(k any) (string, bool) {
	switch k := k.(type) {
	case string:
		if strings.HasPrefix(k, "#") {
			return "#" + k, true
		}
		return k, true
	case float64:
		if math.IsNaN(k) || math.IsInf(k, 0) {
			return "", false
		}
		return "#" + strconv.FormatFloat(k, 'g', -1, 64), true
	case bool:
		return "#" + strconv.FormatBool(k), true
	}
	return "", false
}

// storageFromJSON converts the decoded file back to plain data.
func storageFromJSON(v any, depth int) (any, error) {
	if depth > 256 {
		return nil, errors.New("nested too deeply")
	}
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return nil, err
		}
		return f, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t := &Table{}
		for _, k := range keys {
			key, err := parseStorageKey(k)
			if err != nil {
				return nil, err
			}
			val, err := storageFromJSON(v[k], depth+1)
			if err != nil {
				return nil, err
			}
			if val != nil {
				*t = append(*t, Pair{key, val})
			}
		}
		return t, nil
	case []any:
		t := &Table{}
		for i, e := range v {
			val, err := storageFromJSON(e, depth+1)
			if err != nil {
				return nil, err
			}
			if val != nil {
				*t = append(*t, Pair{float64(i + 1), val})
			}
		}
		return t, nil
	}
	return nil, fmt.Errorf("unexpected %T", v)
}

func parseStorageKey(k string) (any, error) {
	if !strings.HasPrefix(k, "#") {
		return k, nil
	}
	rest := k[1:]
	switch {
	case strings.HasPrefix(rest, "#"):
		return rest, nil
	case rest == "true":
		return true, nil
	case rest == "false":
		return false, nil
	}
	f, err := strconv.ParseFloat(rest, 64)
	if err != nil {
		return nil, fmt.Errorf("key %q: neither a string nor #number", k)
	}
	return f, nil
}
