// Package missions holds the stock game modes as Lua missions, one folder
// per mode plus lib/ with the rules they share. The server runs them from
// a missions folder on disk when there is one (so edits reload live) and
// otherwise from the copy embedded here.
package missions

import (
	"embed"
	"io/fs"
)

//go:embed lib deathmatch team-deathmatch fed-vs-nonfed defend-the-starbase
var embedded embed.FS

// FS returns the embedded missions root: one folder per mode and lib/.
func FS() fs.FS { return embedded }
