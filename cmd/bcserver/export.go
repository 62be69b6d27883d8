package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/bcserver/bcserver/server"
)

// missionsCommand is `bcserver missions export [-force] DIR`.
func missionsCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "usage: bcserver missions export [-force] DIR")
		return 2
	}
	fs := flag.NewFlagSet("missions export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	force := fs.Bool("force", false, "overwrite files that exist")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver missions export [-force] DIR\n\n"+
			"Writes the built-in game modes, lib/ (the stock rules), the LuaLS annotations (types/)\n"+
			"and a .luarc.json into DIR: a starting point for game.missions_dir.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	n, err := server.ExportMissions(fs.Arg(0), *force)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: missions export: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d files to %s; run them with -missions-dir %s\n", n, fs.Arg(0), fs.Arg(0))
	return 0
}
