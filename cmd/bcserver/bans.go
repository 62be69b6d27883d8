package main

import "github.com/bcserver/bcserver/plugins/admin"

// newBanList returns the admin API's view of the engine's ban list; nil
// (the ban endpoints answer 501) until the engine has one.
func newBanList() admin.Bans { return nil }
