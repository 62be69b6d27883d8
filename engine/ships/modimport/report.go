package modimport

import (
	"fmt"
	"strings"
)

// Level says what a finding means for the pack.
type Level string

// Finding levels.
const (
	// LevelError: the class (or table) named was left out of the pack.
	LevelError Level = "error"
	// LevelWarning: imported, but something looked wrong.
	LevelWarning Level = "warning"
	// LevelNote: for information (a stock class taken from vanilla).
	LevelNote Level = "note"
)

// Finding is one line of the import report.
type Finding struct {
	Level Level
	// File is the script (relative to the scripts folder, as stored) and
	// Line its line, 0 when the finding is about the whole file.
	File string
	Line int
	// Class is the ship script the finding is about ("" for a table or a
	// projectile).
	Class string
	Msg   string
}

func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(string(f.Level))
	b.WriteString(": ")
	if f.File != "" {
		b.WriteString(f.File)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(": ")
	}
	if f.Class != "" {
		fmt.Fprintf(&b, "class %s: ", f.Class)
	}
	b.WriteString(f.Msg)
	return b.String()
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
	Projectiles                  int
}

func (r *Report) add(level Level, file string, line int, class, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Level: level, File: file, Line: line, Class: class, Msg: fmt.Sprintf(format, args...)})
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
// into the pack (report.txt): a summary, then every finding.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "classes imported from the scripts: %d\n", len(r.Imported))
	fmt.Fprintf(&b, "classes from the vanilla data (scripts not in the folder): %d\n", len(r.Vanilla))
	fmt.Fprintf(&b, "projectiles: %d\n", r.Projectiles)
	fmt.Fprintf(&b, "species without a class (relayed only): %d\n", len(r.RelayOnly))
	for _, s := range r.RelayOnly {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}
