package httpserve

// Sizes of the default pool.
const (
	// AdminReserve is the part of the pool only the admin listener may
	// use: the console, the API, /metrics and /healthz answer while the
	// public listener is full.
	AdminReserve = 64
	// descriptorsKept are descriptors the pool leaves to everything else
	// of the process: each game's socket and event descriptors, the
	// database, recordings being written, the mission watchers, log files.
	descriptorsKept = 256
	// perGameDescriptors are what each game adds to that.
	perGameDescriptors = 8
	// maxPool bounds the pool where the descriptor limit is unknown or
	// huge: each open connection costs memory (a goroutine, buffers).
	maxPool = 8192
	minPool = 2 * AdminReserve
)

// DefaultPoolSize is the pool for a process of games games: what the
// descriptor limit leaves after the process's own needs, at most 8192
// and at least 128.
func DefaultPoolSize(games int) int {
	n := descriptorLimit()
	if n <= 0 {
		return maxPool
	}
	n -= descriptorsKept + perGameDescriptors*games
	return max(minPool, min(maxPool, n))
}
