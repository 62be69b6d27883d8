// Package httpserve runs the process's HTTP listeners (the admin API with
// /metrics and the probes, the public spectator page) so that no stranger
// can take them down: read, write and idle timeouts; a cap on the
// connections one address holds open and a total cap shared by the
// listeners, in which the admin listener keeps a reserve of its own so
// the orchestrator's /healthz and the host's console still answer while
// the public page is flooded; connections over a cap are answered 503 and
// closed at once; requests rate-limited per address in a table that
// forgets the least recently seen address rather than refusing new ones
// (IPv6 addresses are counted by their /64, what one subscriber gets);
// X-Forwarded-For believed only from the host's own proxies. Every
// refusal is counted (Stats, for /metrics) and logged at most once per
// LogEvery per listener.
package httpserve
