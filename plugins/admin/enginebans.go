package admin

import (
	"fmt"
	"slices"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/bans"
)

// banList is the API's view of the engine's ban list (engine.Game.Ban,
// Unban, Bans): bans added there are written to the ban file the engine
// keeps, so they survive restarts. Its methods run on the game goroutine.
type banList struct {
	g engine.API
	// fixed are the bans of the configuration file ([bans]), which the
	// API shows but cannot lift.
	fixed func() []string
}

// EngineBans is the game's own ban list as the API's Bans; fixed returns
// the bans of the configuration file ([bans]), which the API shows but
// cannot lift.
func EngineBans(g engine.API, fixed func() []string) Bans {
	return &banList{g: g, fixed: fixed}
}

func entryOf(b Ban) string {
	if b.Name != "" {
		return bans.NamePrefix + b.Name
	}
	return b.Address
}

func toBan(e bans.Entry) Ban {
	if e.IsName() {
		return Ban{Name: e.Name}
	}
	return Ban{Address: e.String()}
}

func contains(list []string, e bans.Entry) bool {
	return slices.ContainsFunc(list, func(s string) bool {
		o, err := bans.Parse(s)
		return err == nil && o.Same(e)
	})
}

func (l *banList) isFixed(e bans.Entry) bool { return contains(l.fixed(), e) }

// List implements Bans.
func (l *banList) List() []Ban {
	out := []Ban{}
	for _, s := range l.g.Bans() {
		e, err := bans.Parse(s)
		if err != nil {
			continue
		}
		b := toBan(e)
		b.Fixed = l.isFixed(e)
		out = append(out, b)
	}
	return out
}

func (l *banList) has(e bans.Entry) bool { return contains(l.g.Bans(), e) }

// Add implements Bans: the engine writes the ban file and boots the
// players the ban matches (stock "banned").
func (l *banList) Add(b Ban, _ string) (bool, []string, error) {
	e, err := bans.Parse(entryOf(b))
	if err != nil {
		return false, nil, err
	}
	already := l.has(e)
	var hit []string
	for _, p := range l.g.Players() {
		if e.MatchAddr(p.Addr.Addr()) || e.MatchName(p.Name) {
			hit = append(hit, p.Name)
		}
	}
	if err := l.g.Ban(e.String()); err != nil {
		return false, nil, err
	}
	return !already, hit, nil
}

// Remove implements Bans.
func (l *banList) Remove(b Ban) (bool, error) {
	e, err := bans.Parse(entryOf(b))
	if err != nil {
		return false, err
	}
	if l.isFixed(e) {
		return false, fmt.Errorf("%s is banned in the configuration file ([bans]); edit it there", e)
	}
	if !l.has(e) {
		return false, nil
	}
	return true, l.g.Unban(e.String())
}
