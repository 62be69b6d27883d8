package modimport

import (
	"strings"
	"testing"
)

// Text from a mod tree cannot forge report lines: control characters are
// escaped, and bytes that are not UTF-8 read as Latin-1 (a Windows
// install's file names).
func TestReportDisplay(t *testing.T) {
	for in, want := range map[string]string{
		"ships/Akira.py":             "ships/Akira.py",
		"x\nerror: forged":           `x\x0aerror: forged`,
		"bell\a\x7f":                 `bell\x07\x7f`,
		"\xe9clair.py":               "\u00e9clair.py",
		"caf\u00e9.py":               "caf\u00e9.py",
		"c1\u0085control":            `c1\x85control`,
		"tab\there":                  `tab\x09here`,
		"\xff\xfe":                   "\u00ff\u00fe",
		"mixed \u00e9 and \xe9 here": "mixed \u00e9 and \u00e9 here",
	} {
		if got := display(in); got != want {
			t.Errorf("display(%q) = %q, want %q", in, got, want)
		}
	}
	f := Finding{Level: LevelError, File: "ships/x\nerror: y.py", Line: 3, Class: "A\rB", Msg: "m\n", Fix: "f\n"}
	if s := f.String(); strings.ContainsAny(s, "\n\r") {
		t.Errorf("a finding spans lines: %q", s)
	}
	r := &Report{RelayOnly: []string{"1 Evil\nerror: forged"}, Findings: []Finding{f}}
	if n := strings.Count(r.String(), "\nerror:"); n != 1 {
		t.Errorf("%d error lines in\n%s", n, r)
	}
}
