// Package webui holds the web files the admin console and the spectator
// page share: the helpers every page loads first (common.js), the tactical
// view (view.js) and the styles (style.css). The two plugins serve them
// beside their own pages (With); neither imports the other.
package webui

import (
	"embed"
	"errors"
	"io/fs"
	"path"
)

//go:embed common.js view.js style.css
var files embed.FS

// FS returns the shared files.
func FS() fs.FS { return files }

// With returns own with the shared files beside it: a name the shared
// files hold is served from them, any other from own. A page of own's
// must not have a shared file's name (the shared one would win).
func With(own fs.FS) fs.FS { return union{own} }

type union struct{ own fs.FS }

func (u union) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if name != "." && path.Dir(name) == "." {
		f, err := files.Open(name)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
	}
	return u.own.Open(name)
}
