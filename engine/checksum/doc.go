// Package checksum implements the server side of the stock join-time
// checksum exchange (handshake.md 2.2-2.4, 3): the StringHash and FileHash
// algorithms, the five stock requests, manifests of expected hashes (so the
// server needs no game files), validation of client responses, the answers
// a client with known files would give, and a builder that hashes a real
// installation the way a stock client does.
//
// The package holds no mutable state: the hash tables are constants, the
// request list is built fresh on every call, and a Manifest is only read by
// Check and Answer, so one Manifest can serve every game goroutine.
package checksum
