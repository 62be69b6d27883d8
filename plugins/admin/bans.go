package admin

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/bans"
	"github.com/bcserver/bcserver/engine/names"
)

// Ban is one entry of the server's ban list as the API shows it.
type Ban struct {
	// Name is set for a name ban, Address for an address ban (an IPv4
	// pattern where an octet 255 matches any value).
	Name    string `json:"name,omitempty"`
	Address string `json:"address,omitempty"`
	// Fixed bans come from the configuration file and cannot be lifted
	// through the API.
	Fixed bool `json:"fixed,omitempty"`
}

// Bans is the server's ban list as the API uses it; the methods run on the
// game goroutine. Add bans and removes every matching player; Remove lifts
// a ban. Both report false when nothing changed.
type Bans interface {
	List() []Ban
	Add(b Ban, reason string) (added bool, removed []string, err error)
	Remove(b Ban) (removed bool, err error)
}

func (a *Admin) getBans(w http.ResponseWriter, r *http.Request) {
	if a.opts.Bans == nil {
		writeError(w, http.StatusNotImplemented, "no ban list")
		return
	}
	var list []Ban
	if err := a.do(r.Context(), func(engine.API) { list = a.opts.Bans.List() }); err != nil {
		writeErr(w, err)
		return
	}
	if list == nil {
		list = []Ban{}
	}
	writeJSON(w, http.StatusOK, list)
}

type banReq struct {
	Player  PlayerRef `json:"player"`
	Name    string    `json:"name"`
	Address string    `json:"address"`
	Reason  string    `json:"reason"`
	// Force confirms a ban that would lock out far more than one player
	// (bans.Entry.Broad: every address, the loopback or unspecified one).
	Force bool `json:"force"`
}

// checkBan refuses with 422 what the ban file cannot hold as one entry (a
// name with control, line-break or bidi characters) and, without force, a
// ban that would lock everyone out by accident.
func checkBan(b Ban, force bool) error {
	if b.Name != "" {
		if !names.Valid(b.Name) {
			return errorf(http.StatusUnprocessableEntity, "name %q has control, line-break or bidi characters (or spaces at the ends): a ban list entry is one line", b.Name)
		}
		if _, err := bans.Parse(bans.NamePrefix + b.Name); err != nil {
			return errorf(http.StatusUnprocessableEntity, "name: %v", err)
		}
		return nil
	}
	e, err := bans.Parse(b.Address)
	if err != nil {
		return errorf(http.StatusBadRequest, "%v", err)
	}
	if why := e.Broad(); why != "" && !force {
		return errorf(http.StatusUnprocessableEntity, "banning %s would lock out far more than one player: %s; send \"force\": true to ban it anyway", e, why)
	}
	return nil
}

// target resolves a ban request: a connected player (banned by name and
// address both), or a name, or an address.
func (req banReq) targets(g engine.API) ([]Ban, error) {
	set := 0
	for _, s := range []string{string(req.Player), req.Name, req.Address} {
		if strings.TrimSpace(s) != "" {
			set++
		}
	}
	if set != 1 {
		return nil, errorf(http.StatusBadRequest, "give exactly one of player, name or address")
	}
	switch {
	case req.Player != "":
		p, err := find(g, req.Player)
		if err != nil {
			return nil, err
		}
		bs := []Ban{{Address: p.Addr.Addr().Unmap().String()}}
		if p.Name != "" {
			bs = append(bs, Ban{Name: p.Name})
		}
		return bs, nil
	case req.Name != "":
		return []Ban{{Name: strings.TrimSpace(req.Name)}}, nil
	}
	a, err := netip.ParseAddr(strings.TrimSpace(req.Address))
	if err != nil || !a.Unmap().Is4() {
		return nil, errorf(http.StatusBadRequest, "address %q: want an IPv4 address (an octet 255 matches any value)", req.Address)
	}
	return []Ban{{Address: a.Unmap().String()}}, nil
}

func (a *Admin) ban(r *http.Request) (any, error) {
	if a.opts.Bans == nil {
		return nil, errorf(http.StatusNotImplemented, "no ban list")
	}
	var req banReq
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	var added []Ban
	removed := []string{}
	var ferr error
	err := a.do(r.Context(), func(g engine.API) {
		bs, err := req.targets(g)
		if err != nil {
			ferr = err
			return
		}
		for _, b := range bs {
			if err := checkBan(b, req.Force); err != nil {
				ferr = err
				return
			}
		}
		for _, b := range bs {
			ok, gone, err := a.opts.Bans.Add(b, trimmed(req.Reason, 200))
			if err != nil {
				ferr = errorf(http.StatusBadRequest, "%v", err)
				return
			}
			if ok {
				added = append(added, b)
			}
			removed = append(removed, gone...)
		}
		for _, name := range removed {
			sendChat(g, nil, banText(name, req.Reason))
		}
	})
	if err != nil {
		return nil, err
	}
	if ferr != nil {
		return nil, ferr
	}
	if added == nil {
		added = []Ban{}
	}
	return map[string]any{"banned": added, "removed_players": removed}, nil
}

func banText(name, reason string) string {
	t := name + " was banned by the host"
	if reason = trimmed(reason, 120); reason != "" {
		t += ": " + reason
	}
	return t
}

func (a *Admin) unban(r *http.Request) (any, error) {
	if a.opts.Bans == nil {
		return nil, errorf(http.StatusNotImplemented, "no ban list")
	}
	var req struct {
		Name    string `json:"name"`
		Address string `json:"address"`
		Player  string `json:"player"` // a name, as in ban
	}
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Name == "" {
		req.Name = req.Player
	}
	var b Ban
	switch {
	case req.Name != "" && req.Address == "":
		b.Name = strings.TrimSpace(req.Name)
		if !names.Valid(b.Name) {
			return nil, errorf(http.StatusUnprocessableEntity, "name %q has control, line-break or bidi characters: no ban list entry can hold it", b.Name)
		}
	case req.Address != "" && req.Name == "":
		ad, err := netip.ParseAddr(strings.TrimSpace(req.Address))
		if err != nil || !ad.Unmap().Is4() {
			return nil, errorf(http.StatusBadRequest, "address %q: want an IPv4 address", req.Address)
		}
		b.Address = ad.Unmap().String()
	default:
		return nil, errorf(http.StatusBadRequest, "give exactly one of name or address")
	}
	var removed bool
	var rerr error
	if err := a.do(r.Context(), func(engine.API) { removed, rerr = a.opts.Bans.Remove(b) }); err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, errorf(http.StatusConflict, "%v", rerr)
	}
	if !removed {
		return nil, errorf(http.StatusNotFound, "no such ban")
	}
	return map[string]any{"unbanned": b}, nil
}
