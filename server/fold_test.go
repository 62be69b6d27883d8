package server

import (
	"testing"

	"github.com/bcserver/bcserver/plugins/admin"
)

// lookAlikes are the spellings of "Alice" every name comparison takes for
// it (names.Key, the one fold): full width, and with a zero-width space.
var lookAlikes = []string{"Ａｌｉｃｅ", "Al\u200bice"}

// The admin API's bans compare names as admission does: with "Alice"
// banned, banning a look-alike adds nothing (and says so), and lifting a
// look-alike lifts "Alice" (issue 39: the API folded A..Z only, reported
// added=true for "Ａｌｉｃｅ" while the engine added nothing, and then said
// "not banned" when asked to lift it).
func TestAdminBansFoldNames(t *testing.T) {
	a := serveAdmin(t, nil)
	for _, look := range lookAlikes {
		var got struct {
			Banned []admin.Ban `json:"banned"`
		}
		if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]string{"name": "Alice"}, &got); code != 200 {
			t.Fatalf("ban Alice: %d", code)
		}
		if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]string{"name": look}, &got); code != 200 || len(got.Banned) != 0 {
			t.Fatalf("ban %q with Alice banned: %d, added %+v; want nothing added", look, code, got.Banned)
		}
		var list []admin.Ban
		if code := a.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || banNames(list) != "name:Alice" {
			t.Fatalf("bans after %q: %d %s", look, code, banNames(list))
		}
		if code := a.call(t, "POST", "/api/v1/unban", testToken, map[string]string{"name": look}, nil); code != 200 {
			t.Fatalf("unban %q with Alice banned: %d", look, code)
		}
		if code := a.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || len(list) != 0 {
			t.Fatalf("bans after lifting %q: %d %s", look, code, banNames(list))
		}
	}
}

// The admin API's mute (and every action that names a player: kick, ban
// by player) finds a player by a look-alike of his name.
func TestAdminMuteFoldsNames(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	for _, look := range lookAlikes {
		var got struct {
			Player admin.PlayerInfo `json:"player"`
			Muted  bool             `json:"muted"`
		}
		if code := a.call(t, "POST", "/api/v1/mute", testToken, map[string]any{"player": look}, &got); code != 200 || got.Player.ID != int(alice.ID()) || !got.Muted {
			t.Fatalf("mute %q: %d %+v; want Alice (%d) muted", look, code, got, alice.ID())
		}
		if !a.status(t).Players[0].Muted {
			t.Fatalf("mute %q: Alice not muted in the status", look)
		}
		if code := a.call(t, "POST", "/api/v1/mute", testToken, map[string]any{"player": look, "mute": false}, &got); code != 200 || got.Muted {
			t.Fatalf("unmute %q: %d %+v", look, code, got)
		}
	}
}
