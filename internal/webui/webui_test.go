package webui

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWith(t *testing.T) {
	own := fstest.MapFS{"index.html": {Data: []byte("own page")}, "sub/x.js": {Data: []byte("own sub")}}
	u := With(own)
	for name, want := range map[string]string{"index.html": "own page", "sub/x.js": "own sub"} {
		b, err := fs.ReadFile(u, name)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
	for _, name := range []string{"common.js", "view.js", "style.css"} {
		got, err := fs.ReadFile(u, name)
		want, _ := fs.ReadFile(FS(), name)
		if err != nil || len(got) == 0 || string(got) != string(want) {
			t.Errorf("%s: %d bytes, %v: want the shared file", name, len(got), err)
		}
	}
	if _, err := fs.ReadFile(u, "nothing.js"); err == nil {
		t.Error("a name neither holds opened")
	}
	if _, err := u.Open("../common.js"); err == nil {
		t.Error("an invalid path opened")
	}
	if _, err := fs.ReadDir(u, "."); err != nil {
		t.Errorf("the root: %v", err)
	}
}

// The helpers live in common.js alone: no page's script defines them
// again, and every page loads common.js before its own scripts.
func TestPagesShareTheHelpers(t *testing.T) {
	common, err := os.ReadFile("common.js")
	if err != nil {
		t.Fatal(err)
	}
	defs := regexp.MustCompile(`(?m)^(?:async )?function (\w+)\(|^(?:const|let) (\$|\w+) =`)
	var helpers []string
	for _, m := range defs.FindAllStringSubmatch(string(common), -1) {
		helpers = append(helpers, m[1]+m[2])
	}
	if len(helpers) < 5 {
		t.Fatalf("found %d helpers in common.js: %q", len(helpers), helpers)
	}
	pages, _ := filepath.Glob("../../plugins/*/web/*")
	if len(pages) < 10 {
		t.Fatalf("found %d web files under plugins/: the walk is broken", len(pages))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		switch filepath.Ext(p) {
		case ".js":
			for _, m := range defs.FindAllStringSubmatch(src, -1) {
				for _, h := range helpers {
					if m[1]+m[2] == h {
						t.Errorf("%s defines %s again: it is common.js's", p, h)
					}
				}
			}
		case ".html":
			i, j := strings.Index(src, `<script src="common.js" defer></script>`), strings.Index(src, "<script")
			if i < 0 || i != j {
				t.Errorf("%s does not load common.js before its scripts", p)
			}
		}
		if _, err := fs.Stat(FS(), filepath.Base(p)); err == nil {
			t.Errorf("%s has a shared file's name: the shared one is served", p)
		}
	}
}
