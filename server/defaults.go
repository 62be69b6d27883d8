package server

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/agones"
	"github.com/bcserver/bcserver/plugins/gamespy"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/plugins/webhook"
)

// The default configuration file, with a comment on every key: the
// server's own sections (default.toml), each plugin's section as the
// plugin writes it, then the notes on [[games]] (default_games.toml).
var (
	//go:embed default.toml
	coreTOML []byte
	//go:embed default_games.toml
	gamesTOML []byte

	// defaultTOML is the whole file (never modified), put together when
	// first needed: a server started with a configuration file (or with
	// none, from the compiled-in defaults) never needs it.
	defaultTOML = sync.OnceValue(func() []byte {
		return bytes.Join([][]byte{
			coreTOML,
			admin.DefaultTOML(), store.DefaultTOML(), record.DefaultTOML(), spectate.DefaultTOML(), agones.DefaultTOML(),
			webhook.DefaultTOML(), accounts.DefaultTOML(), ratings.DefaultTOML(),
			gamespy.DefaultTOML(),
			gamesTOML,
		}, nil)
	})
)

// DefaultTOML returns the default configuration file: what a missing
// configuration file is written as, and what -print-config prints.
func DefaultTOML() []byte { return bytes.Clone(defaultTOML()) }
