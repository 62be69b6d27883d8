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
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
)

const greetingMission = `local stock = require("stock")
local mode = stock.mode { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "MINE" }
function mode.victim(ship) return ship.is_player_ship and ship.owner_id or nil end
function mode.kill(K, V, kills) return kills + 1 end
function mode.check_limits() end
stock.install(mode)
bc.on("player_in_game", function(ev) bc.send(ev.player.id, bc.msg.chat { sender = bc.host_id, text = "hello" }) end)
`

// One game's failure stays in that game (issue 21): of three games in one
// process, the one whose mission has a syntax error runs without a
// mission (nobody can join: the stock refusal; /readyz, the status and the
// log say why with file:line) while the other two start and play; fixing
// the file in the watched folder starts it, and then players get in.
func TestBrokenMissionStaysInItsGame(t *testing.T) {
	dir := t.TempDir()
	for mode, src := range map[string]string{"good": greetingMission, "broken": "bc.on(\"player_in_game\", function(ev)\n  oops oops\nend)\n"} {
		if err := os.MkdirAll(filepath.Join(dir, mode), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, mode, "main.lua"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := serveAdmin(t, func(uc *Config) {
		uc.Game.MissionsDir = dir
		uc.Game.Mode = "good"
		uc.Games = []GameTable{{Port: intp(0)}, {Port: intp(0), Mode: strp("broken")}, {Port: intp(0)}}
	})
	if len(a.s.games) != 3 {
		t.Fatalf("%d games", len(a.s.games))
	}
	broken := a.s.games[1]
	hello := codec.Chat{Sender: 1, Text: []byte("hello")}.AppendTo(nil)
	for _, i := range []int{0, 2} {
		r := &running{srv: a.s.games[i].srv, logs: a.logs}
		b := r.join(t, "P"+a.s.games[i].label)
		await(t, b, "game "+a.s.games[i].label+"'s mission", hello, 5*time.Second)
		b.Close()
	}
	rb := &running{srv: broken.srv, logs: a.logs}
	if b := rb.tryJoin(t, "Early"); b.State() != bot.Closed || b.BootReason() != bcnet.BootRefused {
		t.Fatalf("joined the game without a mission: %s, boot %d", b.State(), b.BootReason())
	}
	if !strings.Contains(a.logs.String(), "main.lua:2") {
		t.Fatalf("the log does not say where:\n%s", a.logs.String())
	}
	var st admin.Status
	if code := a.call(t, "GET", "/games/"+broken.label+"/api/v1/status", testToken, nil, &st); code != 200 || !strings.Contains(st.Mission.Error, "main.lua:2") || st.Server.Accepting {
		t.Fatalf("broken game's status: %d %+v", code, st.Mission)
	}
	get := func(path string) (int, string) {
		resp, err := http.Get(a.base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/readyz"); code != 200 || !strings.Contains(body, "game "+broken.label+": not taking players: ") || strings.Count(body, ": ready") != 2 {
		t.Fatalf("/readyz: %d %q", code, body)
	}
	if code, _ := get("/games/" + broken.label + "/readyz"); code != 503 {
		t.Fatalf("the broken game's /readyz: %d", code)
	}
	// A switch to the broken mode fails in its own game, which plays on.
	first := a.s.games[0]
	if code := a.call(t, "POST", "/games/"+first.label+"/api/v1/mission/set", testToken, map[string]any{"mode": "broken", "now": true}, nil); code != 422 {
		t.Fatalf("switch to a broken mode: %d", code)
	}
	r0 := &running{srv: first.srv, logs: a.logs}
	await(t, r0.join(t, "After"), "game one's mission after the failed switch", hello, 5*time.Second)
	// The fix lands in the watched folder; the game starts its mission.
	if err := os.WriteFile(filepath.Join(dir, "broken", "main.lua"), []byte(greetingMission), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	why := "?"
	for i := 0; i < 100000 && why != "" && time.Now().Before(deadline); i++ {
		rb.do(t, func(g *engine.Game) { why = g.Unavailable() })
	}
	if why != "" {
		t.Fatalf("the fixed mission did not start: %s", why)
	}
	b := rb.join(t, "Late")
	await(t, b, "the fixed mission", hello, 5*time.Second)
	if code, body := get("/readyz"); code != 200 || strings.Count(body, ": ready") != 3 {
		t.Fatalf("/readyz after the fix: %d %q", code, body)
	}
}
