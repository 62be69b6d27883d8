package server

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/plugins/admin"
)

// A mode suspended for its errors is visible: the status says so and why
// (and not "loaded"), /readyz answers 503 naming it; its players are told
// "paused" when they use one of its commands, which is not relayed to the
// others as chat.
func TestSuspendedModeIsVisible(t *testing.T) {
	dir := copyMissions(t)
	if err := os.MkdirAll(filepath.Join(dir, "fragile"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `
bc.on("mission_load", function() bc.set_mission { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "DM", system = "Multi1" } end)
bc.on("mission_start", function() bc.set_accepting(true) end)
bc.command("score", function() return "no score yet" end)
bc.on("chat", function(ev) if ev.text == "boom" then error("boom") end end)
`
	if err := os.WriteFile(filepath.Join(dir, "fragile", "main.lua"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	a := serveAdmin(t, func(uc *Config) {
		uc.Game.MissionsDir, uc.Game.Mode = dir, "fragile"
		uc.Lua.MaxErrors = 2
	})
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	for range 2 {
		if err := alice.Chat("boom", false); err != nil {
			t.Fatal(err)
		}
	}
	await(t, bob, "the suspension notice", codec.Chat{Sender: 1, Text: []byte("[server] The game mode stopped after errors. Play on: scores are not kept until the host fixes it.")}.AppendTo(nil), 10*time.Second)
	var st admin.Status
	if code := a.call(t, "GET", "/api/v1/status", testToken, nil, &st); code != 200 || st.Mission.Loaded || st.Mission.Suspended != "suspended after 2 errors within 1m0s" {
		t.Fatalf("status %d: %+v", code, st.Mission)
	}
	resp, err := http.Get(a.base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(body), "game mode suspended: suspended after 2 errors") {
		t.Fatalf("/readyz %d %q", resp.StatusCode, body)
	}
	if err := alice.Chat("!score", false); err != nil {
		t.Fatal(err)
	}
	if err := alice.Chat("after", false); err != nil {
		t.Fatal(err)
	}
	await(t, alice, "the paused answer", codec.Chat{Sender: 1, Text: []byte("The game mode is paused after errors; its commands are back when the host fixes it.")}.AppendTo(nil), 10*time.Second)
	// Bob sees Alice's next line, and never her command.
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-bob.Inbox():
			if c, err := codec.DecodeChat(m.Payload); err == nil && m.Payload[0] == codec.OpChat && c.Sender == int32(alice.ID()) {
				if string(c.Text) == "!score" {
					t.Fatal("the command was relayed to everyone")
				}
				if string(c.Text) == "after" {
					return
				}
			}
		case <-deadline:
			t.Fatal("Bob never saw Alice's line after the command")
		}
	}
}

// GET /games, as the README shows it, works on a server of one game too:
// it lists that game, whose API is also under /games/<label>/.
func TestGamesListedOnAOneGameServer(t *testing.T) {
	a := serveAdmin(t, nil)
	var list []admin.GameInfo
	if code := a.call(t, "GET", "/games", testToken, nil, &list); code != 200 || len(list) != 1 || list[0].Mode != "deathmatch" || !list[0].Running {
		t.Fatalf("GET /games: %d %+v", code, list)
	}
	var st admin.Status
	if code := a.call(t, "GET", list[0].API+"status", testToken, nil, &st); code != 200 || st.Mission.Mode != "deathmatch" {
		t.Fatalf("GET %sstatus: %d %+v", list[0].API, code, st.Mission)
	}
	if code := a.call(t, "GET", "/games", "wrong-token-0123456789", nil, nil); code != 401 {
		t.Fatalf("GET /games with a wrong token: %d", code)
	}
	resp, err := http.Get(a.base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ready\n" {
		t.Fatalf("/readyz of one game: %d %q", resp.StatusCode, body)
	}
}
