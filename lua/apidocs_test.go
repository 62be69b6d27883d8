package lua

import (
	"os"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/lua/luatest"
)

// Every bc function and every ship handle method is documented in
// docs/lua-api.md and annotated in types/bc.lua, and every event a mission
// can subscribe to is listed in both.
func TestAPIDocumented(t *testing.T) {
	docs, err := os.ReadFile("../docs/lua-api.md")
	if err != nil {
		t.Fatal(err)
	}
	stubs, err := os.ReadFile("types/bc.lua")
	if err != nil {
		t.Fatal(err)
	}
	e := luatest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	h := New(e, Options{Mode: "m", FS: fstest.MapFS{"m/main.lua": {Data: []byte("")}}, Limits: Limits{StepTime: 100 * time.Nanosecond}})
	if err := h.Open(); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var fns []string
	h.cur.bc.ForEach(func(k, v glua.LValue) {
		if _, ok := v.(*glua.LFunction); ok {
			fns = append(fns, k.String())
		}
	})
	sort.Strings(fns)
	for _, name := range fns {
		if !strings.Contains(string(docs), "`bc."+name+"(") && !strings.Contains(string(docs), "`bc."+name+"{") {
			t.Errorf("docs/lua-api.md does not document bc.%s", name)
		}
		if !strings.Contains(string(stubs), "function bc."+name+"(") {
			t.Errorf("types/bc.lua does not annotate bc.%s", name)
		}
	}
	for name := range h.cur.shipMethods {
		if !strings.Contains(string(docs), "`ship:"+name+"(") && !strings.Contains(string(docs), "`ship:"+name+"{") {
			t.Errorf("docs/lua-api.md does not document ship:%s", name)
		}
		if !strings.Contains(string(stubs), "function Ship:"+name+"(") {
			t.Errorf("types/bc.lua does not annotate ship:%s", name)
		}
	}
	for _, ev := range Events() {
		if !strings.Contains(string(docs), "`"+ev+"`") {
			t.Errorf("docs/lua-api.md does not list the event %s", ev)
		}
		if !strings.Contains(string(stubs), `"`+ev+`"`) {
			t.Errorf("types/bc.lua does not list the event %s", ev)
		}
	}
}
