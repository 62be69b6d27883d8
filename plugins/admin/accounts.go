package admin

import (
	"context"
	"net/http"
)

// Accounts is what the API needs of the players' accounts
// (plugins/accounts, wired by the server): the host sets a password,
// for a staff account or a player who forgot his.
type Accounts interface {
	SetPassword(ctx context.Context, name, password string) error
}

// hidden is a request field the audit log must not show (a password).
type hidden string

// MarshalJSON implements json.Marshaler: the audit line's arguments.
func (hidden) MarshalJSON() ([]byte, error) { return []byte(`"(hidden)"`), nil }

type passwordReq struct {
	Name     string `json:"name"`
	Password hidden `json:"password"`
}

// maxAccountPassword bounds a password as the chat command does.
const maxAccountPassword = 64

func (a *Admin) accountPassword(r *http.Request) (any, error) {
	if a.opts.Accounts == nil {
		return nil, errorf(http.StatusNotImplemented, "no accounts: set [accounts] enabled")
	}
	var req passwordReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Name == "" || len(req.Name) > 64 {
		return nil, errorf(http.StatusBadRequest, "name: 1 to 64 bytes")
	}
	if len(req.Password) < 6 || len(req.Password) > maxAccountPassword {
		return nil, errorf(http.StatusBadRequest, "password: 6 to %d bytes", maxAccountPassword)
	}
	if err := a.opts.Accounts.SetPassword(r.Context(), req.Name, string(req.Password)); err != nil {
		return nil, errorf(http.StatusBadRequest, "%s", err.Error())
	}
	return map[string]any{"account": req.Name}, nil
}
