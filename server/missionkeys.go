package server

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// serverMissionKeys are the [mission] keys the server itself reads
// (MissionSection.check).
var serverMissionKeys = []string{"system", "time_limit", "frag_limit", "player_limit", "restart_after",
	"stock_killer_score_quirk", "stock_skip_weapon_kill_score_change", "stock_teams_reset_on_restart", "check_faction_ships"}

// Bounds of the scan of a mode's files for its keys (as the mission
// loader's: a missions folder is the host's, but a FIFO or a huge file in
// it must not hold up the start).
const (
	maxKeyScanFiles = 256
	maxKeyScanBytes = 1 << 20
)

// checkMissionKeys reports the [mission] keys nobody reads: not the
// server, and not the mode — a key a mission reads (bc.config.lives,
// bc.config["lives"]) is written in one of its Lua files, the mode's
// folder, lib/ or an addon's. So `time_limt = 5` is an error naming the
// key, as an unknown key of any other section is, while a mode's own
// options pass. env names the keys that came from BCSERVER_MISSION_*
// variables, to name those instead.
func checkMissionKeys(ms MissionSection, fsys, lib fs.FS, mode string, addons []string, env map[string]string) error {
	var unknown []string
	for k := range ms {
		if !slices.Contains(serverMissionKeys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 || fsys == nil {
		return nil // the usual case: nothing to read the files for
	}
	words := map[string]bool{}
	roots := []struct {
		fsys fs.FS
		dir  string
	}{{fsys, mode}, {fsys, "lib"}}
	for _, a := range addons {
		roots = append(roots, struct {
			fsys fs.FS
			dir  string
		}{fsys, path.Join("addons", a)})
	}
	if lib != nil {
		roots = append(roots, struct {
			fsys fs.FS
			dir  string
		}{lib, "lib"})
	}
	files := 0
	for _, r := range roots {
		_ = fs.WalkDir(r.fsys, r.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lua") || !d.Type().IsRegular() {
				return nil
			}
			if files++; files > maxKeyScanFiles {
				return fs.SkipAll
			}
			if info, err := d.Info(); err != nil || info.Size() > maxKeyScanBytes {
				return nil
			}
			b, err := fs.ReadFile(r.fsys, p)
			if err != nil {
				return nil
			}
			for _, w := range strings.FieldsFunc(string(b), func(c rune) bool {
				return !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
			}) {
				words[w] = true
			}
			return nil
		})
	}
	sort.Strings(unknown)
	var bad []string
	for _, k := range unknown {
		if words[k] {
			continue
		}
		if v, ok := env[k]; ok {
			bad = append(bad, v)
		} else {
			bad = append(bad, "mission."+k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("unknown key(s) %s: neither the server nor the files of mode %q read them (a mode reads its own keys as bc.config.<key>; check the spelling)",
		strings.Join(bad, ", "), mode)
}
