package modimport

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Level says what a finding means for the pack.
type Level string

// Finding levels.
const (
	// LevelError: the class (or table) named was left out of the pack.
	LevelError Level = "error"
	// LevelWarning: imported, but something looked wrong.
	LevelWarning Level = "warning"
	// LevelNote: for information (how a class was read).
	LevelNote Level = "note"
)

// Finding is one line of the import report.
type Finding struct {
	Level Level
	// File is the script (relative to the scripts folder, as stored) and
	// Line its line, 0 when the finding is about the whole file. A
	// finding about something missing names the line that asked for it
	// (the species table row, the ship script's HardpointFile).
	File string
	Line int
	// Class is the ship script the finding is about ("" for a table or a
	// projectile).
	Class string
	Msg   string
	// Fix says what to do about it.
	Fix string
}

func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(string(f.Level))
	b.WriteString(": ")
	if f.File != "" {
		b.WriteString(display(f.File))
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(": ")
	}
	if f.Class != "" {
		fmt.Fprintf(&b, "class %s: ", display(f.Class))
	}
	b.WriteString(display(f.Msg))
	if f.Fix != "" {
		b.WriteString(" (")
		b.WriteString(display(f.Fix))
		b.WriteString(")")
	}
	return b.String()
}

// display makes text from a mod tree safe for one report line: bytes that
// are not UTF-8 are read as Latin-1 (a Windows install's file names), and
// control characters are escaped, so a file named "x\nerror: ..." cannot
// forge report lines.
func display(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7F || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			r, n = rune(s[i]), 1 // Latin-1
		}
		switch {
		case r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// Sources of a class, as the report names them.
const (
	SourceScripts   = "ship script and hardpoint from the folder"
	SourceHardpoint = "hardpoint from the folder, the stock ship script's"
	SourceShip      = "ship script from the folder, the stock hardpoint from the built-in data"
	SourceVanilla   = "the built-in stock data (the folder has neither script)"
)

// ClassSource says where one class of the pack came from.
type ClassSource struct {
	Species int
	Script  string
	// Source is one of the Source* texts; File is the hardpoint read
	// (or the ship script), "" for built-in data.
	Source, File string
	// Parents are the hardpoints an inheriting file loads, nearest first.
	Parents []string
}

// Report is what an import could not read, per file and line, and what it
// built.
type Report struct {
	Findings []Finding
	// Imported names the classes written from the folder's scripts,
	// Vanilla those taken from the embedded stock data, RelayOnly the
	// species the pack has no class for (each "index Script"), in
	// species order.
	Imported, Vanilla, RelayOnly []string
	// Classes says where each class came from, in species order.
	Classes     []ClassSource
	Projectiles int
	// Overlay is set when the folder had no species table: the pack holds
	// the stock classes it changes, at the stock numbers, and lays over
	// the built-in data.
	Overlay bool
}

func (r *Report) add(level Level, file string, line int, class, fix, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Level: level, File: file, Line: line, Class: class, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// addErr adds a finding for an error of a reader: a line error takes its
// line, a read error its own fix; any other error's text stays out.
func (r *Report) addErr(level Level, file string, class, what string, err error, fix string) {
	line, msg, efix := explain(err)
	if efix != "" {
		fix = efix
	}
	r.add(level, file, line, class, fix, "%s: %s", what, msg)
}

// explain turns a reader's error into a line, a message and (for a read
// error) a fix.
func explain(err error) (line int, msg, fix string) {
	var le *lineError
	var ae *arithError
	var re *readError
	var pe *placedError
	switch {
	case errors.As(err, &ae):
		return ae.line, ae.msg, ""
	case errors.As(err, &le):
		return le.line, le.msg, ""
	case errors.As(err, &re):
		return 0, re.why, re.fix
	case errors.As(err, &pe):
		return pe.line, pe.msg, ""
	}
	return 0, "not readable", ""
}

// placedError is an error of the importer's own at a file and line.
type placedError struct {
	file string
	line int
	msg  string
	fix  string
}

func (e *placedError) Error() string {
	s := display(e.file)
	if e.line > 0 {
		s += fmt.Sprintf(":%d", e.line)
	}
	s += ": " + display(e.msg)
	if e.fix != "" {
		s += " (" + display(e.fix) + ")"
	}
	return s
}

// Errors returns the findings that left something out.
func (r *Report) Errors() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Level == LevelError {
			out = append(out, f)
		}
	}
	return out
}

// String is the report as the import command prints it and writes it
// into the pack (report.txt): a summary with each class's source, then
// every finding.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "classes imported from the scripts: %d\n", len(r.Imported))
	fmt.Fprintf(&b, "classes from the vanilla data (scripts not in the folder): %d\n", len(r.Vanilla))
	fmt.Fprintf(&b, "projectiles: %d\n", r.Projectiles)
	if r.Overlay {
		b.WriteString("no species table in the folder: the pack holds the classes the folder changes, at the stock numbers, over the built-in data\n")
	}
	fmt.Fprintf(&b, "species without a class (relayed only): %d\n", len(r.RelayOnly))
	for _, s := range r.RelayOnly {
		fmt.Fprintf(&b, "  %s\n", display(s))
	}
	if len(r.Classes) > 0 {
		b.WriteString("where each class came from:\n")
		for _, c := range r.Classes {
			fmt.Fprintf(&b, "  %d %s: %s", c.Species, display(c.Script), c.Source)
			if c.File != "" {
				fmt.Fprintf(&b, " (%s", display(c.File))
				for _, p := range c.Parents {
					fmt.Fprintf(&b, ", inheriting %s", display(p))
				}
				b.WriteString(")")
			}
			b.WriteByte('\n')
		}
	}
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}
