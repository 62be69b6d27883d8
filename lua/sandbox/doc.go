// Package sandbox is the trust boundary of the Lua runtime: everything that
// keeps a guest script from stopping or exhausting the server, with no
// knowledge of missions, games or the bc API.
//
//   - Meter (budget.go) is the context every call into a state runs under:
//     it counts VM instructions and the bulk work of the Go functions a
//     script calls against the call's time budget (wall clock, or virtual
//     time for tests), checks string sizes before CONCAT runs, and bounds
//     the array padding one assignment may cause.
//   - Memory (memory.go) estimates what a state holds and stops it at its
//     limit.
//   - The VM peek (vmpeek.go, callname.go) reads gopher-lua's unexported
//     frame and register layout to bound instructions before they run and
//     to name the callee of a failed call. It is the module's only use of
//     unsafe on the Lua side, checked against the gopher-lua it was
//     written for (TestVMLayout), and turns itself off if the layout moves.
//   - Compile (syntax.go) bounds source nesting before gopher-lua's
//     recursive compiler sees it, and trims compiled prototypes.
//   - Open (open.go) opens the allow-listed standard library, with load
//     taking source text only, and the pattern matcher (pattern.go,
//     patternlib.go) and the string and table functions (strlib.go) that
//     charge their work to the meter; JSON (jsonlib.go) is bc.json.
//
// The lua package builds a mission's state on it and decides the budgets:
// per call, per tick, per load (lua/accounting.go).
package sandbox
