package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/bcserver/bcserver/plugins/record"
)

// replayCommand is `bcserver replay [-json] FILE`: the summary of a match
// recording, or every record as JSON lines for other tools (the format is
// docs/replay-format.md).
func replayCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write every record as a JSON line (the header first, the footer last) instead of the summary")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver replay [-json] FILE\n\nPrints the summary of a match recording (score table, kills, chat), or exports it as JSON lines.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	f, err := record.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "bcserver replay: %v\n", err)
		return 1
	}
	defer f.Close()
	if !*asJSON {
		s, err := record.Summarize(f)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver replay: %s: %v (the summary is of what was readable)\n", fs.Arg(0), err)
		}
		if s != nil {
			s.Print(stdout)
		}
		if err != nil {
			return 1
		}
		return 0
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	_ = enc.Encode(map[string]any{"kind": "header", "header": f.Header, "blocks": len(f.Blocks), "damaged": f.Damaged})
	var werr error
	err = f.All(func(r *record.Record) bool {
		werr = enc.Encode(r.Map())
		return werr == nil
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		err = enc.Encode(map[string]any{"kind": "footer", "footer": f.Footer})
	}
	if err != nil {
		w.Flush()
		fmt.Fprintf(stderr, "bcserver replay: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	return 0
}
