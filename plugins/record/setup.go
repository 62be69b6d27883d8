package record

import (
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/bcserver/bcserver/config"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [record] section of the default configuration file,
// with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [record]: a recording of every match (docs/replay-format.md).
type Section struct {
	// Enabled turns recording on; it records when Dir, or the match
	// history's file ([store] path), is set.
	Enabled bool `toml:"enabled"`
	// Dir holds the recordings; empty means "recordings" beside the
	// match history's file.
	Dir      string          `toml:"dir"`
	KeepDays int             `toml:"keep_days"`
	MaxFile  config.ByteSize `toml:"max_file"`
	MaxTotal config.ByteSize `toml:"max_total"`
	Keyframe config.Duration `toml:"keyframe"`
}

// Validate reports bad values, naming their keys.
func (s Section) Validate() error {
	var errs []error
	if s.KeepDays < 0 || s.MaxFile < 0 || s.MaxTotal < 0 {
		errs = append(errs, errors.New("record: keep_days, max_file and max_total must not be negative"))
	}
	if s.MaxFile > 0 && s.MaxFile < 64<<10 {
		errs = append(errs, errors.New("record.max_file: at least 64KiB"))
	}
	if k := time.Duration(s.Keyframe); k != 0 && (k < time.Second || k > time.Minute) {
		errs = append(errs, fmt.Errorf("record.keyframe %v: want 1s..1m", k))
	}
	return errors.Join(errs...)
}

// Folder is where recordings go, "" for nowhere: Dir, or "recordings"
// beside storePath (the match history's file; "" for none), relative paths
// being relative to dir.
func (s Section) Folder(dir config.Dir, storePath string) string {
	if !s.Enabled {
		return ""
	}
	if s.Dir != "" {
		return dir.Resolve(s.Dir)
	}
	if storePath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(dir.Resolve(storePath)), "recordings")
}

// Setup opens the recordings folder (Folder) and sweeps it, or returns
// nil when the section records nowhere.
func Setup(s Section, dir config.Dir, storePath string, log *slog.Logger) (*Archive, error) {
	folder := s.Folder(dir, storePath)
	if folder == "" {
		return nil, nil
	}
	a, err := NewArchive(ArchiveOptions{Dir: folder, MaxFileBytes: int64(s.MaxFile), MaxTotalBytes: int64(s.MaxTotal),
		Keep: time.Duration(s.KeepDays) * 24 * time.Hour, Logger: log})
	if err != nil {
		return nil, err
	}
	a.Sweep("")
	log.Info("recording every match", "component", "plugin/record", "dir", folder)
	return a, nil
}
