package server

import (
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/fairplay"
)

// [fairplay] reaches the engine: the escalation for every rule, a rule's
// table overriding it, the tolerances; unknown keys and unusable values
// are errors that name them.
func TestFairPlayConfig(t *testing.T) {
	for _, tt := range []struct {
		name, toml string
		check      func(t *testing.T, c fairplay.Config)
		err        string
	}{
		{"defaults", "", func(t *testing.T, c fairplay.Config) {
			if c != fairplay.DefaultConfig() {
				t.Errorf("defaults differ from the engine's:\n%+v\n%+v", c, fairplay.DefaultConfig())
			}
		}, ""},
		{"per rule", "[fairplay]\nnotify = 10\n[fairplay.teleport]\nkick = 5\nban = 20\nban_for = \"2h\"\n", func(t *testing.T, c fairplay.Config) {
			tp, sp := c.Policy.Rules[fairplay.Teleport], c.Policy.Rules[fairplay.Speed]
			if tp.Kick != 5 || tp.Ban != 20 || tp.BanFor != 2*time.Hour || tp.Notify != 10 || tp.Drop != 1 {
				t.Errorf("teleport %+v", tp)
			}
			if sp.Kick != 0 || sp.Notify != 10 {
				t.Errorf("speed %+v", sp)
			}
		}, ""},
		{"tolerances", "[fairplay]\nfire_lag = \"8s\"\njitter = \"500ms\"\nrate_scale = 3.0\n", func(t *testing.T, c fairplay.Config) {
			if c.Tolerances.FireLag != 8*time.Second || c.Tolerances.Jitter != 500*time.Millisecond || c.RateScale != 3 {
				t.Errorf("%+v", c)
			}
		}, ""},
		{"off", "[fairplay]\nenabled = false\n", func(t *testing.T, c fairplay.Config) {
			if !c.Off {
				t.Error("enabled = false left the rules on")
			}
		}, ""},
		{"unknown rule", "[fairplay.wallhack]\nkick = 1\n", nil, "fairplay.wallhack"},
		{"unknown key", "[fairplay.speed]\nkik = 1\n", nil, "fairplay.speed.kik"},
		{"negative", "[fairplay]\nspeed_slack = -1.0\n", nil, "speed_slack"},
		{"ban without time", "[fairplay.arc]\nban = 1\nban_for = \"0s\"\n", nil, "ban_for"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			err := decodeStrict([]byte(tt.toml), &c)
			if err == nil {
				var fp fairplay.Config
				fp, err = c.FairPlay.runtime()
				if err == nil && tt.check != nil {
					tt.check(t, fp)
				}
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one naming %q", err, tt.err)
			}
		})
	}
}
