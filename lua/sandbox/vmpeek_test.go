package sandbox

import "testing"

// The meter's CONCAT/LEN checks and the memory walk's view of the stack
// read gopher-lua's unexported frame and register fields. If an upgrade
// moves them, the layout check turns the peek off; this test makes that
// loud.
func TestVMLayout(t *testing.T) {
	if !vmLayoutOK {
		t.Fatal("gopher-lua's callFrame/registry layout changed: update lua/vmpeek.go")
	}
}
