package lua

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// The weapon groups and kinds a mission sees are the Go tables' (world.Groups,
// ships.Weapons): a new kind of weapon fails here until types/bc.lua and
// docs/lua-api.md name it, where a mission author looks.
func TestWeaponVocabularyDocumented(t *testing.T) {
	stubs, err := os.ReadFile("types/bc.lua")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile("../docs/lua-api.md")
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile(`"([a-z_]*)"`)
	alias := func(line string) []string {
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
		return out
	}
	lineOf := func(prefix string) string {
		for l := range strings.Lines(string(stubs)) {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("types/bc.lua: no line %q", prefix)
		return ""
	}
	if got, want := alias(lineOf("---@alias bc.WeaponGroup ")), world.Groups(); !slices.Equal(got, want) {
		t.Errorf("types/bc.lua bc.WeaponGroup lists %q, the host's groups are %q", got, want)
	}
	// weapon_fired names every kind of weapon the ship data has.
	var kinds []string
	for _, w := range ships.Weapons() {
		kinds = append(kinds, w.String())
	}
	lineOf("---@class bc.WeaponFiredEvent")
	var fired []string
	var inFired bool
	for l := range strings.Lines(string(stubs)) {
		switch {
		case strings.HasPrefix(l, "---@class bc.WeaponFiredEvent"):
			inFired = true
		case inFired && strings.HasPrefix(l, "---@field kind "):
			fired = alias(l)
			inFired = false
		}
	}
	if got := slices.DeleteFunc(fired, func(s string) bool { return s == "" }); !slices.Equal(got, kinds) {
		t.Errorf("types/bc.lua bc.WeaponFiredEvent kind lists %q, the ship data's weapons are %q", got, kinds)
	}
	// docs/lua-api.md: fire_at's groups and weapon_fired's kinds.
	for _, g := range world.Groups() {
		if !strings.Contains(string(docs), "`\""+g+"\"`") {
			t.Errorf("docs/lua-api.md: fire_at does not name the group %q", g)
		}
	}
	for l := range strings.Lines(string(docs)) {
		if strings.HasPrefix(l, "| `weapon_fired` ") {
			for _, k := range kinds {
				if !strings.Contains(l, "`"+k+"`") {
					t.Errorf("docs/lua-api.md: weapon_fired does not name the kind %q", k)
				}
			}
		}
	}
}
