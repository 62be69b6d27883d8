package admin_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/admin"
)

// fakeModeration keeps bans and records in memory, as the moderation
// store answers them.
type fakeModeration struct {
	mu      sync.Mutex
	bans    []map[string]any
	records []map[string]any
	audit   []admin.AuditRecord
}

func (f *fakeModeration) Bans(context.Context, bool) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any{}, f.bans...), nil
}

func (f *fakeModeration) Ban(_ context.Context, target, reason, by string, d time.Duration) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := map[string]any{"id": len(f.bans) + 1, "kind": "name", "target": strings.TrimPrefix(target, "name:"), "reason": reason, "by": by,
		"created": time.Unix(1767225600, 0).UTC(), "expires": time.Unix(1767225600, 0).Add(d).UTC()}
	f.bans = append([]map[string]any{b}, f.bans...)
	return b, nil
}

func (f *fakeModeration) Lift(context.Context, int64) (bool, error) { return true, nil }

func (f *fakeModeration) Records(context.Context, string) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any{}, f.records...), nil
}

func (f *fakeModeration) AddRecord(_ context.Context, name, kind, text, by string) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := map[string]any{"name": name, "kind": kind, "text": text, "by": by, "created": time.Unix(1767225600, 0).UTC()}
	f.records = append([]map[string]any{r}, f.records...)
	return r, nil
}

func (f *fakeModeration) AuditLog(context.Context, int) (any, error) { return []any{}, nil }

func (f *fakeModeration) Audit(e admin.AuditRecord) {
	f.mu.Lock()
	f.audit = append(f.audit, e)
	f.mu.Unlock()
}

// The moderation page in a real headless Chromium with a moderator's
// token: a hostile reason shows as text (no element is made of it), a
// timed ban given through the form appears with its expiry, a warning is
// kept, and the audit log — the admins' — says so instead of showing.
func TestModerationInBrowser(t *testing.T) {
	exe := chromiumPath()
	if exe == "" {
		t.Skip("no chromium binary installed (apt-get install chromium)")
	}
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	const modToken = "moderator-token-0123456789"
	mod := &fakeModeration{}
	hostile := `<img src=x onerror="document.body.dataset.pwned=1">`
	_, _ = mod.Ban(context.Background(), "name:Griefer", hostile, "token:admin", 48*time.Hour)
	a, err := admin.New(admin.Options{Server: srv, Token: "admin-token-0123456789abc", Moderation: mod,
		Tokens: []admin.Token{{Name: "riker", Token: modToken, Role: admin.RoleModerator}}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(a)
	defer hs.Close()
	bctx := browser(t, exe)
	err = chromedp.Do(bctx,
		chromedp.Navigate(hs.URL+"/moderation.html"),
		chromedp.WaitVisible(chromedp.CSS(`#token`)),
		chromedp.SendKeys(chromedp.CSS(`#token`), modToken),
		chromedp.Click(chromedp.CSS(`#login-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#bans tbody tr`)),
		chromedp.SendKeys(chromedp.CSS(`#ban-target`), "name:Spammer"),
		chromedp.SendKeys(chromedp.CSS(`#ban-duration`), "2h"),
		chromedp.SendKeys(chromedp.CSS(`#ban-reason`), "chat spam"),
		chromedp.Click(chromedp.CSS(`#ban-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#bans tbody tr:nth-child(2)`)),
		chromedp.SendKeys(chromedp.CSS(`#rec-name`), "Griefer"),
		chromedp.SendKeys(chromedp.CSS(`#rec-text`), "rammed the spawn"),
		chromedp.Click(chromedp.CSS(`#rec-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#records tbody tr`)),
	)
	if err != nil {
		t.Fatalf("moderation page: %v", err)
	}
	rows, err := chromedp.Run(bctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll("#bans tbody tr")).map((tr) => Array.from(tr.cells).map((td) => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0][1] != "Spammer" || rows[0][5] == "permanent" || rows[1][2] != hostile {
		t.Fatalf("bans on the page %q", rows)
	}
	pwned, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.body.dataset.pwned === "1" || document.querySelector("#bans img") !== null`))
	if err != nil || pwned {
		t.Fatalf("the hostile reason became markup (%v)", err)
	}
	auditErr, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#audit-error`)))
	if err != nil || !strings.Contains(auditErr, "needs admin") {
		t.Fatalf("audit for a moderator: %q %v", auditErr, err)
	}
	mod.mu.Lock()
	defer mod.mu.Unlock()
	if len(mod.records) != 1 || mod.records[0]["by"] != "token:riker" {
		t.Fatalf("records %v", mod.records)
	}
}
