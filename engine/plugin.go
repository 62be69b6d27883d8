package engine

// Plugin is an optional server feature (discovery, heartbeats, metrics,
// admin). It sees the game through API: it subscribes to events with On,
// schedules work with After/Every and sends through it.
//
// Start and Stop run on the game goroutine. A plugin that needs other
// goroutines (DNS lookups, an HTTP listener) hands results back with
// API.Post.
type Plugin interface {
	// Name identifies the plugin in logs ("plugin/<name>").
	Name() string
	// Start is called once before the server takes traffic. An error stops
	// the server from starting.
	Start(g API) error
	// Stop is called once at shutdown, before the players are told.
	Stop(g API)
}
