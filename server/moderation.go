package server

import (
	"context"
	"time"

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
