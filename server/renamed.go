package server

import (
	"fmt"
	"regexp"
	"strings"
)

// The one namespace rule of the configuration file: a plugin's section is
// the table named as the plugin, at the top level ([admin], [store],
// [gamespy], ...; the registry in plugins.go names them). renamedSections
// are the spellings from before the rule that hosts' files and
// environments still hold: they are read as the new ones, and the start-up
// log names the new spelling.
var renamedSections = []struct{ old, new string }{
	{"plugins.gamespy", "gamespy"},
}

// renameSections rewrites the table headers of renamed sections in a
// configuration file to their new names, line for line (so the decoder's
// line numbers still hold), and says what it renamed.
func renameSections(b []byte) ([]byte, []string, error) {
	var notes []string
	for _, r := range renamedSections {
		old := regexp.MustCompile(`(?m)^(\s*\[\[?\s*)` + strings.ReplaceAll(regexp.QuoteMeta(r.old), `\.`, `\s*\.\s*`) + `(\s*[\].])`)
		if !old.Match(b) {
			continue
		}
		now := regexp.MustCompile(`(?m)^\s*\[\[?\s*` + regexp.QuoteMeta(r.new) + `\s*[\].]`)
		if now.Match(b) {
			return b, nil, fmt.Errorf("both [%s] and [%s]: [%s] is the old name of [%s]; keep one", r.old, r.new, r.old, r.new)
		}
		b = old.ReplaceAll(b, []byte("${1}"+r.new+"${2}"))
		notes = append(notes, fmt.Sprintf("[%s] is now [%s]: the old name still works; rename the table", r.old, r.new))
	}
	return b, notes, nil
}

// renamedKey adds the new spelling to an unknown key of a renamed section
// (a dotted key or an inline table the header rewrite does not reach).
func renamedKey(key string) string {
	for _, r := range renamedSections {
		if rest, ok := strings.CutPrefix(key, r.old); ok && (rest == "" || rest[0] == '.') {
			return fmt.Sprintf("%s (now %s%s: [%s] is [%s])", key, r.new, rest, r.old, r.new)
		}
		if strings.HasPrefix(r.old, key+".") {
			return fmt.Sprintf("%s (a plugin's section is now the top-level table of its name: [%s] is [%s])", key, r.old, r.new)
		}
	}
	return key
}

// renamedEnv returns the variable name of a renamed section's variable
// (BCSERVER_PLUGINS_GAMESPY_ENABLED is BCSERVER_GAMESPY_ENABLED), and
// whether it was one.
func renamedEnv(name string) (string, bool) {
	for _, r := range renamedSections {
		old := envPrefix + strings.ToUpper(strings.ReplaceAll(r.old, ".", "_")) + "_"
		if rest, ok := strings.CutPrefix(name, old); ok {
			return envPrefix + strings.ToUpper(strings.ReplaceAll(r.new, ".", "_")) + "_" + rest, true
		}
	}
	return name, false
}
