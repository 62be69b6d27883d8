// Command bchash writes a checksum manifest for a Bridge Commander 1.1
// install or a mod folder, so a bcserver host can check joining clients
// against their own files without the server reading game files
// (handshake.md 3.3).
//
// It hashes exactly what a stock client reports for the five stock
// requests (scripts/ App.pyc, scripts/ Autoexec.pyc, scripts/ships *.pyc
// recursive, scripts/mainmenu *.pyc, Scripts/Multiplayer *.pyc recursive)
// with the stock FileHash, so every entry is content-verified
// (meta.file_hash = "stock"). The output has the format of the vanilla
// manifest, plus a round-0xFF entry.
//
// Usage:
//
//	bchash -root "C:/Games/Bridge Commander" -o manifest.json -name "BC 1.1 + KM"
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bcserver/bcserver/engine/checksum"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it parses args, writes the manifest to
// -o (or stdout) and a summary to stderr, and returns the exit code
// (0 ok, 1 failure, 2 bad usage).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bchash", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "Bridge Commander install or mod folder: the folder that holds scripts/ (a scripts folder itself also works). Required.")
	out := fs.String("o", "-", "output manifest `file`; - writes to standard output")
	name := fs.String("name", "", "manifest name recorded in meta.name (default: the root folder's name)")
	notes := fs.String("notes", "", "free text recorded in meta.notes")
	version := fs.String("version", checksum.StockVersionString, "game version string whose hash clients send in round 0")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: bchash -root <BC install or mod folder> [-o manifest.json] [-name ...]

bchash hashes the files a stock Bridge Commander 1.1 client reports in the
join-time checksum exchange (all five rounds, including Scripts/Multiplayer)
and writes a manifest for the server's checksum validation. Every content
hash is computed with the stock FileHash, so the server may enforce all of
them. Directory and file names are matched ignoring case, as on Windows.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bchash: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *root == "" {
		fmt.Fprintln(stderr, "bchash: -root is required")
		fs.Usage()
		return 2
	}
	if *name == "" {
		*name = baseName(*root)
	}
	m, err := checksum.Build(*root, checksum.BuildOptions{Name: *name, Notes: *notes, VersionString: *version})
	if err != nil {
		fmt.Fprintf(stderr, "bchash: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	if err := m.WriteJSON(&buf); err != nil {
		fmt.Fprintf(stderr, "bchash: %v\n", err)
		return 1
	}
	if *out == "-" {
		_, err = stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(*out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bchash: writing manifest: %v\n", err)
		return 1
	}
	summarize(stderr, *root, m)
	return 0
}

// summarize tells the host what each round will check, and warns about
// rounds with nothing to check: a stock client with no matching file sends
// no response at all (handshake.md 2.3), so such a round would time out.
func summarize(w io.Writer, root string, m *checksum.Manifest) {
	for _, req := range checksum.StockRequests() {
		d, ok := m.Lookup(req)
		if !ok {
			fmt.Fprintf(w, "round 0x%02X %s %s: directory not found under %s; this round is not checked\n",
				req.Round, req.Dir, req.Filter, root)
			continue
		}
		files, dirs := count(&d.Tree)
		fmt.Fprintf(w, "round 0x%02X %s %s: %d files in %d subdirectories\n", req.Round, req.Dir, req.Filter, files, dirs)
		if files == 0 {
			fmt.Fprintf(w, "  warning: no matching file; a stock client would not answer this round\n")
		}
	}
}

func count(t *checksum.Tree) (files, dirs int) {
	files = len(t.Files)
	for i := range t.Subdirs {
		f, d := count(&t.Subdirs[i].Tree)
		files += f
		dirs += d + 1
	}
	return files, dirs
}

func baseName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}
