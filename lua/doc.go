// Package lua runs game modes written in Lua ("missions") on a game: one
// sandboxed gopher-lua state per game, owned by the game goroutine, fed
// with the engine's events and given the `bc` module to act on the game.
//
// A Host loads one mission folder (main.lua plus modules, and the shared
// lib/ folder) from an fs.FS, dispatches engine events to the handlers the
// mission registered with bc.on, and reloads it on demand: the new version
// is compiled and initialised in a fresh state first and replaces the old
// one only if that worked, carrying over the plain data in bc.storage. A
// Watcher turns file changes into reloads.
//
// The Lua API is documented in docs/lua-api.md; LuaLS annotations are in
// lua/types.
package lua
