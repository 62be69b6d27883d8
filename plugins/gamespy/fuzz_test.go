package gamespy

import (
	"fmt"

	"strings"
	"testing"

	"github.com/bcserver/bcserver/internal/browse"
)

func FuzzHandle(f *testing.F) {
	f.Add(vector(f, "gamespy_lan_status_query"))
	f.Add(vector(f, "gamespy_master_challenge"))
	for _, s := range []string{
		`\basic\`, `\info\`, `\rules\`, `\players\`, `\packets\`, `\echo\ping`, `\secure\LRPOPQ`,
		`\status\\secure\LRPOPQ\echo\x`, `\secure\` + strings.Repeat("s", 200), `\echo\` + strings.Repeat("e", 300),
		`\status`, `\\\\`, "\\status\\\x00\\basic\\", `\status\` + strings.Repeat(`\packets\`, 40),
	} {
		f.Add([]byte(s))
	}
	info := captureInfo()
	info.Players = longNames(40, 120)
	info.Hostname = `evil\name`
	f.Fuzz(func(t *testing.T, q []byte) {
		for _, max := range []int{1, DefaultMaxDatagrams} {
			r := newTestResponder(t, info, func(o *Options) {
				o.MaxDatagrams = max
				o.RateLimit.Disabled = true
			})
			got := ask(r, t0, browser, q)
			if len(q) == 0 || q[0] != '\\' {
				if len(got) != 0 {
					t.Fatalf("non-query %q answered", q)
				}
				continue
			}
			if len(got) == 0 || len(got) > max {
				t.Fatalf("%d datagrams, cap %d", len(got), max)
			}
			for i, d := range got {
				if len(d) > MaxReply {
					t.Fatalf("datagram %d is %d bytes", i+1, len(d))
				}
				suffix := fmt.Sprintf(`\queryid\2.%d`, i+1)
				if !strings.HasSuffix(d, suffix) {
					t.Fatalf("datagram %d lacks %s: %q", i+1, suffix, d)
				}
				if last := i == len(got)-1; strings.HasSuffix(d, `\final\`+suffix) != last {
					t.Fatalf("final misplaced in datagram %d of %d", i+1, len(got))
				}
				if _, err := browse.ParseReply([]byte(d)); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
