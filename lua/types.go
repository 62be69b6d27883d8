package lua

import (
	"embed"
	"io/fs"
)

//go:embed types/bc.lua types/test.lua types/README.md
var types embed.FS

// TypesFS holds the LuaLS annotations of the bc API (types/bc.lua), of
// the mission test API (types/test.lua) and their README, for `bcserver
// missions export`.
func TypesFS() fs.FS { return types }
