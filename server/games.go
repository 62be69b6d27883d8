package server

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"strconv"
)

// GameTable is one [[games]] table: one more game in this process, on its
// own port, with its own mission. A key left out takes the top-level
// value ([server], [game], [mission]); every other section is shared.
type GameTable struct {
	Port            *int      `toml:"port"`
	Address         *string   `toml:"address"`
	Name            *string   `toml:"name"`
	Mode            *string   `toml:"mode"`
	MaxPlayers      *int      `toml:"max_players"`
	Password        *string   `toml:"password"`
	MissionsDir     *string   `toml:"missions_dir"`
	Addons          *[]string `toml:"addons"`
	JoinInProgress  *bool     `toml:"join_in_progress"`
	CollisionDamage *bool     `toml:"collision_damage"`
	// Mission keys are merged over the top-level [mission] table.
	Mission MissionSection `toml:"mission"`
	// Mod, when present, replaces the top-level [mod] table whole.
	Mod *ModSection `toml:"mod"`
	// Rotation, when present, replaces the top-level [[rotation]].
	Rotation *[]RotationStep `toml:"rotation"`
}

// maxGames bounds one process; more games scale by more processes.
const maxGames = 1024

// games returns the configuration of every game the process runs: the
// top-level one alone, its -games copies on consecutive ports, or one per
// [[games]] table.
func (c Config) games() ([]Config, error) {
	out, err := c.gameTables()
	for i := range out {
		out[i].applyRotation()
	}
	return out, err
}

// gameTables is games before each game's rotation picks its first step.
func (c Config) gameTables() ([]Config, error) {
	base := c
	base.Games, base.copies = nil, 0
	switch {
	case len(c.Games) > 0 && c.copies > 1:
		return nil, errors.New("-games copies the top-level game; the configuration has [[games]] tables: use one or the other")
	case len(c.Games) > maxGames || c.copies > maxGames:
		return nil, fmt.Errorf("more than %d games in one process: run more processes", maxGames)
	case c.copies > 1:
		if c.Server.Port == 0 {
			return nil, errors.New("-games needs a fixed server.port to count from")
		}
		if c.Server.Port+c.copies-1 > 65535 {
			return nil, fmt.Errorf("-games %d from port %d runs past 65535", c.copies, c.Server.Port)
		}
		out := make([]Config, c.copies)
		for i := range out {
			g := base
			g.Mission = maps.Clone(c.Mission)
			g.Server.Port = c.Server.Port + i
			out[i] = g
		}
		return out, nil
	case len(c.Games) == 0:
		return []Config{base}, nil
	}
	out := make([]Config, 0, len(c.Games))
	seen := map[string]int{}
	for i, t := range c.Games {
		g := base
		g.Mission = maps.Clone(c.Mission)
		set(&g.Server.Port, t.Port)
		set(&g.Server.Address, t.Address)
		set(&g.Server.Name, t.Name)
		set(&g.Game.Mode, t.Mode)
		set(&g.Server.MaxPlayers, t.MaxPlayers)
		set(&g.Server.Password, t.Password)
		set(&g.Game.Addons, t.Addons)
		set(&g.Game.JoinInProgress, t.JoinInProgress)
		set(&g.Game.CollisionDamage, t.CollisionDamage)
		set(&g.Mod, t.Mod)
		set(&g.Rotation, t.Rotation)
		if t.MissionsDir != nil {
			g.Game.MissionsDir = *t.MissionsDir
			g.Game.MissionsDir = c.dir.Resolve(g.Game.MissionsDir)
		}
		if g.Mission == nil && len(t.Mission) > 0 {
			g.Mission = MissionSection{}
		}
		maps.Copy(g.Mission, t.Mission)
		if g.Server.Port != 0 {
			key := net.JoinHostPort(g.Server.Address, strconv.Itoa(g.Server.Port))
			if j, dup := seen[key]; dup {
				return nil, fmt.Errorf("games[%d] and games[%d] both use %s", j, i, key)
			}
			seen[key] = i
		}
		out = append(out, g)
	}
	return out, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
