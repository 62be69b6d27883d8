package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/ships/modimport"
)

// importCommand is `bcserver import [flags] SCRIPTS_DIR OUT_DIR`: a data
// pack from a BC install's or a mod's scripts (mods.md 3).
func importCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	label := fs.String("label", "", "the pack's name and release, e.g. \"Kobayashi Maru 2011\" (default: OUT_DIR's name)")
	noVanilla := fs.Bool("no-vanilla", false, "do not fill rows whose scripts the folder lacks from the built-in stock data")
	messages := fs.String("messages", "", "also write a script message table into the pack: kobayashi-maru (the shipped example) or a file")
	verbose := fs.Bool("v", false, "also log the server loader's own words for a class it refuses (for a bug report)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver import [flags] SCRIPTS_DIR OUT_DIR\n\n"+
			"Reads a Bridge Commander scripts folder (a mod's scripts/, or an install holding scripts/)\n"+
			"as text, never running it, and writes a data pack into OUT_DIR: the species tables, one\n"+
			"class per ship it can read, the projectiles, and report.txt naming everything it could\n"+
			"not read, per file and line (those classes are relayed without a model). Name the pack\n"+
			"in [mod] packs.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	src, out := fs.Arg(0), fs.Arg(1)
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "bcserver: import: %s is not a folder\n", src)
		return 1
	}
	opts := modimport.Options{Label: *label}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if opts.Label == "" {
		opts.Label = filepath.Base(filepath.Clean(out))
	}
	if !*noVanilla {
		opts.Vanilla = ships.VanillaData()
	}
	var table []byte
	switch *messages {
	case "":
	case "kobayashi-maru", "km":
		table = []byte(scriptmsg.KobayashiMaruJSON())
	default:
		if _, err := scriptmsg.LoadFile(*messages); err != nil {
			fmt.Fprintf(stderr, "bcserver: import: -messages: %v\n", err)
			return 1
		}
		b, err := os.ReadFile(*messages)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver: import: -messages: %v\n", err)
			return 1
		}
		table = b
	}
	pack, err := modimport.ImportDir(src, opts)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: import: %v\n", err)
		if errors.Is(err, modimport.ErrNoPack) {
			fmt.Fprintln(stderr, "no pack written")
		}
		return 1
	}
	if table != nil {
		pack.Files[scriptmsg.FileName] = table
	}
	if err := pack.WriteDir(out); err != nil {
		fmt.Fprintf(stderr, "bcserver: import: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, pack.Report.String())
	fmt.Fprintf(stdout, "wrote the pack %q to %s (%d files); use it with [mod] packs = [%q]\n", opts.Label, out, len(pack.Files), out)
	return 0
}
