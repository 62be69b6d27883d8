module github.com/bcserver/bcserver

go 1.26.0

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/yuin/gopher-lua v1.1.2
	layeh.com/gopher-luar v1.0.11
)

require golang.org/x/sys v0.49.0 // indirect
