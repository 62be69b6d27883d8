package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/store"
)

// pluginBans is the admin API's ban list (admin.Bans) kept by this
// command: entries in the engine's ban-file syntax ("203.0.113.7",
// "203.0.113.255" for the whole /24, "name:Player"), stored in the match
// database so they survive restarts, and enforced from the engine's
// events: a banned address is booted right after its connect, a banned
// name once the client announced it (NewPlayerInGame).
//
// It stands in until the engine's own ban list (Game.Ban, Unban, Bans and
// its ban file) is on main; that list satisfies admin.Bans through a thin
// adapter and then replaces this one.
type pluginBans struct {
	g    *engine.Game
	st   *store.Store // nil: bans last until the process ends
	log  *slog.Logger
	list []banEntry
	offs []func()
}

type banEntry struct {
	ip     [4]byte
	name   string
	reason string
	at     time.Time
}

const banNamePrefix = "name:"

func parseBan(s string) (banEntry, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, banNamePrefix); ok {
		name := strings.TrimSpace(rest)
		if name == "" || len(name) > 64 {
			return banEntry{}, errors.New("a name ban needs a name of 1 to 64 characters")
		}
		return banEntry{name: name}, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Unmap().Is4() {
		return banEntry{}, fmt.Errorf("%q is neither an IPv4 address nor %s<player name>", s, banNamePrefix)
	}
	return banEntry{ip: a.Unmap().As4()}, nil
}

func (e banEntry) String() string {
	if e.name != "" {
		return banNamePrefix + e.name
	}
	return netip.AddrFrom4(e.ip).String()
}

func (e banEntry) same(o banEntry) bool {
	if e.name != "" || o.name != "" {
		return strings.EqualFold(e.name, o.name)
	}
	return e.ip == o.ip
}

// matches reports whether the entry bans p: its address (an octet 255
// matches any value) or its name (compared without case).
func (e banEntry) matches(p *engine.Player) bool {
	if e.name != "" {
		return p.Name != "" && strings.EqualFold(e.name, p.Name)
	}
	a := p.Addr.Addr().Unmap()
	if !a.Is4() {
		return false
	}
	ip := a.As4()
	for i, o := range e.ip {
		if o != 255 && o != ip[i] {
			return false
		}
	}
	return true
}

// newPluginBans loads the stored bans (before the game runs).
func newPluginBans(g *engine.Game, st *store.Store, log *slog.Logger) (*pluginBans, error) {
	b := &pluginBans{g: g, st: st, log: log.With("component", "plugin/admin")}
	if st == nil {
		b.log.Warn("bans added through the admin API last until the server stops: set [store] path to keep them")
		return b, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	recs, err := st.Bans(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		e, err := parseBan(r.Entry)
		if err != nil {
			b.log.Warn("stored ban ignored", "entry", r.Entry, "err", err)
			continue
		}
		e.reason, e.at = r.Reason, r.Created
		b.list = append(b.list, e)
	}
	return b, nil
}

// Name implements engine.Plugin.
func (b *pluginBans) Name() string { return "bans" }

// Start implements engine.Plugin.
func (b *pluginBans) Start(g *engine.Game) error {
	check := func(p *engine.Player) {
		// The boot waits for the next loop pass: the transport is in the
		// middle of the connect or of a message when these events fire.
		g.After(0, func() {
			if g.Player(p.ID) == p && b.banned(p) != nil {
				b.boot(p, b.banned(p))
			}
		})
	}
	b.offs = append(b.offs,
		g.On(engine.EvPlayerConnected, func(ev engine.Event) { check(ev.(*engine.PlayerConnected).Player) }),
		g.On(engine.EvPlayerJoined, func(ev engine.Event) { check(ev.(*engine.PlayerJoined).Player) }),
	)
	return nil
}

// Stop implements engine.Plugin.
func (b *pluginBans) Stop(*engine.Game) {
	for _, off := range b.offs {
		off()
	}
	b.offs = nil
}

func (b *pluginBans) banned(p *engine.Player) *banEntry {
	for i := range b.list {
		if b.list[i].matches(p) {
			return &b.list[i]
		}
	}
	return nil
}

func (b *pluginBans) boot(p *engine.Player, e *banEntry) {
	b.log.Info("booting banned player", "player", p.ID, "name", p.Name, "addr", p.Addr, "ban", e.String())
	b.g.Kick(p, bcnet.BootKicked)
}

func entryOf(a admin.Ban) string {
	if a.Name != "" {
		return banNamePrefix + a.Name
	}
	return a.Address
}

func (e banEntry) api() admin.Ban {
	if e.name != "" {
		return admin.Ban{Name: e.name}
	}
	return admin.Ban{Address: e.String()}
}

// List implements admin.Bans.
func (b *pluginBans) List() []admin.Ban {
	out := make([]admin.Ban, 0, len(b.list))
	for _, e := range b.list {
		out = append(out, e.api())
	}
	return out
}

// Add implements admin.Bans: the ban is stored and every player it
// matches is booted.
func (b *pluginBans) Add(a admin.Ban, reason string) (bool, []string, error) {
	e, err := parseBan(entryOf(a))
	if err != nil {
		return false, nil, err
	}
	added := !slices.ContainsFunc(b.list, e.same)
	if added {
		e.reason, e.at = reason, b.g.Now()
		b.list = append(b.list, e)
		if b.st != nil && !b.st.SaveBan(store.BanRecord{Entry: e.String(), Reason: reason, Created: e.at}) {
			b.log.Error("ban not stored (write queue full); it holds until the server stops", "ban", e.String())
		}
		b.log.Info("ban added", "ban", e.String(), "reason", reason)
	}
	var hit []string
	for _, p := range b.g.Players() {
		if e.matches(p) {
			hit = append(hit, p.Name)
			b.boot(p, &e)
		}
	}
	return added, hit, nil
}

// Remove implements admin.Bans.
func (b *pluginBans) Remove(a admin.Ban) (bool, error) {
	e, err := parseBan(entryOf(a))
	if err != nil {
		return false, err
	}
	i := slices.IndexFunc(b.list, e.same)
	if i < 0 {
		return false, nil
	}
	old := b.list[i]
	b.list = slices.Delete(b.list, i, i+1)
	if b.st != nil {
		b.st.DeleteBan(old.String())
	}
	b.log.Info("ban lifted", "ban", old.String())
	return true, nil
}
