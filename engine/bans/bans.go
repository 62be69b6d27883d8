// Package bans is the server's ban list: IPv4 address patterns (an octet
// 255 matches any value, as in the stock banlist.txt, transport.md 4.5) and
// player names (compared as look-alikes: names.Key, which folds only A..Z
// as stock does).
//
// A List combines fixed entries from the configuration with the entries of
// a file the server keeps, one entry per line. Entries added or removed at
// run time change the file, which is rewritten atomically (a temporary
// file in the same folder, synced, then renamed over the old one); its
// comments and blank lines are kept.
package bans

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/bcserver/bcserver/engine/names"
	bcnet "github.com/bcserver/bcserver/net"
)

// NamePrefix starts a name entry in the file and in API calls.
const NamePrefix = "name:"

// maxLine bounds a line of the ban file.
const maxLine = 4096

// Entry is one ban: an IPv4 pattern or a player name.
type Entry struct {
	// IP is the address pattern; 255 in an octet matches any value.
	IP [4]byte
	// Name is set for a name ban.
	Name string
}

// IsName reports whether the entry bans a name.
func (e Entry) IsName() bool { return e.Name != "" }

// String returns the entry as it is written in the file.
func (e Entry) String() string {
	if e.IsName() {
		return NamePrefix + e.Name
	}
	return netip.AddrFrom4(e.IP).String()
}

// Parse reads one entry: a dotted IPv4 address ("203.0.113.7",
// "198.51.100.255") or "name:" followed by a player name.
func Parse(s string) (Entry, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, NamePrefix); ok {
		name := strings.TrimSpace(rest)
		if name == "" {
			return Entry{}, errors.New("empty name")
		}
		if bcnet.TruncateName(name, bcnet.MaxNameUnits) != name {
			return Entry{}, fmt.Errorf("name longer than %d characters", bcnet.MaxNameUnits)
		}
		if !names.Valid(name) {
			// One entry per line: a line break would add an entry of the
			// writer's choosing, a bidi override would hide what a line says.
			return Entry{}, fmt.Errorf("name %q has control, line-break or bidi characters", name)
		}
		return Entry{Name: name}, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is4() {
		return Entry{}, fmt.Errorf("%q is neither an IPv4 address nor %s<player name>", s, NamePrefix)
	}
	return Entry{IP: a.As4()}, nil
}

// MatchAddr reports whether the entry bans the address.
func (e Entry) MatchAddr(a netip.Addr) bool {
	if e.IsName() {
		return false
	}
	a = a.Unmap()
	if !a.Is4() {
		return false
	}
	ip := a.As4()
	for i, o := range e.IP {
		if o != 255 && o != ip[i] {
			return false
		}
	}
	return true
}

// MatchName reports whether the entry bans the player name.
func (e Entry) MatchName(name string) bool {
	return e.IsName() && names.Same(e.Name, name)
}

// Broad says why an address ban would lock out far more than one
// player, or "" when it would not: a pattern whose first octet is the
// wildcard matches an address in every network (255.255.255.255 matches
// every address), and the unspecified and loopback addresses are the
// server's own. Adding such a ban at run time needs an explicit force.
func (e Entry) Broad() string {
	switch {
	case e.IsName():
		return ""
	case e.IP[0] == 255:
		return "it matches addresses in every network (a first octet 255 is a wildcard)"
	case e.IP == [4]byte{}:
		return "0.0.0.0 is the unspecified address"
	case e.IP[0] == 127:
		return "127.x.x.x is the loopback network: players on this machine"
	}
	return ""
}

// Same reports whether two entries ban the same thing: names compared as
// admission compares them (names.Same), addresses as patterns. Everything
// that asks "is this already banned" asks it here.
func (e Entry) Same(o Entry) bool {
	if e.IsName() || o.IsName() {
		return e.IsName() && o.IsName() && names.Same(e.Name, o.Name)
	}
	return e.IP == o.IP
}

// line is one line of the ban file: an entry, or text kept as it is.
type line struct {
	text  string
	entry *Entry
}

// List is the ban list of one server. It is not safe for concurrent use;
// the game goroutine owns it.
type List struct {
	fixed []Entry
	path  string
	lines []line
}

