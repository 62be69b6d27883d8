//go:build !linux

package main

// releaseStartupPages does nothing where the program file's pages cannot
// be released (see pages_linux.go).
func releaseStartupPages(bool) (int, error) { return 0, nil }
