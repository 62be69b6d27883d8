package accounts

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/names"
	bcnet "github.com/bcserver/bcserver/net"
)

// GuestSuffix is what an impostor's name becomes: "Name (guest)".
const GuestSuffix = " (guest)"

// tryEvery spaces one player's !login and !register attempts.
const tryEvery = 2 * time.Second

// PluginOptions configure one game's accounts.
type PluginOptions struct {
	// Registry holds the accounts; nil when [accounts] is off (the plugin
	// then only swallows !login and !register lines, so a password typed
	// on a server without accounts still reaches nobody).
	Registry *Registry
	Section  Section
	// Commands handles other "!" lines before Lua sees them (the in-game
	// admin commands); it reports whether it took the line.
	Commands func(p *engine.Player, cmd, rest string) bool
}

// Plugin is one game's accounts: the chat filter for !register and
// !login, the protected names' grace timers, the guest renames.
type Plugin struct {
	opts     PluginOptions
	g        *engine.Game
	sessions map[*engine.Player]*session
	offs     []func()
}

// session is what the plugin knows of one connected player.
type session struct {
	account string    // the protected account his name claims, "" for none
	cancel  func()    // the grace timer
	lastTry time.Time // the last !login or !register
	busy    bool      // a key derivation for him is under way
}

// New makes the plugin; add it with engine.Game.AddPlugin.
func New(o PluginOptions) *Plugin { return &Plugin{opts: o, sessions: map[*engine.Player]*session{}} }

// Name implements engine.Plugin.
func (a *Plugin) Name() string { return "accounts" }

// Start implements engine.Plugin.
func (a *Plugin) Start(g *engine.Game) error {
	a.g = g
	g.SetChatFilter(a.filter)
	if a.opts.Registry != nil {
		a.offs = append(a.offs,
			g.On(engine.EvPlayerInGame, func(ev engine.Event) { a.claim(ev.(*engine.PlayerInGame).Player) }),
			g.On(engine.EvPlayerRenamed, func(ev engine.Event) {
				if e := ev.(*engine.PlayerRenamed); !e.ByHost {
					a.renamedByClient(e.Player)
				}
			}),
		)
	}
	a.offs = append(a.offs, g.On(engine.EvPlayerLeft, func(ev engine.Event) { a.forget(ev.(*engine.PlayerLeft).Player) }))
	return nil
}

// Stop implements engine.Plugin.
func (a *Plugin) Stop(g *engine.Game) {
	g.SetChatFilter(nil)
	for _, off := range a.offs {
		off()
	}
	a.offs = nil
	for p := range a.sessions {
		a.forget(p)
	}
}

func (a *Plugin) sess(p *engine.Player) *session {
	s := a.sessions[p]
	if s == nil {
		s = &session{}
		a.sessions[p] = s
	}
	return s
}

func (a *Plugin) forget(p *engine.Player) {
	if s := a.sessions[p]; s != nil && s.cancel != nil {
		s.cancel()
	}
	delete(a.sessions, p)
}

// post hands a key derivation's outcome back to the game goroutine. The
// game's inbox is bounded; a full one is tried again for up to a second
// (this runs on the accounts' worker, never on a game loop), so a busy
// game does not leave the player's try pending for good.
func (a *Plugin) post(fn func()) {
	for i := 0; i < 50 && !a.g.Post(fn); i++ {
		time.Sleep(20 * time.Millisecond)
	}
}

// say sends host chat to one player.
func (a *Plugin) say(p *engine.Player, text string) { _ = a.g.Send(p, engine.ServerNotice(nil, text)) }

// tell sends host chat to every player in the game.
func (a *Plugin) tell(text string) { a.g.SendInGame(engine.ServerNotice(nil, text), nil) }

// filter is the game's chat filter: it consumes !register and !login
// lines (whatever follows them) before anything sees them, and hands
// other "!" lines to the in-game commands.
func (a *Plugin) filter(p *engine.Player, _ bool, text []byte) bool {
	if len(text) < 2 || text[0] != '!' {
		return false
	}
	cmd, rest, _ := bytes.Cut(text[1:], []byte{' '})
	switch strings.ToLower(string(cmd)) {
	case "register", "login":
	default:
		if a.opts.Commands != nil && p.Account != "" {
			return a.opts.Commands(p, strings.ToLower(string(cmd)), strings.TrimSpace(string(rest)))
		}
		return false
	}
	if a.opts.Registry == nil {
		a.say(p, "this server has no accounts")
		return true
	}
	// The password is copied out of the datagram buffer and overwritten
	// once hashed; it is never logged.
	pw := bytes.Clone(bytes.TrimSpace(rest))
	if strings.EqualFold(string(cmd), "register") {
		a.register(p, pw)
	} else {
		a.login(p, pw)
	}
	return true
}

// ready applies the per-player spacing; it reports whether to go on.
func (a *Plugin) ready(p *engine.Player, s *session) bool {
	now := a.g.Now()
	if s.busy {
		a.say(p, "one moment: your last try is being checked")
		return false
	}
	if !s.lastTry.IsZero() && now.Sub(s.lastTry) < tryEvery {
		a.say(p, "too fast: try again in a few seconds")
		return false
	}
	s.lastTry = now
	return true
}

