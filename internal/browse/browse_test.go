package browse

import (
	"fmt"
	"maps"
	"net/netip"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

func TestParseReply(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr bool
	}{
		{name: "final then queryid", in: `\a\1\final\\queryid\2.1`, want: map[string]string{"a": "1", "final": "", "queryid": "2.1"}},
		{name: "trailing backslash", in: `\a\1\`, want: map[string]string{"a": "1"}},
		{name: "key without value", in: `\a\1\b`, want: map[string]string{"a": "1", "b": ""}},
		{name: "empty key skipped", in: `\\x\a\1`, want: map[string]string{"a": "1"}},
		{name: "last duplicate wins", in: `\a\1\a\2`, want: map[string]string{"a": "2"}},
		{name: "lone backslash", in: `\`, want: map[string]string{}},
		{name: "empty", in: ``, wantErr: true},
		{name: "not a reply", in: "\x01\x02", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseReply([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !tt.wantErr && !maps.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	var many []byte
	for i := range maxReplyKeys + 1 {
		many = fmt.Appendf(many, `\k%d\v`, i)
	}
	if _, err := ParseReply(many); err == nil {
		t.Error("unbounded key count accepted")
	}
}

func TestParseQueryID(t *testing.T) {
	tests := []struct {
		in   string
		n, m int
		ok   bool
	}{
		{"2.1", 2, 1, true},
		{"17.3", 17, 3, true},
		{"2", 0, 0, false},
		{"2.0", 0, 0, false},
		{"x.1", 0, 0, false},
		{"-1.1", 0, 0, false},
	}
	for _, tt := range tests {
		n, m, ok := ParseQueryID(tt.in)
		if n != tt.n || m != tt.m || ok != tt.ok {
			t.Errorf("ParseQueryID(%q) = %d, %d, %v", tt.in, n, m, ok)
		}
	}
}

func TestLANTargets(t *testing.T) {
	got := LANTargets()
	if len(got) != 101 {
		t.Fatalf("%d targets, want 101", len(got))
	}
	if got[0] != netip.MustParseAddrPort("255.255.255.255:22101") || got[100] != netip.MustParseAddrPort("255.255.255.255:22201") {
		t.Errorf("targets %v .. %v", got[0], got[100])
	}
}

func TestCollectorReassembly(t *testing.T) {
	src := netip.MustParseAddrPort("192.0.2.1:22101")
	c := collector{sources: map[netip.AddrPort]*source{}}
	steps := []struct {
		in  string
		new bool
	}{
		{`\c\3\final\\queryid\7.2`, true}, // out of order
		{`\a\1\queryid\7.1`, true},
		{`\a\1\queryid\7.1`, false}, // duplicate
		{`garbage`, false},
		{`\x\1\queryid\7.99`, false}, // fragment number out of bounds
		{`\old\1\queryid\6.1`, true}, // an earlier, incomplete reply
	}
	for i, s := range steps {
		if got := c.add(src, []byte(s.in)); got != s.new {
			t.Fatalf("step %d %q: new = %v", i, s.in, got)
		}
	}
	res := c.results()
	if len(res) != 1 {
		t.Fatalf("results %v", res)
	}
	f := res[0]
	if f.Addr != src || f.QueryID != 7 || f.Fragments != 2 || !f.Complete ||
		!maps.Equal(f.Info, map[string]string{"a": "1", "c": "3"}) {
		t.Errorf("found %+v", f)
	}
}

func FuzzParseReply(f *testing.F) {
	f.Add(vectors.MustNamed(f, "session.json", "gamespy_status_response"))
	f.Add([]byte(`\a\\\b`))
	browser := netip.MustParseAddrPort("192.168.1.20:50000")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseReply(b)
		if err == nil && len(m) > maxReplyKeys {
			t.Fatalf("%d keys", len(m))
		}
		c := collector{sources: map[netip.AddrPort]*source{}}
		c.add(browser, b)
		c.add(browser, b)
		_ = c.results()
	})
}
