// Package lua runs game modes written in Lua ("missions") on a game: one
// sandboxed gopher-lua state per game, owned by the game goroutine, fed
// with the engine's events and given the `bc` module to act on the game.
//
// A Runtime loads one mission folder (main.lua plus modules, and the shared
// lib/ folder) from an fs.FS, dispatches engine events to the handlers the
// mission registered with bc.on, and reloads it on demand: the new version
// is compiled and initialised in a fresh state first and replaces the old
// one only if that worked, carrying over the plain data in bc.storage. A
// Watcher turns file changes into reloads.
//
// No mission can stop or slow the server: every call runs under the
// sandbox's meter (lua/sandbox), which counts VM instructions and the bulk
// work of the Go functions a script calls (the pattern matcher, string and
// table functions) against the budget this package gives each call (per
// call, per tick, per load: accounting.go), and checks string sizes and
// the state's memory; source nesting is bounded before gopher-lua's
// recursive compiler sees it. What a mission sends
// is checked and rate limited per player (sends.go), its timers run in its
// own bounded heap (timers.go), its log lines are rate limited (logs.go).
// A new version loads transactionally: its effects on the game are staged
// and applied only once it loaded (sends.go, effect/apply).
//
// The Lua API is documented in docs/lua-api.md; LuaLS annotations are in
// lua/types.
package lua
