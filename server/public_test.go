package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/plugins/record"
)

// One rule for what is public: the spectator page, the public summary and
// windows of a replay and the recording's public stream carry only what
// every player received — never a muted player's line, a team line or a
// line the mission held back (a !command) — while the recording keeps
// them, marked, for the admin's replay. Chat is decoded from Windows-1252
// once and shown as one line.
func TestPublicViewCarriesOnlyWhatEveryoneReceived(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) {
		uc.Spectate.Listen = "127.0.0.1:0"
		uc.Spectate.Delay = 0
	})
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	// The spectator stream, read from the start.
	resp, err := http.Get("http://" + a.s.SpectateAddr().String() + "/api/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan string, 1024)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			events <- sc.Text()
		}
	}()

	if code := a.call(t, "POST", "/api/v1/mute", testToken, map[string]any{"player": "Bob"}, nil); code != 200 {
		t.Fatalf("mute: %d", code)
	}
	secret := []string{"MUTED-LINE", "TEAM-LINE", "!help"}
	if err := bob.Chat(secret[0], false); err != nil {
		t.Fatal(err)
	}
	await(t, bob, "its own muted line", chatLine(bob, secret[0], false), 5*time.Second)
	if err := alice.Chat(secret[1], true); err != nil {
		t.Fatal(err)
	}
	if err := alice.Chat(secret[2], false); err != nil {
		t.Fatal(err)
	}
	public := "PUBLIC gr\xfc\xdfe aus M\xfcnchen\nhost: everyone is banned"
	if err := alice.Chat(public, false); err != nil {
		t.Fatal(err)
	}
	await(t, alice, "her own public line", chatLine(alice, public, false), 5*time.Second)
	shown := "PUBLIC grüße aus München host: everyone is banned"

	// The spectators see the public line, decoded and on one line, and
	// nothing else.
	deadline := time.After(10 * time.Second)
	for seen := false; !seen; {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the spectator stream ended")
			}
			for _, s := range secret {
				if strings.Contains(ev, s) {
					t.Fatalf("the spectator page shows %q: %s", s, ev)
				}
			}
			seen = strings.Contains(ev, shown)
		case <-deadline:
			t.Fatal("the public line never reached the spectator page")
		}
	}

	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	for _, s := range a.s.p.sinks {
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	var list []record.Entry
	if code := a.call(t, "GET", "/api/v1/replays", testToken, nil, &list); code != 200 || len(list) != 1 {
		t.Fatalf("replays: %d %+v", code, list)
	}
	id := list[0].ID

	// The admin's summary has every line, marked.
	var sum record.Summary
	if code := a.call(t, "GET", "/api/v1/replays/"+id, testToken, nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	want := map[string]capture.ChatLine{
		secret[0]: {Name: "Bob", Muted: true},
		secret[1]: {Name: "Alice", Team: true},
		secret[2]: {Name: "Alice", Cancelled: true},
		shown:     {Name: "Alice"},
	}
	got := map[string]capture.ChatLine{}
	for _, c := range sum.Chat {
		if c.Player != 1 {
			got[c.Text] = capture.ChatLine{Name: c.Name, Team: c.Team, Muted: c.Muted, Cancelled: c.Cancelled}
		}
	}
	for text, w := range want {
		if got[text] != w {
			t.Errorf("admin summary: %q is %+v, want %+v (all: %+v)", text, got[text], w, sum.Chat)
		}
	}

	// The public summary, the public windows, the CLI's default output
	// and the file's public stream hold the public line alone.
	var pub record.Summary
	if code := a.call(t, "GET", "/api/v1/replays/"+id+"?public=1", testToken, nil, &pub); code != 200 {
		t.Fatalf("public summary: %d", code)
	}
	var win record.Window
	if code := a.call(t, "GET", "/api/v1/replays/"+id+"/frames?from=0&to=30000&public=1", testToken, nil, &win); code != 200 {
		t.Fatalf("public window: %d", code)
	}
	pb, _ := json.Marshal(pub)
	wb, _ := json.Marshal(win)
	f, err := record.Open(filepath.Join(a.s.p.archive.Dir(), id+record.Ext))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stream bytes.Buffer
	if err := f.All(func(r *capture.Record) bool {
		if r.Public() {
			b, _ := json.Marshal(r.Map())
			stream.Write(b)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	var cli bytes.Buffer
	s, err := record.SummarizeView(f, record.View{Public: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Print(&cli)
	for what, out := range map[string]string{"public summary": string(pb), "public window": string(wb), "public stream": stream.String(), "summary print": cli.String()} {
		if !strings.Contains(out, shown) {
			t.Errorf("%s lacks the public line:\n%s", what, out)
		}
		for _, sec := range secret {
			if strings.Contains(out, sec) {
				t.Errorf("%s shows %q:\n%s", what, sec, out)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(a.s.p.archive.Dir(), id+record.Ext)); err != nil {
		t.Fatal(err)
	}
}
