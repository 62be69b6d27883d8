package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by the linker in release builds (make release):
// -X main.version=v1.2.3 -X main.commit=abc1234.
var (
	version = ""
	commit  = ""
)

// versionString is the module version and the commit the binary was built
// from: the linker values when set, else what the Go toolchain recorded.
func versionString() string {
	v, c, dirty := version, commit, false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if c == "" {
					c = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	if c == "" {
		c = "unknown"
	}
	if dirty {
		c += "-dirty"
	}
	return fmt.Sprintf("%s (commit %s, %s)", v, c, runtime.Version())
}
