package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/server"
)

// -h and --help print the usage and exit 0; a wrong flag exits 2.
func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"test-missions", "-h"}, {"missions", "export", "-h"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 || !strings.Contains(errb.String(), "usage: bcserver") {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
	if code := run([]string{"-no-such-flag"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", code)
	}
}

// The README's flags table lists every flag, and its configuration block
// every section and key of the defaults.
func TestREADMEDocumentsFlagsAndConfig(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var usage bytes.Buffer
	run([]string{"-h"}, &bytes.Buffer{}, &usage)
	flags := regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(usage.String(), -1)
	if len(flags) < 10 {
		t.Fatalf("read %d flags from the usage:\n%s", len(flags), usage.String())
	}
	for _, f := range flags {
		if !regexp.MustCompile("(?m)^\\| `-" + regexp.QuoteMeta(f[1]) + "[ `]").Match(readme) {
			t.Errorf("README's flags table lacks -%s", f[1])
		}
	}
	start := bytes.Index(readme, []byte("### Configuration file"))
	block := readme[start:]
	block = block[bytes.Index(block, []byte("```toml")):]
	block = block[:bytes.Index(block[3:], []byte("```"))+3]
	section := ""
	have := map[string]bool{}
	for _, l := range strings.Split(string(block), "\n") {
		if m := regexp.MustCompile(`^\[([a-z.]+)\]`).FindStringSubmatch(l); m != nil {
			section = m[1]
			have[section] = true
		} else if m := regexp.MustCompile(`^([a-z_]+)\s*=`).FindStringSubmatch(l); m != nil {
			have[section+"."+m[1]] = true
		}
	}
	section = ""
	for _, l := range strings.Split(string(server.DefaultTOML()), "\n") {
		if m := regexp.MustCompile(`^\[([a-z.]+)\]`).FindStringSubmatch(l); m != nil {
			section = m[1]
			if !have[section] {
				t.Errorf("README's configuration block lacks [%s]", section)
			}
		} else if m := regexp.MustCompile(`^([a-z_]+)\s*=`).FindStringSubmatch(l); m != nil && !have[section+"."+m[1]] {
			t.Errorf("README's configuration block lacks %s.%s", section, m[1])
		}
	}
}

func TestFlagsAndPrintConfig(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-print-config"}, &out, &errb); code != 0 || !bytes.Equal(out.Bytes(), server.DefaultTOML()) {
		t.Fatalf("print-config: %d %s", code, errb.String())
	}
	if code := run([]string{"-max-players", "40"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "max_players") {
		t.Fatalf("bad flag value: %d %s", code, errb.String())
	}
	if code := run([]string{"-nope"}, &out, &errb); code != 2 {
		t.Fatalf("unknown flag: %d", code)
	}
}
