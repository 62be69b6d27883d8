package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/plugins/record"
)

// replayCommand is `bcserver replay [-json] [-all] FILE`: the summary of
// a match recording, or every record as JSON lines for other tools (the
// format is docs/replay-format.md). Both show what every player received
// unless -all; the text is escaped for a terminal.
func replayCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write every record as a JSON line (the header first, the footer last) instead of the summary")
	all := fs.Bool("all", false, "also show the chat not every player received (team chat, muted and held-back lines), marked")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver replay [-json] [-all] FILE\n\nPrints the summary of a match recording (score table, kills, chat), or exports it as JSON lines.\n"+
			"Without -all it shows only what every player received, as the spectator page does.\n\n")
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
	view := record.View{Public: !*all}
	if !*asJSON {
		s, err := record.SummarizeView(f, view)
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
	enc := json.NewEncoder(termSafe{w})
	_ = enc.Encode(map[string]any{"kind": "header", "header": f.Header, "blocks": len(f.Blocks), "damaged": f.Damaged, "public": view.Public})
	var werr error
	err = f.All(func(r *capture.Record) bool {
		if view.Public && !r.Public() {
			return true
		}
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

// termSafe writes JSON with the characters a terminal would act on that
// encoding/json leaves raw (C1 controls, bidi controls, U+2028/9 are
// escaped by it only in HTML mode) as \uXXXX escapes: still the same
// JSON, and inert on a terminal. Each Write is one whole encoded value.
type termSafe struct{ w io.Writer }

func (t termSafe) Write(p []byte) (int, error) {
	s := string(p)
	var b strings.Builder
	for _, r := range s {
		if r >= 0x80 && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	if _, err := io.WriteString(t.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
