package gamespy

import (
	"bytes"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/browse"
	"github.com/bcserver/bcserver/internal/vectors"
)

// vector returns the captured payload of the named session.json entry.
func vector(t testing.TB, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "session.json", name)
}

// captureInfo is the server state of the captured reply (gamespy.md 2.2).
func captureInfo() ServerInfo {
	return ServerInfo{
		Hostname:      "My Game23",
		MissionScript: "Multiplayer.Episode.Mission1.Mission1",
		MapName:       "DM",
		NumPlayers:    0,
		MaxPlayers:    8,
		GameMode:      ModeOpenPlaying,
		TimeLimit:     NoTimeLimit,
		FragLimit:     NoFragLimit,
		System:        "Multi1",
		Location:      1,
	}
}

var (
	t0      = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	browser = netip.MustParseAddrPort("192.168.1.20:50000")
)

func newTestResponder(t testing.TB, info ServerInfo, mod func(*Options)) *Responder {
	t.Helper()
	opts := Options{Info: func() ServerInfo { return info }}
	if mod != nil {
		mod(&opts)
	}
	r, err := NewResponder(opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ask sends one query and returns copies of the reply datagrams.
func ask(r *Responder, now time.Time, from netip.AddrPort, q []byte) []string {
	var out []string
	r.Handle(now, from, q, func(b []byte) { out = append(out, string(b)) })
	return out
}

func TestStatusMatchesCapture(t *testing.T) {
	query := vector(t, "gamespy_lan_status_query")
	want := vector(t, "gamespy_status_response")
	if string(query) != browse.StatusQuery {
		t.Fatalf("captured query %q, want %q", query, browse.StatusQuery)
	}
	r := newTestResponder(t, captureInfo(), nil)
	got := ask(r, t0, browser, query)
	if len(got) != 1 {
		t.Fatalf("got %d datagrams, want 1: %q", len(got), got)
	}
	if !bytes.Equal([]byte(got[0]), want) {
		t.Fatalf("reply differs from capture\n got %q\nwant %q", got[0], want)
	}
	if len(want) != 267 {
		t.Errorf("capture is %d bytes, gamespy.md 2.2 says 267", len(want))
	}
}

func TestQueryIDCounts(t *testing.T) {
	// gamespy.md 2.3: successive queries were answered 2.1, 3.1, 4.1, 5.1.
	r := newTestResponder(t, captureInfo(), nil)
	for i, want := range []string{`\queryid\2.1`, `\queryid\3.1`, `\queryid\4.1`, `\queryid\5.1`} {
		got := ask(r, t0, browser, []byte(`\status\`))
		if len(got) != 1 || !strings.HasSuffix(got[0], `\final\`+want) {
			t.Fatalf("query %d: got %q, want suffix %q", i, got, want)
		}
	}
}

func TestQueryWords(t *testing.T) {
	const (
		basic   = `\gamename\bcommander\gamever\60\location\1`
		info    = `\hostname\My Game23\missionscript\Multiplayer.Episode.Mission1.Mission1\mapname\DM\numplayers\0\maxplayers\8\gamemode\openplaying`
		rules   = `\timelimit\-1\fraglimit\-2\system\Multi1\password\0`
		players = `\player_0\Dedicated Server`
		end     = `\final\\queryid\2.1`
	)
	withPlayers := captureInfo()
	withPlayers.Players = []string{"Kirk", `Pic\ard`}
	withPlayers.NumPlayers = 2
	locked := captureInfo()
	locked.Password = true

	tests := []struct {
		name  string
		info  ServerInfo
		mod   func(*Options)
		query string
		want  []string
	}{
		{name: "basic", query: `\basic\`, want: []string{basic + end}},
		{name: "info", query: `\info\`, want: []string{info + end}},
		{name: "rules", query: `\rules\`, want: []string{rules + end}},
		{name: "players", query: `\players\`, want: []string{players + end}},
		{name: "status", query: `\status\`, want: []string{basic + info + rules + players + end}},
		{name: "packets", query: `\packets\`, want: []string{
			basic + `\queryid\2.1`, info + `\queryid\2.2`, rules + `\queryid\2.3`, players + `\final\\queryid\2.4`,
		}},
		{name: "echo", query: `\echo\hello there`, want: []string{`\echo\hello there` + end}},
		{name: "echo empty", query: `\echo\`, want: []string{`\echo\` + end}},
		{name: "secure", query: `\secure\LRPOPQ`, want: []string{`\validate\hMwdTNWS` + end}},
		{name: "secure empty", query: `\secure\\`, want: []string{end}},
		{name: "master challenge", query: `\basic\\secure\LRPOPQ`, want: []string{basic + `\validate\hMwdTNWS` + end}},
		{name: "stock order not query order", query: `\echo\x\players\\rules\\basic\`, want: []string{basic + rules + players + `\echo\x` + end}},
		{name: "status twice with basic", query: `\basic\\status\`, want: []string{basic + basic + info + rules + players + end}},
		{name: "unknown word", query: `\gimme\`, want: []string{end}},
		{name: "word needs both backslashes", query: `\status`, want: []string{end}},
		{name: "word is not a bare substring", query: `\xstatus\`, want: []string{end}},
		{name: "password", info: locked, query: `\info\\rules\`, want: []string{
			strings.Replace(info, `My Game23`, `*My Game23`, 1) + strings.Replace(rules, `password\0`, `password\1`, 1) + end,
		}},
		{name: "players after host entry", info: withPlayers, query: `\players\`, want: []string{
			`\player_0\Dedicated Server\player_1\Kirk\player_2\Pic/ard` + end,
		}},
		{name: "no host entry", info: withPlayers, mod: func(o *Options) { o.NoHostEntry = true }, query: `\players\`, want: []string{
			`\player_0\Kirk\player_1\Pic/ard` + end,
		}},
		{name: "host entry renamed", mod: func(o *Options) { o.HostEntry = "bcserver" }, query: `\players\`, want: []string{
			`\player_0\bcserver` + end,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := tt.info
			if info.Hostname == "" {
				info = captureInfo()
			}
			r := newTestResponder(t, info, tt.mod)
			got := ask(r, t0, browser, []byte(tt.query))
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("query %q\n got %q\nwant %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	challenge := vector(t, "gamespy_master_challenge")
	if !bytes.HasSuffix(challenge, []byte(`\secure\LRPOPQ`)) {
		t.Fatalf("unexpected challenge vector %q", challenge)
	}
	tests := []struct{ challenge, want string }{
		{"LRPOPQ", "hMwdTNWS"}, // gamespy.md 4.1, client capture
		{"", ""},
		{strings.Repeat("A", MaxChallengeLen+1), ""},
	}
	for _, tt := range tests {
		if got := Validate(tt.challenge); got != tt.want {
			t.Errorf("Validate(%q) = %q, want %q", tt.challenge, got, tt.want)
		}
	}
	// Lengths that are not a multiple of 3 still give whole 4-character
	// groups and no '=' padding, as the SDK's encoder does.
	for n := 1; n <= MaxChallengeLen; n++ {
		v := Validate(strings.Repeat("z", n))
		if len(v) != (n+2)/3*4 || strings.Contains(v, "=") {
			t.Fatalf("Validate of %d bytes = %q", n, v)
		}
	}
}

// longNames returns n distinct player names of the given length.
func longNames(n, length int) []string {
	out := make([]string, n)
	for i := range out {
		p := fmt.Sprintf("P%02d-", i)
		out[i] = p + strings.Repeat(string(rune('a'+i%26)), length-len(p))
	}
	return out
}

// checkReply checks the framing rules of gamespy.md 2.3 on one reply and
// returns the merged keys.
func checkReply(t testing.TB, got []string, id int) map[string]string {
	t.Helper()
	if len(got) == 0 {
		t.Fatal("no reply")
	}
	merged := map[string]string{}
	for i, d := range got {
		if len(d) > MaxReply {
			t.Errorf("datagram %d is %d bytes, over %d", i+1, len(d), MaxReply)
		}
		suffix := fmt.Sprintf(`\queryid\%d.%d`, id, i+1)
		if !strings.HasSuffix(d, suffix) || strings.Count(d, `\queryid\`) != 1 {
			t.Errorf("datagram %d does not end in its own %s: %q", i+1, suffix, d)
		}
		last := i == len(got)-1
		if hasFinal := strings.HasSuffix(d, `\final\`+suffix); hasFinal != last {
			t.Errorf("datagram %d of %d: final=%v", i+1, len(got), hasFinal)
		}
		if strings.Contains(d, `\validate\`) && !last {
			t.Errorf("datagram %d of %d carries validate", i+1, len(got))
		}
		kv, err := browse.ParseReply([]byte(d))
		if err != nil {
			t.Fatalf("datagram %d: %v", i+1, err)
		}
		for k, v := range kv {
			if _, dup := merged[k]; dup && k != "queryid" {
				t.Errorf("key %q in two datagrams", k)
			}
			merged[k] = v
		}
	}
	return merged
}

func TestFragmentation(t *testing.T) {
	info := captureInfo()
	info.Players = longNames(16, 200)
	info.NumPlayers = len(info.Players)
	info.MaxPlayers = 16
	r := newTestResponder(t, info, nil)
	got := ask(r, t0, browser, []byte(`\status\\secure\LRPOPQ`))
	if len(got) < 3 {
		t.Fatalf("got %d datagrams, want a split reply", len(got))
	}
	kv := checkReply(t, got, 2)
	// Split at key boundaries: every name arrives whole in one datagram.
	for i, name := range info.Players {
		if k := fmt.Sprintf("player_%d", i+1); kv[k] != name {
			t.Errorf("%s = %q, want %q", k, kv[k], name)
		}
	}
	if kv["validate"] != "hMwdTNWS" || kv["hostname"] != "My Game23" {
		t.Errorf("validate %q hostname %q", kv["validate"], kv["hostname"])
	}
	if st := r.Stats(); st.Datagrams != uint64(len(got)) || st.Clipped != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestHostileValues(t *testing.T) {
	info := captureInfo()
	info.Hostname = strings.Repeat("H", 5000)
	info.Password = true
	info.System = strings.Repeat("\\", 300)
	info.Players = longNames(300, 1000)
	secure := `\secure\` + strings.Repeat("c", MaxChallengeLen)
	for _, q := range []string{`\status\`, `\packets\`} {
		r := newTestResponder(t, info, func(o *Options) { o.MaxDatagrams = 64 })
		got := ask(r, t0, browser, []byte(q+secure))
		kv := checkReply(t, got, 2)
		if h := kv["hostname"]; len(h) != MaxValueLen || h[0] != '*' {
			t.Errorf("%s: hostname of %d bytes, want %d starting with *", q, len(h), MaxValueLen)
		}
		if s := kv["system"]; s != strings.Repeat("/", MaxValueLen) {
			t.Errorf("%s: system %q", q, s)
		}
		if len(kv["validate"]) != maxValidateLen {
			t.Errorf("%s: validate %q", q, kv["validate"])
		}
		if n := len(kv); n != 3+6+4+301+3 { // sections, players, validate+final+queryid
			t.Errorf("%s: %d keys", q, n)
		}
	}
}

func TestMaxDatagramsClips(t *testing.T) {
	info := captureInfo()
	info.Players = longNames(200, 250)
	for _, max := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			r := newTestResponder(t, info, func(o *Options) { o.MaxDatagrams = max })
			got := ask(r, t0, browser, []byte(`\packets\\secure\LRPOPQ`))
			if len(got) != max {
				t.Fatalf("got %d datagrams, want %d", len(got), max)
			}
			kv := checkReply(t, got, 2)
			if kv["validate"] != "hMwdTNWS" {
				t.Errorf("validate %q", kv["validate"])
			}
			if st := r.Stats(); st.Clipped != 1 {
				t.Errorf("Clipped = %d, want 1", st.Clipped)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	r := newTestResponder(t, captureInfo(), nil)
	a := netip.MustParseAddrPort("10.0.0.1:1000")
	aOtherPort := netip.MustParseAddrPort("10.0.0.1:2000")
	b := netip.MustParseAddrPort("10.0.0.2:1000")
	count := func(now time.Time, from netip.AddrPort, n int) int {
		answered := 0
		for range n {
			if len(ask(r, now, from, []byte(`\status\`))) > 0 {
				answered++
			}
		}
		return answered
	}
	steps := []struct {
		name string
		now  time.Time
		from netip.AddrPort
		n    int
		want int
	}{
		{"burst", t0, a, 10, DefaultRateBurst},
		{"same host other port", t0, aOtherPort, 1, 0},
		{"other host unaffected", t0, b, 1, 1},
		{"refill after 1s", t0.Add(time.Second), a, 10, DefaultRatePerSecond},
		{"clock going back refills nothing", t0, a, 1, 0},
		{"full refill caps at burst", t0.Add(time.Hour), a, 20, DefaultRateBurst},
	}
	for _, s := range steps {
		if got := count(s.now, s.from, s.n); got != s.want {
			t.Fatalf("%s: %d answered, want %d", s.name, got, s.want)
		}
	}
	st := r.Stats()
	if st.RateLimited != 2+1+6+1+12 || st.Dropped() != st.RateLimited {
		t.Errorf("stats %+v", st)
	}
	// Limited queries do not use up query ids.
	got := ask(r, t0, netip.MustParseAddrPort("10.0.0.3:1"), []byte(`\basic\`))
	if want := fmt.Sprintf(`\queryid\%d.1`, st.Queries+2); len(got) != 1 || !strings.HasSuffix(got[0], want) {
		t.Errorf("got %q, want suffix %s", got, want)
	}
}

func TestRateLimitTableBounded(t *testing.T) {
	r := newTestResponder(t, captureInfo(), func(o *Options) {
		o.RateLimit = RateLimit{Burst: 1, PerSecond: 0.001, MaxSources: 2}
	})
	ip := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(i)}), 1)
	}
	answered := func(i int) bool { return len(ask(r, t0, ip(i), []byte(`\basic\`))) > 0 }
	if !answered(1) || answered(1) || !answered(2) {
		t.Fatal("burst of 1 not enforced")
	}
	if !answered(3) { // evicts 1, the longest unseen
		t.Fatal("new source refused")
	}
	if !answered(1) { // 1 was forgotten, so it starts afresh (evicting 2)
		t.Fatal("evicted source still limited")
	}
	if answered(3) { // 3 is still tracked and empty
		t.Fatal("tracked source not limited")
	}
	if st := r.Stats(); st.Evicted != 2 || len(r.limit.byAddr) != 2 || r.limit.lru.Len() != 2 {
		t.Errorf("Evicted = %d, table %d/%d", st.Evicted, len(r.limit.byAddr), r.limit.lru.Len())
	}
	// IPv6 sources share a bucket per /64.
	v6a := netip.MustParseAddrPort("[2001:db8::1]:1")
	v6b := netip.MustParseAddrPort("[2001:db8::2]:1")
	if len(ask(r, t0, v6a, []byte(`\basic\`))) == 0 || len(ask(r, t0, v6b, []byte(`\basic\`))) != 0 {
		t.Error("IPv6 /64 not shared")
	}
}

func TestRateLimitDisabled(t *testing.T) {
	r := newTestResponder(t, captureInfo(), func(o *Options) { o.RateLimit.Disabled = true })
	for i := range 100 {
		if len(ask(r, t0, browser, []byte(`\basic\`))) != 1 {
			t.Fatalf("query %d not answered", i)
		}
	}
}

func TestQueryTruncation(t *testing.T) {
	pad := func(n int) string { return `\` + strings.Repeat("x", n-1) }
	status := `\gamename\bcommander`
	tests := []struct {
		name          string
		query         string
		wantStatus    bool
		wantTruncated bool
	}{
		{"word at start of long query", `\status\` + pad(400), true, true},
		{"word ending at byte 255", pad(MaxQuery-len(`\status\`)) + `\status\`, true, false},
		{"word ending at byte 256", pad(MaxQuery-len(`\status\`)+1) + `\status\`, false, true},
		{"word beyond 255", pad(300) + `\status\`, false, true},
		{"word after NUL", `\x` + "\x00" + `\status\`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestResponder(t, captureInfo(), nil)
			got := ask(r, t0, browser, []byte(tt.query))
			if len(got) != 1 {
				t.Fatalf("got %d datagrams", len(got))
			}
			if has := strings.HasPrefix(got[0], status); has != tt.wantStatus {
				t.Errorf("status answered = %v, want %v: %q", has, tt.wantStatus, got[0])
			}
			if tr := r.Stats().Truncated == 1; tr != tt.wantTruncated {
				t.Errorf("truncated = %v, want %v", tr, tt.wantTruncated)
			}
		})
	}
}

func TestNotQuery(t *testing.T) {
	r := newTestResponder(t, captureInfo(), nil)
	for _, q := range [][]byte{nil, {}, []byte("status"), {0x01, 0x02}, {0xff}} {
		if got := ask(r, t0, browser, q); len(got) != 0 {
			t.Errorf("%q answered with %q", q, got)
		}
	}
	r.Handle(t0, browser, []byte(`\status\`), nil) // nil send is harmless
	if st := r.Stats(); st.NotQuery != 5 || st.Queries != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestNewResponderErrors(t *testing.T) {
	if _, err := NewResponder(Options{}); err == nil {
		t.Error("missing Info accepted")
	}
	if _, err := NewResponder(Options{Info: captureInfo, MaxDatagrams: -1}); err == nil {
		t.Error("negative MaxDatagrams accepted")
	}
}

func TestConcurrentHandle(t *testing.T) {
	r := newTestResponder(t, captureInfo(), func(o *Options) { o.RateLimit.Disabled = true })
	const workers, each = 8, 50
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, 0, byte(w)}), 1)
			for range each {
				got := ask(r, t0, from, []byte(`\status\`))
				mu.Lock()
				for _, d := range got {
					seen[d[strings.LastIndex(d, `\`):]] = true
				}
				mu.Unlock()
				_ = r.Stats()
			}
		})
	}
	wg.Wait()
	if len(seen) != workers*each || r.Stats().Queries != workers*each {
		t.Errorf("%d distinct queryids, %d queries", len(seen), r.Stats().Queries)
	}
}

func BenchmarkHandleStatus(b *testing.B) {
	info := captureInfo()
	info.Players = []string{"Kirk", "Picard", "Sisko", "Janeway"}
	info.NumPlayers = 4
	r := newTestResponder(b, info, func(o *Options) { o.RateLimit = RateLimit{Burst: 1 << 30, PerSecond: 1 << 30} })
	q := []byte(`\status\`)
	n := 0
	send := func(d []byte) { n += len(d) }
	b.ReportAllocs()
	for b.Loop() {
		r.Handle(t0, browser, q, send)
	}
	if n == 0 {
		b.Fatal("no reply")
	}
}
