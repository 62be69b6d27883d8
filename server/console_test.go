package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
)

// screenshotPath is where the browser test leaves its picture of the
// console (the README names it; bin/ is not committed).
const screenshotPath = "../bin/console.png"

func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// The web console in a real headless Chromium: the token opens it, the
// player table shows the bots with their scores, the tactical map their
// ships, the history the match before; the kick button removes a bot from
// the server.
func TestConsoleInBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	// One match in the history first.
	a.do(t, func(g *engine.Game) {
		for i, p := range g.Players() {
			g.SetScore(p, 2-i, i, 20000-10000*i)
		}
	})
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/game/restart", testToken, nil, nil); code != 200 {
		t.Fatalf("restart: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.p.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	spawn(t, alice, 1, codec.FirstObjectID(int(alice.Settings().Slot)), [3]float32{-120, 40, 0})
	spawn(t, bob, 5, codec.FirstObjectID(int(bob.Settings().Slot)), [3]float32{150, -60, 10})
	a.do(t, func(g *engine.Game) {
		for i, p := range g.Players() {
			g.SetScore(p, 1+i, 1, 10000+5000*i)
		}
	})

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1100),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	bctx, tcancel := context.WithTimeout(bctx, 90*time.Second)
	defer tcancel()

	err := chromedp.Do(bctx,
		chromedp.Navigate(a.base+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#token`)),
		chromedp.SendKeys(chromedp.CSS(`#token`), testToken),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#players tbody tr[data-player="Alice"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#players tbody tr[data-player="Bob"]`)),
		chromedp.WaitReady(chromedp.CSS(`#tactical[data-ships="2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#matches tbody tr`)),
		chromedp.WaitVisible(chromedp.CSS(`#log li`)),
	)
	if err != nil {
		t.Fatalf("console: %v", err)
	}
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	// One evaluation reads both: the console redraws its tables every
	// refresh, so a node found by one call may be gone by the next.
	shown, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[
		document.querySelector('#players tbody tr[data-player="Bob"] td.score')?.textContent ?? "",
		document.querySelector("#mode")?.textContent ?? ""]`))
	if err != nil {
		t.Fatal(err)
	}
	bobScore, mode := shown[0], shown[1]
	if bobScore != "15000" || mode != "deathmatch" {
		t.Fatalf("page shows Bob's score %q, mode %q", bobScore, mode)
	}
	if err := os.MkdirAll(filepath.Dir(screenshotPath), 0o755); err == nil {
		if err := os.WriteFile(screenshotPath, shot, 0o644); err != nil {
			t.Logf("screenshot not written: %v", err)
		} else {
			t.Logf("screenshot of the console: %s", screenshotPath)
		}
	}

	// Kick Bob from the page.
	if err := chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(`#players tbody tr[data-player="Bob"] button.kick`)),
		chromedp.WaitNotPresent(chromedp.CSS(`#players tbody tr[data-player="Bob"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#players tbody tr[data-player="Alice"]`)),
	); err != nil {
		t.Fatalf("kick from the page: %v", err)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := bob.WaitState(wctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	if st := a.status(t); names(st.Players) != "Alice" {
		t.Fatalf("after the kick: %s", names(st.Players))
	}
}
