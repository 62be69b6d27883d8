package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	pnames "github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/moderation"
)

// modAPI is the admin API's view of the moderation store (the plugins
// meet here, not in each other's packages).
type modAPI struct {
	st  *moderation.Store
	now func() time.Time
}

func (m modAPI) Bans(ctx context.Context, all bool) (any, error) {
	bs, err := m.st.Bans(ctx, all)
	if bs == nil {
		bs = []moderation.Ban{}
	}
	return bs, err
}

func (m modAPI) Ban(ctx context.Context, target, reason, by string, d time.Duration) (any, error) {
	return m.st.AddBan(ctx, target, reason, by, d, m.now())
}

func (m modAPI) Lift(ctx context.Context, id int64) (bool, error) { return m.st.Lift(ctx, id, m.now()) }

func (m modAPI) Records(ctx context.Context, name string) (any, error) {
	rs, err := m.st.Records(ctx, name)
	if rs == nil {
		rs = []moderation.Record{}
	}
	return rs, err
}

func (m modAPI) AddRecord(ctx context.Context, name, kind, text, by string) (any, error) {
	return m.st.AddRecord(ctx, name, kind, text, by, m.now())
}

func (m modAPI) AuditLog(ctx context.Context, limit int) (any, error) {
	es, err := m.st.AuditLog(ctx, limit)
	if es == nil {
		es = []moderation.AuditEntry{}
	}
	return es, err
}

func (m modAPI) Audit(e admin.AuditRecord) {
	m.st.Go(func() {
		_ = m.st.Audit(context.Background(), moderation.AuditEntry{At: e.At, By: e.By, Role: e.Role, Action: e.Action, Args: e.Args, Status: e.Status})
	})
}

// accountsAPI is the admin API's view of the accounts.
type accountsAPI struct{ reg *accounts.Registry }

func (a accountsAPI) SetPassword(ctx context.Context, name, password string) error {
	clean, changed := pnames.Clean(name)
	if changed || clean == "" || clean != name {
		return errors.New("name: not a player name (control, line-break or bidi characters, or spaces at the ends)")
	}
	done := make(chan error, 1)
	if err := a.reg.SetPassword(name, []byte(password), time.Now(), func(err error) { done <- err }); err != nil {
		return fmt.Errorf("the accounts are busy: %w", err)
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
