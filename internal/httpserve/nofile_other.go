//go:build !unix

package httpserve

// descriptorLimit is unknown here: DefaultPoolSize assumes a generous
// one (Windows' handles are not a small table).
func descriptorLimit() int { return 0 }
