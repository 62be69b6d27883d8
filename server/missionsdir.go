package server

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bcserver/bcserver/missions"
)

// builtinMissions names the embedded missions in logs and errors.
const builtinMissions = "built-in missions"

// MissionsFS returns the missions root and where it is: the folder given
// with UseMissions, else game.missions_dir (relative to the config file's
// folder, or from -missions-dir relative to the working directory), else
// ./missions when it exists, else the copy built into the binary
// (builtinMissions). A folder of its own still reaches the built-in lib/
// (see missionLib).
func (c Config) MissionsFS() (fs.FS, string, error) {
	if m := c.missions; m != nil {
		return m.fsys, m.name, nil
	}
	dir := c.missionsDir()
	if dir == "" {
		return missions.FS(), builtinMissions, nil
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, "", fmt.Errorf("game.missions_dir %q: not a directory", dir)
	}
	return os.DirFS(dir), dir, nil
}

// missionsDir is the folder on disk the missions come from (and are
// watched in), "" for missions that are not in one.
func (c Config) missionsDir() string {
	if c.missions != nil {
		return ""
	}
	dir := c.Game.MissionsDir
	if dir == "" {
		if st, err := os.Stat("missions"); err == nil && st.IsDir() {
			if _, err := os.Stat(filepath.Join("missions", "lib")); err == nil {
				dir = "missions"
			}
		}
	}
	return dir
}

// missionLib is the lib/ the modes' modules fall back to: the built-in
// one, for a folder of one's own (the stock rules the tutorial builds
// on), the one given with UseMissions.
func (c Config) missionLib() fs.FS {
	if c.missions != nil {
		return c.missions.lib
	}
	if c.missionsDir() == "" {
		return nil // the built-in missions have their own lib/
	}
	return missions.FS()
}

// missionsRoot is a missions folder given in code.
type missionsRoot struct {
	fsys, lib fs.FS
	name      string
}

// UseMissions makes the games take their modes from fsys (named name in
// logs and errors) in place of game.missions_dir, with lib, if not nil,
// as the lib/ their modules fall back to. Files given this way are not
// watched for changes. Tests and tools that carry their missions in
// memory use it.
func (c *Config) UseMissions(fsys, lib fs.FS, name string) {
	c.missions = &missionsRoot{fsys: fsys, lib: lib, name: name}
}
