package server

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/internal/bot"
)

func chatLine(b *bot.Bot, text string, team bool) []byte {
	return codec.Chat{Sender: int32(b.ID()), Team: team, Text: []byte(text)}.AppendTo(nil)
}

// A muted player's chat reaches nobody else; it still comes back to the
// player itself, as every line does from a stock host, so nothing tells
// it apart from a normal one. Unmuting lets it through again; the console
// log has every line with the player's id, team chat marked.
func TestMuteHoldsBackChat(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	mute := func(on bool) {
		t.Helper()
		if code := a.call(t, "POST", "/api/v1/mute", testToken, map[string]any{"player": "Bob", "mute": on}, nil); code != 200 {
			t.Fatalf("mute %v: %d", on, code)
		}
	}
	mute(true)
	if st := a.status(t); !st.Players[1].Muted {
		t.Fatalf("status does not show the mute: %+v", st.Players)
	}
	if err := bob.Chat("spam", false); err != nil {
		t.Fatal(err)
	}
	await(t, bob, "its own muted line", chatLine(bob, "spam", false), 5*time.Second)
	if err := alice.Chat("hi", false); err != nil {
		t.Fatal(err)
	}
	// Alice's own line comes back after Bob's was handled: had Bob's
	// reached her, it would be in her inbox before.
	deadline := time.After(5 * time.Second)
	for done := false; !done; {
		select {
		case m := <-alice.Inbox():
			if bytes.Equal(m.Payload, chatLine(bob, "spam", false)) {
				t.Fatal("a muted player's chat reached Alice")
			}
			done = bytes.Equal(m.Payload, chatLine(alice, "hi", false))
		case <-deadline:
			t.Fatal("Alice's own line never came back")
		}
	}
	mute(false)
	// Team chat (which reaches nobody here: no one has a ship) is logged
	// too; the plain line after it reaches Alice again.
	if err := bob.Chat("sorry", true); err != nil {
		t.Fatal(err)
	}
	if err := bob.Chat("back", false); err != nil {
		t.Fatal(err)
	}
	await(t, alice, "Bob's line after the unmute", chatLine(bob, "back", false), 5*time.Second)
	logs := a.logs.String()
	if !strings.Contains(logs, `msg=chat component=chat player=3 name=Bob team=false muted=true text=spam`) ||
		!strings.Contains(logs, `msg="team chat" component=chat player=3 name=Bob team=true muted=false text=sorry`) {
		t.Fatalf("chat not in the log:\n%s", logs)
	}
}