func (a *Plugin) register(p *engine.Player, pw []byte) {
	s := a.sess(p)
	reg := a.opts.Registry
	switch {
	case p.Account != "":
		a.say(p, "you are logged in as "+p.Account)
		return
	case len(pw) < a.opts.Section.MinPassword || len(pw) > maxPassword:
		a.say(p, fmt.Sprintf("usage: !register <password> (%d to %d characters; not one you use elsewhere)", a.opts.Section.MinPassword, maxPassword))
		return
	case strings.HasSuffix(p.Name, GuestSuffix) || guestLike.MatchString(p.Name):
		a.say(p, "pick a name of your own first (not one ending in a number or (guest))")
		return
	}
	if name, ok := reg.Lookup(p.Name); ok {
		a.say(p, name+" is registered: !login <password>")
		return
	}
	if reg.Role(p.Name) != "" {
		// A staff name is the host's to create: whoever registered it
		// first would otherwise hold its role.
		a.say(p, p.Name+" is reserved for the server's staff: the host sets its password")
		return
	}
	if !a.ready(p, s) {
		return
	}
	name := p.Name
	s.busy = true
	err := reg.Register(name, pw, a.g.Now(), func(err error) {
		a.post(func() {
			s.busy = false
			if a.sessions[p] != s {
				return // gone meanwhile
			}
			switch {
			case errors.Is(err, ErrTaken):
				a.say(p, name+" was registered meanwhile: !login <password>")
			case err != nil:
				a.g.Logger().Error("registering an account", "component", "plugin/accounts", "account", name, "err", err)
				a.say(p, "registering failed; try again later")
			default:
				a.loggedIn(p, s, name, "registered and logged in as "+name)
			}
		})
	})
	if err != nil {
		s.busy = false
		a.say(p, "the server is busy: try again in a few seconds")
	}
}

// guestLike matches the names the host gives: "Name (2)", "Name (guest)".
var guestLike = regexp.MustCompile(` \((\d+|guest)\)$`)

// claimed returns the account a player may log in to: his name's, or
// the one his name had before the host renamed him.
func (a *Plugin) claimed(p *engine.Player, s *session) (string, bool) {
	if s.account != "" {
		return s.account, true
	}
	if name, ok := a.opts.Registry.Lookup(p.Name); ok {
		return name, true
	}
	return a.opts.Registry.Lookup(guestLike.ReplaceAllString(p.Name, ""))
}

func (a *Plugin) login(p *engine.Player, pw []byte) {
	s := a.sess(p)
	reg := a.opts.Registry
	account, ok := a.claimed(p, s)
	switch {
	case p.Account != "":
		a.say(p, "you are logged in as "+p.Account)
		return
	case !ok:
		a.say(p, "no account is named "+p.Name+": !register <password> makes one")
		return
	case len(pw) == 0 || len(pw) > maxPassword:
		a.say(p, "usage: !login <password>")
		return
	case reg.Locked(account, a.g.Now()):
		a.say(p, "too many wrong passwords for "+account+": try again later")
		return
	}
	if !a.ready(p, s) {
		return
	}
	s.busy = true
	err := reg.Verify(account, pw, a.g.Now(), func(name string, ok bool) {
		a.post(func() {
			s.busy = false
			if a.sessions[p] != s {
				return
			}
			if !ok {
				a.g.Logger().Info("wrong password", "component", "plugin/accounts", "player", p.ID, "account", account, "addr", p.Addr)
				a.say(p, "wrong password")
				return
			}
			a.loggedIn(p, s, name, "logged in as "+name)
		})
	})
	if err != nil {
		s.busy = false
		a.say(p, "the server is busy: try again in a few seconds")
	}
}

// loggedIn attaches the account: the player takes the account's name (an
// impostor holding it becomes a guest), his role, and his points count
// from now.
func (a *Plugin) loggedIn(p *engine.Player, s *session, account, msg string) {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.account = account
	for _, o := range a.g.Players() {
		if o != p && o.Account != account && names.Same(o.Name, account) {
			a.toGuest(o)
		}
	}
	if !names.Same(p.Name, account) {
		a.g.RenamePlayer(p, account)
	}
	p.Account = account
	p.Role = a.opts.Registry.Role(account)
	a.g.SetScored(p, true)
	a.g.Logger().Info("logged in", "component", "plugin/accounts", "player", p.ID, "account", account, "role", p.Role, "addr", p.Addr)
	if p.Role != "" {
		msg += " (" + p.Role + ")"
	}
	a.say(p, msg)
}

// claim starts a protected name's grace: the points do not count, and
// the player must log in before login_time or is renamed.
func (a *Plugin) claim(p *engine.Player) {
	account, ok := a.opts.Registry.Lookup(p.Name)
	if !ok || p.Account == account {
		return
	}
	s := a.sess(p)
	s.account = account
	a.g.SetScored(p, false)
	grace := time.Duration(a.opts.Section.LoginTime)
	a.say(p, fmt.Sprintf("%s is a registered name: say !login <password> within %s, or you play as %s%s", account, grace, account, GuestSuffix))
	if s.cancel != nil {
		s.cancel()
	}
	s.cancel = a.g.After(grace, func() {
		s.cancel = nil
		if a.sessions[p] == s && p.Account == "" {
			a.toGuest(p)
		}
	})
}

// toGuest renames a player who holds a protected name without its
// account; he plays on as a guest and his points count from here.
func (a *Plugin) toGuest(p *engine.Player) {
	base := guestLike.ReplaceAllString(p.Name, "")
	old := p.Name
	name := a.g.RenamePlayer(p, bcnet.TruncateName(base, bcnet.MaxNameUnits-len(GuestSuffix))+GuestSuffix)
	a.g.SetScored(p, true)
	a.tell(fmt.Sprintf("%s did not log in and plays as %s", old, name))
}

// renamedByClient: a player changed his name in game. Leaving his
// account's name logs him out; taking a protected name starts its grace.
func (a *Plugin) renamedByClient(p *engine.Player) {
	if p.Account != "" && !names.Same(p.Name, p.Account) {
		p.Account, p.Role = "", ""
		a.say(p, "you changed your name: logged out")
	}
	if s := a.sessions[p]; s != nil {
		s.account = ""
	}
	if p.Account == "" {
		a.claim(p)
	}
}
