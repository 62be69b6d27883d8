package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/server"
)

// backupCommand is `bcserver backup [-config FILE | -db FILE] OUT`: a
// consistent copy of the match history while the server runs.
func backupCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the server's configuration file: its [store] path is copied")
	db := fs.String("db", "", "the database file to copy (instead of -config)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver backup [-config FILE | -db FILE] OUT\n\n"+
			"Writes a consistent copy of the match history (matches, careers) to OUT, which must not exist,\n"+
			"while the server runs: every match written before the copy began and nothing half-written.\n"+
			"Copying bcserver.db by hand misses what is still in bcserver.db-wal.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || (*cfgPath == "") == (*db == "") && os.Getenv("BCSERVER_CONFIG") == "" {
		fs.Usage()
		return 2
	}
	path := *db
	if path == "" {
		if *cfgPath == "" {
			*cfgPath = os.Getenv("BCSERVER_CONFIG")
		}
		uc, err := server.Load(*cfgPath, os.Environ(), nil)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver backup: configuration: %v\n", err)
			return 1
		}
		if path = uc.StoreFile(); path == "" {
			fmt.Fprintf(stderr, "bcserver backup: %s has no [store] path: there is no match history to copy\n", *cfgPath)
			return 1
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := store.Backup(ctx, path, fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "bcserver %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "bcserver backup: %s copied to %s\n", path, fs.Arg(0))
	return 0
}
