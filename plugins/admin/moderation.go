package admin

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// Moderation is what the API needs of the moderation store
// (plugins/moderation, wired by the server): timed bans, warnings and
// notes, the audit log. Its methods run on the HTTP goroutine.
type Moderation interface {
	Bans(ctx context.Context, all bool) (any, error)
	Ban(ctx context.Context, target, reason, by string, d time.Duration) (any, error)
	Lift(ctx context.Context, id int64) (bool, error)
	Records(ctx context.Context, name string) (any, error)
	AddRecord(ctx context.Context, name, kind, text, by string) (any, error)
	AuditLog(ctx context.Context, limit int) (any, error)
	// Audit appends to the audit log without waiting.
	Audit(e AuditRecord)
}

// AuditRecord is one line of the audit log.
type AuditRecord struct {
	At     time.Time
	By     string
	Role   string
	Action string
	Args   string
	Status int
}

// maxModeratorBan is the longest timed ban a moderator's token may give.
const maxModeratorBan = 30 * 24 * time.Hour

func (a *Admin) moderationRoutes(api func(string, http.HandlerFunc), act func(string, string, func(*http.Request) (any, error))) {
	api("GET /api/v1/moderation/bans", a.modBans)
	api("GET /api/v1/moderation/records", a.modRecords)
	act("POST /api/v1/moderation/ban", "timed_ban", a.modBan)
	act("POST /api/v1/moderation/lift", "lift_ban", a.modLift)
	act("POST /api/v1/moderation/record", "record", a.modRecord)
	act("POST /api/v1/accounts/password", "account_password", a.accountPassword)
	a.mux.Handle("GET /api/v1/audit", a.authRole(RoleAdmin, a.auditLog))
}

func (a *Admin) modOff(w http.ResponseWriter) bool {
	if a.opts.Moderation == nil {
		writeError(w, http.StatusNotImplemented, "no moderation records: set [store] path")
		return true
	}
	return false
}

func (a *Admin) modBans(w http.ResponseWriter, r *http.Request) {
	if a.modOff(w) {
		return
	}
	v, err := a.opts.Moderation.Bans(r.Context(), r.URL.Query().Get("all") == "1")
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"bans": v})
}

func (a *Admin) modRecords(w http.ResponseWriter, r *http.Request) {
	if a.modOff(w) {
		return
	}
	v, err := a.opts.Moderation.Records(r.Context(), r.URL.Query().Get("name"))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"records": v})
}

func (a *Admin) auditLog(w http.ResponseWriter, r *http.Request) {
	if a.modOff(w) {
		return
	}
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if n <= 0 {
		n = 100
	}
	v, err := a.opts.Moderation.AuditLog(r.Context(), n)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"audit": v})
}

type timedBanReq struct {
	Target   string `json:"target"`   // name:<player>, account:<player> or an IPv4 address
	Duration string `json:"duration"` // a Go duration ("2h", "168h"); "" = permanent (admins only)
	Reason   string `json:"reason"`
}

func (a *Admin) modBan(r *http.Request) (any, error) {
	if a.opts.Moderation == nil {
		return nil, errorf(http.StatusNotImplemented, "no moderation records: set [store] path")
	}
	var req timedBanReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	var d time.Duration
	if req.Duration != "" {
		v, err := time.ParseDuration(req.Duration)
		if err != nil || v <= 0 {
			return nil, errorf(http.StatusBadRequest, "duration %q: want a positive duration such as 2h", req.Duration)
		}
		d = v
	}
	c := CallerOf(r.Context())
	if rank(c.Role) < rank(RoleAdmin) && (d == 0 || d > maxModeratorBan) {
		return nil, errorf(http.StatusForbidden, "a moderator bans for a time: at most %s", maxModeratorBan)
	}
	v, err := a.opts.Moderation.Ban(r.Context(), req.Target, req.Reason, "token:"+c.Name, d)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%s", err.Error())
	}
	return map[string]any{"ban": v}, nil
}

type liftReq struct {
	ID int64 `json:"id"`
}

func (a *Admin) modLift(r *http.Request) (any, error) {
	if a.opts.Moderation == nil {
		return nil, errorf(http.StatusNotImplemented, "no moderation records: set [store] path")
	}
	var req liftReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	ok, err := a.opts.Moderation.Lift(r.Context(), req.ID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf(http.StatusNotFound, "no ban %d in force", req.ID)
	}
	return map[string]any{"lifted": req.ID}, nil
}

type recordReq struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // warning | note
	Text string `json:"text"`
}

func (a *Admin) modRecord(r *http.Request) (any, error) {
	if a.opts.Moderation == nil {
		return nil, errorf(http.StatusNotImplemented, "no moderation records: set [store] path")
	}
	var req recordReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	v, err := a.opts.Moderation.AddRecord(r.Context(), req.Name, req.Kind, req.Text, "token:"+CallerOf(r.Context()).Name)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%s", err.Error())
	}
	return map[string]any{"record": v}, nil
}
