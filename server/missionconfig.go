package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// check validates the [mission] keys bcserver knows (missions.md 3.2 and
// the stock quirk flags) and returns what the engine announces before the
// mission does.
func (ms MissionSection) check() (engine.Mission, error) {
	m := engine.Mission{System: "Multi1", TimeLimit: -1, FragLimit: -1}
	var errs []error
	intKey := func(key string, ok func(int64) bool, want string) (int, bool) {
		v, present := ms[key]
		if !present {
			return 0, false
		}
		n, isInt := v.(int64)
		if !isInt || !ok(n) {
			errs = append(errs, fmt.Errorf("mission.%s = %s: want %s", key, describe(v), want))
			return 0, false
		}
		return int(n), true
	}
	limit := func(n int64) bool { return n == -1 || n >= 1 && n <= 254 }
	if v, ok := ms["system"]; ok {
		s, _ := v.(string)
		if lua.SystemIndex(s) == 0 {
			errs = append(errs, fmt.Errorf("mission.system = %s: want one of %s", describe(v), strings.Join(lua.Systems(), ", ")))
		} else {
			m.System = s
		}
	}
	if n, ok := intKey("time_limit", limit, "-1 (none) or minutes 1..254 (stock menus: 5..45)"); ok {
		m.TimeLimit = n
	}
	if n, ok := intKey("frag_limit", limit, "-1 (none) or 1..254 (stock menus: 1..10)"); ok {
		m.FragLimit = n
	}
	if _, ok := ms["player_limit"]; ok {
		// One rule: the limit the server enforces is the one missions
		// announce in MISSION_INIT.
		errs = append(errs, errors.New("mission.player_limit is gone: the player limit is server.max_players, which missions announce in MISSION_INIT and the server enforces"))
	}
	intKey("restart_after", func(n int64) bool { return n >= -1 && n <= 86400 }, "seconds, 0 or -1 = never")
	for _, key := range []string{"stock_killer_score_quirk", "stock_skip_weapon_kill_score_change", "stock_teams_reset_on_restart", "check_faction_ships"} {
		if v, ok := ms[key]; ok {
			if _, isBool := v.(bool); !isBool {
				errs = append(errs, fmt.Errorf("mission.%s = %s: want true or false", key, describe(v)))
			}
		}
	}
	return m, errors.Join(errs...)
}

// describe shows a TOML value as the host wrote it, with its type, so
// frag_limit = "2" does not read like a valid 2.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q (a string)", v)
	case int64:
		return fmt.Sprintf("%d (an integer)", v)
	case float64:
		return fmt.Sprintf("%v (a float)", v)
	case bool:
		return fmt.Sprintf("%v (a boolean)", v)
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%v (%T)", v, v)
}
