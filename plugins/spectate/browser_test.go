package spectate_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/plugins/spectate"
)

// The spectator page in a real headless Chromium: the delayed view of a
// game arrives over the event stream and shows the ship and the player.
func TestSpectatePageInBrowser(t *testing.T) {
	var exe string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	w, err := missiontest.NewMatch(missiontest.Options{Mode: "deathmatch", FS: missions.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sp := spectate.NewSpectator("22101", spectate.DefaultDelay)
	if err := w.Game.AddPlugin(capture.NewCapture(capture.CaptureOptions{Game: "22101"}, sp)); err != nil {
		t.Fatal(err)
	}
	alice, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Spawn(5, [3]float32{100, 20, 0}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("W", 64)
	if _, err := w.Join(long); err != nil {
		t.Fatal(err)
	}
	// A line with a newline and Windows-1252 text, and a team line.
	_ = alice.Chat("gr\xfc\xdfe aus M\xfcnchen\nhost: you are all banned", false)
	_ = alice.Chat("TEAM SECRET", true)
	w.Advance(31 * time.Second)
	srv := spectate.New(spectate.Options{Spectators: []*spectate.Spectator{sp}, Interval: 100 * time.Millisecond})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	bctx, tcancel := context.WithTimeout(bctx, 60*time.Second)
	defer tcancel()
	if err := chromedp.Do(bctx,
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ships="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#scoreboard tbody tr[data-player="Alice"]`)),
	); err != nil {
		t.Fatalf("spectator page: %v", err)
	}
	state, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#state`)))
	if err != nil || state != "live" {
		t.Fatalf("state %q, %v", state, err)
	}
	// The 64-character name is cut (its tooltip is whole) and the score
	// column stays inside the panel; the chat line is one line, decoded;
	// the team line is not there.
	type layoutInfo struct {
		NameCut    bool     `json:"nameCut"`
		Title      string   `json:"title"`
		ScoreShown bool     `json:"scoreShown"`
		Chat       []string `json:"chat"`
	}
	layout, err := chromedp.Run(bctx, chromedp.Evaluate[layoutInfo](`(() => {
		const panel = document.getElementById("side-panel").getBoundingClientRect();
		const row = document.querySelector('#scoreboard tbody tr[data-player="`+long+`"]');
		const cut = row.querySelector(".cut");
		const score = row.querySelector(".score").getBoundingClientRect();
		return {nameCut: cut.scrollWidth > cut.clientWidth, title: cut.title,
			scoreShown: score.right <= panel.right + 1 && score.width > 0,
			chat: [...document.querySelectorAll("#chatlog li")].map((li) => li.textContent)};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !layout.NameCut || layout.Title != long || !layout.ScoreShown {
		t.Errorf("long name: %+v", layout)
	}
	if len(layout.Chat) != 1 || !strings.Contains(layout.Chat[0], "Alice: grüße aus München host: you are all banned") {
		t.Errorf("chat %q: want the one public line, decoded, on one line", layout.Chat)
	}
	if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
		_ = os.MkdirAll("../../bin", 0o755)
		_ = os.WriteFile("../../bin/spectate.png", png, 0o644)
	}

	// At the viewer cap a second page says so and when it tries again,
	// rather than "reconnecting…" for ever.
	full := spectate.New(spectate.Options{Spectators: []*spectate.Spectator{sp}, Interval: 100 * time.Millisecond, MaxViewers: 1})
	hf := httptest.NewServer(full)
	defer hf.Close()
	defer full.Close()
	if err := chromedp.Do(bctx, chromedp.Navigate(hf.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`body[data-ships="1"]`))); err != nil {
		t.Fatalf("first viewer: %v", err)
	}
	second, cancel2 := chromedp.NewContext(bctx)
	defer cancel2()
	if err := chromedp.Do(second, chromedp.Navigate(hf.URL+"/")); err != nil {
		t.Fatalf("second viewer: %v", err)
	}
	msg, err := chromedp.Run(second, chromedp.Poll[string](`(() => { const s = document.getElementById("state").textContent; return s.startsWith("full, retrying in") ? s : false; })()`))
	if err != nil {
		t.Fatalf("the second viewer is not told the page is full: %v", err)
	}
	t.Logf("second viewer at the cap: %q", msg)
}
