package server

import (
	"reflect"
	"strings"
	"testing"
)

// The one namespace rule: every plugin's section is the top-level table
// named as the plugin (the registry's name), its default file opens with
// that table, and every section of a plugin's type in Config is one the
// registry knows.
func TestPluginSections(t *testing.T) {
	byName := map[string]pluginSpec{}
	for _, pl := range plugins {
		if _, dup := byName[pl.name]; dup {
			t.Errorf("plugin %s registered twice", pl.name)
		}
		byName[pl.name] = pl
		if pl.add == nil && pl.serve == nil {
			t.Errorf("plugin %s neither joins a game nor serves", pl.name)
		}
		if pl.defaults != nil {
			tables := 0
			for _, l := range strings.Split(string(pl.defaults()), "\n") {
				l = strings.TrimSpace(l)
				if !strings.HasPrefix(l, "[") {
					continue
				}
				tables++
				name := strings.Trim(strings.TrimLeft(l, "["), " ")
				if !strings.HasPrefix(name, pl.name+"]") && !strings.HasPrefix(name, pl.name+".") {
					t.Errorf("plugin %s: its default section has the table %q: a plugin's tables are [%s] and under it", pl.name, l, pl.name)
				}
			}
			if tables == 0 {
				t.Errorf("plugin %s: its default section has no [%s]", pl.name, pl.name)
			}
		}
	}
	sections := map[string]bool{}
	ct := reflect.TypeOf(Config{})
	for i := range ct.NumField() {
		f := ct.Field(i)
		pkg := f.Type.PkgPath()
		plugin, ok := strings.CutPrefix(pkg, "github.com/bcserver/bcserver/plugins/")
		if !ok {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag != plugin {
			t.Errorf("Config.%s is plugins/%s's section as [%s]: a plugin's section is [%s]", f.Name, plugin, tag, plugin)
		}
		if pl, ok := byName[plugin]; !ok || pl.defaults == nil || pl.check == nil {
			t.Errorf("[%s]: the registry has no plugin %s with a section (defaults and check)", tag, plugin)
		}
		sections[plugin] = true
	}
	for _, pl := range plugins {
		if pl.defaults != nil && !sections[pl.name] {
			t.Errorf("plugin %s has a default section but Config has no [%s]", pl.name, pl.name)
		}
	}
	if len(sections) < 9 {
		t.Fatalf("found %d plugin sections in Config: the walk is broken", len(sections))
	}
}
