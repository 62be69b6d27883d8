// Package missions holds the stock game modes as Lua missions, one folder
// per mode plus lib/ with the rules they share. The server runs them from
// a missions folder on disk when there is one (so edits reload live) and
// otherwise from the copy embedded here.
package missions

import (
	"embed"
	"io/fs"
)

// Every mode folder (and lib/) with its Lua files and README, and every
// addon under addons/; a new folder is picked up without touching this line.
//
//go:embed */*.lua */README.md addons/*/*.lua addons/*/README.md
var embedded embed.FS

// FS returns the embedded missions root: one folder per mode and lib/.
func FS() fs.FS { return embedded }
