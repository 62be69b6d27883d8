package record

import "testing"

// ValidID accepts the names recordings get and refuses anything that could
// leave the folder or is not a plain name.
func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"20261125-151200-22101-dm.bcr": true, "a": true, "A.b_c-9": true,
		"": false, ".hidden": false, "-x": false, "a..b": false, "a/b": false, `a\b`: false,
		"a b": false, "é": false, string(make([]byte, 121)): false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
	long := "a"
	for len(long) < 120 {
		long += "b"
	}
	if !ValidID(long) || ValidID(long+"c") {
		t.Error("the 120-character bound")
	}
}
