package server

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/lua"
)

// The mission runtime owns its limits' defaults (lua.Default*); the
// default file's [lua] section shows them to the host, and must say what
// the runtime would use anyway: a default changed in one place and not
// the other fails here.
func TestLuaDefaultsAreTheRuntimes(t *testing.T) {
	o, err := DefaultConfig().Lua.options()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.Limits.Filled(), (lua.Limits{}).Filled(); got != want {
		t.Fatalf("the default file's [lua] runs as\n%+v\nthe runtime's defaults are\n%+v", got, want)
	}
	if o.Limits.Budget != lua.DefaultBudget || o.Limits.TickBudget != lua.DefaultTickBudget {
		t.Fatalf("budgets %v/%v: the default file must set them (%v/%v)", o.Limits.Budget, o.Limits.TickBudget, lua.DefaultBudget, lua.DefaultTickBudget)
	}
}

// A game's [lua] is checked and converted once (Config.runtime): the
// options its mission runs with are the ones the check saw.
func TestLuaSectionConvertedOnce(t *testing.T) {
	c := DefaultConfig()
	c.Lua.Budget = Duration(7e6)
	_, lo, err := c.runtime()
	if err != nil {
		t.Fatal(err)
	}
	if lo.Limits.Budget != 7e6 {
		t.Fatalf("budget %v, want 7ms", lo.Limits.Budget)
	}
	c.Lua.Budget = Duration(-1)
	if _, _, err := c.runtime(); err == nil {
		t.Fatal("a negative budget passed")
	}
}

// The recording's keyframe default is the capture's (capture.DefaultKeyframe),
// which the default file shows.
func TestKeyframeDefaultIsTheCaptures(t *testing.T) {
	if got := time.Duration(DefaultConfig().Record.Keyframe); got != capture.DefaultKeyframe {
		t.Fatalf("record.keyframe %v, the capture's default %v", got, capture.DefaultKeyframe)
	}
}
