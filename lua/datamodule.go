package lua

import (
	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/ships"
)

// DataModule builds, in L, a bc table holding what of the mission API is
// plain data: bc.END, bc.OP, bc.INVALID_TEAM, bc.NO_LIMIT, bc.host_id,
// bc.species, bc.systems, bc.modifier, and bc.ship_classes() and
// bc.ship_class(class) over reg. States that are not missions use it: the
// mission test runner gives it to test files, so a test reads
// bc.END.TIME_UP as the mission does.
func DataModule(L *glua.LState, reg *ships.Registry) *glua.LTable {
	bc := L.NewTable()
	constants(L, bc)
	dataTables(L, bc)
	bc.RawSetString("host_id", glua.LNumber(HostID))
	bc.RawSetString("ship_classes", L.NewFunction(func(L *glua.LState) int {
		t := L.NewTable()
		if reg != nil {
			for _, c := range reg.Classes() {
				t.Append(classTable(L, c))
			}
		}
		L.Push(t)
		return 1
	}))
	bc.RawSetString("ship_class", L.NewFunction(func(L *glua.LState) int {
		c, err := findClass(reg, L.Get(1))
		if err != nil {
			L.RaiseError("bc.ship_class: %v", err)
		}
		L.Push(classTable(L, c))
		return 1
	}))
	return bc
}