// header starts a ban file the server creates.
const header = `# bcserver ban list, kept by the server (bans added or removed at run time
# are written here). One entry per line:
#   an IPv4 address; an octet 255 matches any value (203.0.113.255 bans 203.0.113.*)
#   name:<player name>, compared with only A..Z case-insensitive and
#   look-alike forms (full width, zero-width characters) matching
`

// Load builds a list from the fixed entries and the file at path ("" for
// none; a missing file is an empty list, created on the first Add).
func Load(fixed []string, path string) (*List, error) {
	l := &List{path: path}
	for _, s := range fixed {
		e, err := Parse(s)
		if err != nil {
			return nil, fmt.Errorf("ban %q: %w", s, err)
		}
		l.fixed = append(l.fixed, e)
	}
	if path == "" {
		return l, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the ban list: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 256), maxLine)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		t := strings.TrimSpace(text)
		if t == "" || strings.HasPrefix(t, "#") {
			l.lines = append(l.lines, line{text: text})
			continue
		}
		e, err := Parse(t)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		l.lines = append(l.lines, line{text: e.String(), entry: &e})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// Path returns the file the list keeps ("" for none).
func (l *List) Path() string { return l.path }

func (l *List) each(fn func(e Entry, fixed bool) bool) {
	for _, e := range l.fixed {
		if !fn(e, true) {
			return
		}
	}
	for _, ln := range l.lines {
		if ln.entry != nil && !fn(*ln.entry, false) {
			return
		}
	}
}

// Entries returns every ban, the fixed ones first.
func (l *List) Entries() []Entry {
	var out []Entry
	l.each(func(e Entry, _ bool) bool { out = append(out, e); return true })
	return out
}

// BannedAddr returns the first entry that bans the address.
func (l *List) BannedAddr(a netip.Addr) (Entry, bool) {
	return l.first(func(e Entry) bool { return e.MatchAddr(a) })
}

// BannedName returns the first entry that bans the player name.
func (l *List) BannedName(name string) (Entry, bool) {
	return l.first(func(e Entry) bool { return e.MatchName(name) })
}

// first returns the first entry, fixed ones first, that match accepts.
func (l *List) first(match func(Entry) bool) (Entry, bool) {
	var hit Entry
	found := false
	l.each(func(e Entry, _ bool) bool {
		if match(e) {
			hit, found = e, true
		}
		return !found
	})
	return hit, found
}

// Add bans e and rewrites the file. It reports false when e was already
// banned (nothing changes).
func (l *List) Add(e Entry) (bool, error) {
	dup := false
	l.each(func(o Entry, _ bool) bool { dup = o.Same(e); return !dup })
	if dup {
		return false, nil
	}
	if l.path == "" {
		return false, errors.New("no ban file configured (bans.file)")
	}
	lines := l.lines[:len(l.lines):len(l.lines)]
	if len(lines) == 0 {
		for _, h := range strings.SplitAfter(strings.TrimSuffix(header, "\n"), "\n") {
			lines = append(lines, line{text: strings.TrimSuffix(h, "\n")})
		}
	}
	lines = append(lines, line{text: e.String(), entry: &e})
	if err := l.write(lines); err != nil {
		return false, err
	}
	l.lines = lines
	return true, nil
}

// Remove lifts the ban e from the file and rewrites it. It reports false
// when the file has no such entry; a ban from the configuration cannot be
// lifted at run time.
func (l *List) Remove(e Entry) (bool, error) {
	for _, f := range l.fixed {
		if f.Same(e) {
			return false, fmt.Errorf("%s is banned in the configuration file, not in the ban list", e)
		}
	}
	var lines []line
	removed := false
	for _, ln := range l.lines {
		if ln.entry != nil && ln.entry.Same(e) {
			removed = true
			continue
		}
		lines = append(lines, ln)
	}
	if !removed {
		return false, nil
	}
	if err := l.write(lines); err != nil {
		return false, err
	}
	l.lines = lines
	return true, nil
}

// write replaces the file atomically with lines.
func (l *List) write(lines []line) error {
	var b strings.Builder
	for _, ln := range lines {
		b.WriteString(ln.text)
		b.WriteByte('\n')
	}
	dir := filepath.Dir(l.path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(l.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing the ban list: %w", err)
	}
	tmp := f.Name()
	_, err = f.WriteString(b.String())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, l.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing the ban list %s: %w", l.path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename durable where the filesystem allows
		d.Close()
	}
	return nil
}
