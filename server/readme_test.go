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

// The README's community-server configuration is one file the server
// takes as it is.
func TestREADMECommunityConfig(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- community-config -->\n```toml\n")
	if !ok {
		t.Fatal("no community configuration in the README")
	}
	block, _, _ := strings.Cut(rest, "```")
	c := DefaultConfig()
	if err := decodeStrict([]byte(block), &c); err != nil {
		t.Fatal(err)
	}
	specs, err := c.games()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := specs[0].Runtime(); err != nil {
		t.Fatal(err)
	}
	if !c.Accounts.Enabled || !c.Ratings.Balance || len(c.Rotation) != 3 || len(c.Admin.Tokens) != 2 || specs[0].Game.Mode != "team-deathmatch" {
		t.Fatalf("%+v", c)
	}
}
