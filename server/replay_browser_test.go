package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/stats"
	"github.com/bcserver/bcserver/plugins/store"
)

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// replayShot is where the browser test leaves its picture of the replay
// viewer (the README names it; bin/ is not committed).
const replayShot = "../bin/replay.png"

// The replay viewer in a real headless Chromium: the recording of the
// survival match (replaytest) opens, a click on the marker of the third
// kill seeks there, and the page shows the score table and the kill feed
// of that moment, as the recording has them.
func TestReplayInBrowser(t *testing.T) {
	exe := chromiumPath()
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	arch, err := record.NewArchive(record.ArchiveOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	fs := record.NewFileSink(arch, record.FileSinkOptions{})
	if _, err := replaytest.Play(fs); err != nil {
		t.Fatal(err)
	}
	fs.Close()
	list, err := arch.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("recordings %v, %v", list, err)
	}
	id := list[0].ID
	sum, err := arch.Summary(id)
	if err != nil {
		t.Fatal(err)
	}
	kill := sum.Kills[2] // Alice destroys Bob with phasers
	f, err := arch.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	win, err := record.Frames(f, kill.T, kill.T, 100)
	f.Close()
	if err != nil || len(win.Frames) != 1 {
		t.Fatalf("frame at the kill: %v, %v", win, err)
	}
	want := win.Frames[0].Players

	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	const token = "replay-test-token-0123456789"
	a, err := admin.New(admin.Options{Server: srv, Token: token, Replays: arch.API()})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(a)
	defer hs.Close()

	bctx := browser(t, exe)
	at := strconv.FormatUint(uint64(kill.T), 10)
	err = chromedp.Do(bctx,
		chromedp.Navigate(hs.URL+"/replay.html?id="+id),
		chromedp.WaitVisible(chromedp.CSS(`#token`)),
		chromedp.SendKeys(chromedp.CSS(`#token`), token),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#markers .marker[data-i="2"]`)),
		chromedp.Click(chromedp.CSS(`#markers .marker[data-i="2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-t="`+at+`"]`)),
	)
	if err != nil {
		t.Fatalf("replay page: %v", err)
	}
	// One read of the whole table, so it is of one frame.
	rows, err := chromedp.Run(bctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll("#scoreboard tbody tr")).map((tr) => Array.from(tr.cells).map((td) => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("score table on the page %q, recording %+v", rows, want)
	}
	for i, p := range want {
		r := rows[i]
		if len(r) != 5 || r[0] != p.Name || r[2] != fmt.Sprint(p.Kills) || r[3] != fmt.Sprint(p.Deaths) || r[4] != fmt.Sprint(p.Score) {
			t.Errorf("row %d on the page %q; recording %+v", i, r, p)
		}
	}
	if len(want) != 2 || want[0].Name != "Alice" || want[0].Kills != 2 {
		t.Errorf("the table at the kill: %+v; want Alice first with 2 kills", want)
	}
	n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#killfeed li").length`))
	if err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#killfeed li:first-child`)))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || first != fmt.Sprintf("%d:%02d.%d", kill.T/60000, kill.T/1000%60, kill.T%1000/100)+"Alice ▸ Bob (phaser)" {
		t.Errorf("kill feed: %d lines, newest %q", n, first)
	}
	// The outcome the mission gave at END_GAME, in the header.
	outcome, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#r-outcome`)))
	if err != nil || outcome != "every ship lost on wave 2" {
		t.Errorf("outcome on the page %q (%v)", outcome, err)
	}
	// The picture for the README: the moment the raider goes.
	if err := chromedp.Do(bctx,
		chromedp.SetValue(chromedp.CSS(`#speed`), "8"),
		chromedp.Click(chromedp.CSS(`#markers .marker[data-i="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-t="`+strconv.FormatUint(uint64(sum.Kills[1].T), 10)+`"]`)),
	); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(replayShot), 0o755); err == nil {
		if err := os.WriteFile(replayShot, shot, 0o644); err != nil {
			t.Logf("screenshot not written: %v", err)
		} else {
			t.Logf("screenshot of the replay viewer: %s", replayShot)
		}
	}
}

// browser starts a headless Chromium for the test.
func browser(t *testing.T, exe string) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	bctx, tcancel := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(tcancel)
	return bctx
}

// The leaderboard page lists the players of the recorded match from the
// career statistics, in the order asked for.
func TestLeaderboardInBrowser(t *testing.T) {
	exe := chromiumPath()
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "bcserver.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := replaytest.Play(stats.New(stats.Options{Store: st}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	const token = "leaderboard-test-token-0123456789"
	a, err := admin.New(admin.Options{Server: srv, Token: token, Career: stats.API(st)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(a)
	defer hs.Close()
	bctx := browser(t, exe)
	if err := chromedp.Do(bctx,
		chromedp.Navigate(hs.URL+"/leaderboard.html"),
		chromedp.WaitVisible(chromedp.CSS(`#token`)),
		chromedp.SendKeys(chromedp.CSS(`#token`), token),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#leaders tbody tr[data-player="bob"]`)),
	); err != nil {
		t.Fatalf("leaderboard page: %v", err)
	}
	rows, err := chromedp.Run(bctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll("#leaders tbody tr")).map((tr) => Array.from(tr.cells).map((td) => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	var alice replaytest.Line
	for _, l := range m.Lines {
		if l.Name == "Alice" {
			alice = l
		}
	}
	if len(rows) != 2 || rows[0][1] != "Alice" || rows[0][3] != fmt.Sprint(alice.Kills) || rows[0][6] != fmt.Sprint(alice.Score) || rows[0][11] != "Sovereign" || rows[1][11] != "Akira" {
		t.Fatalf("leaderboard rows %q; Alice %+v", rows, alice)
	}
}
