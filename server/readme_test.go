package server

import (
	"os"
	"strings"
	"testing"
)

// The README's embedding example is example_test.go, which go test
// compiles and runs (its output checked): the two must not drift apart.
func TestREADMEEmbeddingExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(ex)+"```") {
		t.Fatal("README's embedding example differs from server/example_test.go: copy the file into the README's go block")
	}
}
