package admin

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/bcserver/bcserver/internal/webui"
)

// The console is plain HTML, CSS and JavaScript, embedded: no build step,
// nothing fetched from elsewhere. The helpers every page loads, the
// tactical view and the styles are internal/webui's (the spectator page
// serves them too).
//
//go:embed web
var web embed.FS

func console() http.Handler {
	sub, _ := fs.Sub(web, "web")
	files := http.FileServerFS(webui.With(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
