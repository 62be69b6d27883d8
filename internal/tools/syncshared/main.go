// Command syncshared refreshes the repo's copies of the shared reference
// folder (vectors, the vanilla data set, the hash manifest) from the folder
// beside the checkout, or from -shared. `make sync-shared` runs it; the
// list of copies is vectors.Copies, which the drift test also uses.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/bcserver/bcserver/internal/vectors"
)

func main() {
	sharedFlag := flag.String("shared", "", "shared reference folder (default: the shared folder beside the module)")
	flag.Parse()
	if err := run(*sharedFlag); err != nil {
		slog.Error("sync-shared failed", "err", err)
		os.Exit(1)
	}
}

func run(shared string) error {
	root, err := vectors.ModuleRoot()
	if err != nil {
		return err
	}
	if shared == "" {
		var ok bool
		if shared, ok = vectors.SharedDir(); !ok {
			return fmt.Errorf("no shared folder beside %s; pass -shared DIR", root)
		}
	}
	changed := 0
	for _, c := range vectors.Copies() {
		lines, err := vectors.Sync(root, shared, c)
		if err != nil {
			return fmt.Errorf("syncing %s -> %s: %w", c.Shared, c.Repo, err)
		}
		for _, l := range lines {
			fmt.Println(l)
		}
		changed += len(lines)
	}
	fmt.Printf("sync-shared: %d file(s) refreshed from %s\n", changed, shared)
	return nil
}