// The console of the second game in a real Chromium (issue 21): the page
// under /games/<label>/ shows that game, with the picker naming both; the
// login overlay hides the console; a 64-character name is cut and keeps
// the kick, ban and mute buttons inside the players panel; a match of
// 100 players is one compact history row.
func TestSecondGameConsoleInBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	a := serveAdmin(t, func(uc *Config) {
		uc.Games = []GameTable{{Port: intp(0), Name: strp("One")}, {Port: intp(0), Name: strp("Two")}}
	})
	two := a.s.games[1]
	r2 := &running{srv: two.srv, logs: a.logs}
	long := strings.Repeat("W", 64)
	r2.join(t, long)
	bob := r2.join(t, "Bob")
	var players []history.MatchPlayer
	for i := 0; i < 100; i++ {
		players = append(players, history.MatchPlayer{Identity: fmt.Sprint("p", i), Name: fmt.Sprintf("Player number %03d with a long name", i), Score: 1000 * i})
	}
	now := time.Now()
	a.s.p.store.RecordMatch(history.Match{Mode: "deathmatch", Map: "Multi1", Started: now.Add(-time.Minute), Ended: now, Reason: "time_up", Players: players})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.p.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	bctx, tcancel := context.WithTimeout(bctx, 90*time.Second)
	defer tcancel()

	if err := chromedp.Do(bctx,
		chromedp.Navigate(a.base+"/games/"+two.label+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#token`)),
	); err != nil {
		t.Fatalf("login page: %v", err)
	}
	consoleDisplay, err := chromedp.Run(bctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("console")).display`))
	if err != nil || consoleDisplay != "none" {
		t.Fatalf("the console shows through the login overlay (display %q, %v)", consoleDisplay, err)
	}
	row := `#players tbody tr[data-player="` + long + `"]`
	if err := chromedp.Do(bctx,
		chromedp.SendKeys(chromedp.CSS(`#token`), testToken),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(row)),
		chromedp.WaitVisible(chromedp.CSS(`#players tbody tr[data-player="Bob"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#game-picker`)),
		chromedp.WaitVisible(chromedp.CSS(`#matches tbody td.players`)),
	); err != nil {
		t.Fatalf("second game's console: %v", err)
	}
	text := func(sel string) string {
		t.Helper()
		// By evaluation, not by node: the console redraws its tables
		// every refresh, and a node found a moment ago may be gone.
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(sel)+`)?.textContent ?? ""`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	picked, err := chromedp.Run(bctx, chromedp.Value(chromedp.CSS(`#game-picker`)))
	if err != nil {
		t.Fatal(err)
	}
	options, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#game-picker option").length`))
	if err != nil {
		t.Fatal(err)
	}
	if serverName := text(`#server-name`); serverName != "Two" || picked != two.label || options != 2 {
		t.Fatalf("page shows %q, picker %q of %d", serverName, picked, options)
	}
	if rowText := text(`#matches tbody tr`); !strings.Contains(rowText, "+97 more") || !strings.Contains(rowText, "Player number 099") {
		t.Fatalf("history row: %q", rowText)
	}
	type layoutInfo struct {
		ButtonsInside bool    `json:"buttonsInside"`
		NameCut       bool    `json:"nameCut"`
		Title         string  `json:"title"`
		RowHeight     float64 `json:"rowHeight"`
	}
	layout, err := chromedp.Run(bctx, chromedp.Evaluate[layoutInfo](`(() => {
		const panel = document.getElementById("players-panel").getBoundingClientRect();
		const row = document.querySelector('`+row+`');
		const inside = [...row.querySelectorAll("button")].every((b) => {
			const r = b.getBoundingClientRect();
			return r.width > 0 && r.left >= panel.left && r.right <= panel.right;
		});
		const cut = row.querySelector("td.name .cut");
		const match = document.querySelector("#matches tbody tr").getBoundingClientRect();
		const hist = document.getElementById("history-panel").getBoundingClientRect();
		const cell = document.querySelector("#matches tbody td.players").getBoundingClientRect();
		return { buttonsInside: inside && row.querySelectorAll("button").length === 3 && cell.right <= hist.right, nameCut: cut.scrollWidth > cut.clientWidth,
			title: cut.title, rowHeight: match.height };
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100)); err == nil {
		if os.MkdirAll(filepath.Dir(screenshotPath), 0o755) == nil {
			_ = os.WriteFile(filepath.Join(filepath.Dir(screenshotPath), "console-games.png"), shot, 0o644)
		}
	}
	if !layout.ButtonsInside || !layout.NameCut || layout.Title != long || layout.RowHeight > 160 {
		t.Fatalf("layout %+v", layout)
	}
	// Chat reaches the log; the mute button mutes.
	if err := bob.Chat("gg all", false); err != nil {
		t.Fatal(err)
	}
	// The log re-renders the players table as chat arrives, so a node
	// looked up by CDP can be gone by the time it is clicked; the click
	// runs inside the page instead, where the lookup and the click happen
	// in one task.
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#log li.chat`))); err != nil {
		t.Fatalf("chat: %v", err)
	}
	clicked, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => {
		const b = document.querySelector('#players tbody tr[data-player="Bob"] button.mute');
		if (!b) return false;
		b.click();
		return true;
	})()`))
	if err != nil || !clicked {
		t.Fatalf("mute button: clicked=%v err=%v", clicked, err)
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#players tbody tr[data-player="Bob"] td.name.muted`))); err != nil {
		t.Fatalf("mute: %v", err)
	}
	if logText := text(`#log`); !strings.Contains(logText, "gg all") || strings.Contains(logText, "game="+a.s.games[0].label) {
		t.Fatalf("log of the second game:\n%s", text(`#log`))
	}
}
