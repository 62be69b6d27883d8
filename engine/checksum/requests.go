package checksum

import "github.com/bcserver/bcserver/codec"

// Stock version string and its hash: the round-0 ref_hash (handshake.md
// 2.3). The manifest's version_string overrides it.
const (
	StockVersionString = "60"
	StockVersionHash   = 0x7E0CE243
)

// Round index of the last request; after it passes the server sends 0x28,
// Settings and GameInit (handshake.md 2.5).
const FinalRound = 0xFF

// StockRequests returns the five requests of a stock dedicated server, in
// the order they are sent (handshake.md 2.2). Strings are case- and
// slash-exact: only "scripts/" has a trailing slash and round 0xFF uses a
// capital S, because the client hashes the directory string it receives.
// The slice is new on every call; callers may modify it.
func StockRequests() []codec.ChecksumRequest {
	return []codec.ChecksumRequest{
		{Round: 0, Dir: "scripts/", Filter: "App.pyc"},
		{Round: 1, Dir: "scripts/", Filter: "Autoexec.pyc"},
		{Round: 2, Dir: "scripts/ships", Filter: "*.pyc", Recursive: true},
		{Round: 3, Dir: "scripts/mainmenu", Filter: "*.pyc"},
		{Round: FinalRound, Dir: "Scripts/Multiplayer", Filter: "*.pyc", Recursive: true},
	}
}
