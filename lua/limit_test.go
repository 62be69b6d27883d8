package lua_test

import (
	"testing"

	"github.com/bcserver/bcserver/lua"
)

// bc.msg.mission_init announces the server's enforced player limit unless
// the mission names one (missions.md 2.3: MISSION_INIT byte 1).
func TestMissionInitAnnouncesEnforcedLimit(t *testing.T) {
	for _, tc := range []struct {
		limit int
		call  string
		want  byte
	}{
		{0, `bc.msg.mission_init{system = 1}`, 8},
		{16, `bc.msg.mission_init{system = 1}`, 16},
		{5, `bc.msg.mission_init{system = 1}`, 5},
		{5, `bc.msg.mission_init{system = 1, player_limit = 3}`, 3},
	} {
		e := mustOpen(t, `bc.on("player_joined", function(ev) bc.send(ev.player.id, `+tc.call+`) end)`, lua.Options{}, nil)
		e.Limit = tc.limit
		e.Join(2, "A")
		got := e.sent()
		if len(got) != 1 || got[0] != string([]byte{0x35, tc.want, 0x01, 0xFF, 0xFF}) {
			t.Errorf("limit %d, %s: %q", tc.limit, tc.call, got)
		}
	}
}
