// Package bcserver is the map of the module: a dedicated server for Star
// Trek: Bridge Commander 1.1 multiplayer. It holds no code; its test
// (deps_test.go) keeps the packages layered, each importing only from its
// own layer or the ones below:
//
//	cmd/bcserver, cmd/bcbot, cmd/bchash      binaries: flags and subcommands
//	internal/missiontest, internal/replaytest the mission test runner (over server)
//	server                                   a process: configuration, games, plugins in order, SIGHUP, shutdown
//	lua          plugins/<name>              missions in Lua | optional Go features (neither imports the other)
//	engine, engine/*, internal/bot           games: sessions, routing, the world | our test client
//	net, internal/lossy                      the UDP transport | the lossy proxy
//	codec, config, missions, internal/...    wire formats, configuration values, the built-in modes (leaves)
//
// The README's "Development" section says which package to open for the
// common changes.
package bcserver
