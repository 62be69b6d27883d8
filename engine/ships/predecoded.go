package ships

import (
	"io/fs"
	"reflect"
)

// predecoded is a data folder whose JSON files were decoded ahead of time:
// readJSON takes a listed file's value from files instead of parsing it.
// Parsing the stock data set's 440 KB of JSON was most of a cold start
// (BenchmarkLoadVanilla); every check after the parse (buildClass,
// validateProjectile, ...) still runs on the values, so a bad value is
// reported exactly as from the file. Files not listed are read from FS.
//
// The only predecoded folder is the embedded vanilla set; its values are
// vanilla_decoded.go, which TestVanillaDecoded writes with -update from the
// embedded files (make sync-shared does) and otherwise checks is current.
type predecoded struct {
	fs.FS
	// files maps a path to a *T holding what readJSON would decode the
	// file into, T being the type it decodes that file into.
	files map[string]any
}

// decode sets *v to the predecoded value of name, if there is one of v's
// type. The value's slices are shared between loads: like the Registry
// built from them they are read-only.
func (p predecoded) decode(name string, v any) bool {
	d, ok := p.files[name]
	if !ok {
		return false
	}
	dv, tv := reflect.ValueOf(d), reflect.ValueOf(v)
	if dv.Type() != tv.Type() || tv.IsNil() {
		return false
	}
	tv.Elem().Set(dv.Elem())
	return true
}
