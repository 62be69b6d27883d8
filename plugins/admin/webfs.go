package admin

import "io/fs"

// WebFS returns the console's embedded files: the spectator page serves
// the tactical view (view.js) and the styles from it.
func WebFS() fs.FS {
	sub, _ := fs.Sub(web, "web")
	return sub
}
