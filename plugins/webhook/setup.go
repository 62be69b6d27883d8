package webhook

import (
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bcserver/bcserver/config"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [webhook] section of the default configuration file,
// with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Event kinds a host may choose in [webhook] events.
const (
	EventMatchEnd   = "match_end"
	EventJoin       = "join"
	EventLeave      = "leave"
	EventServerUp   = "server_up"
	EventServerDown = "server_down"
	// EventViolation: a player's fair-play violation that reached its
	// rule's notify step (README, "Fair play").
	EventViolation = "violation"
)

var eventKinds = []string{EventMatchEnd, EventJoin, EventLeave, EventServerUp, EventServerDown, EventViolation}

// Formats of the body.
const (
	FormatDiscord = "discord"
	FormatJSON    = "json"
)

// Section is [webhook].
type Section struct {
	// URL is where to POST; it usually holds a secret (a Discord
	// webhook's token is in its path), so URLFile or the environment
	// (BCSERVER_WEBHOOK_URL) keep it out of the configuration file.
	URL         string          `toml:"url"`
	URLFile     string          `toml:"url_file"`
	Format      string          `toml:"format"`
	Events      []string        `toml:"events"`
	ReplayLink  string          `toml:"replay_link"`
	MinInterval config.Duration `toml:"min_interval"`
	Queue       int             `toml:"queue"`
	Timeout     config.Duration `toml:"timeout"`
	Retries     int             `toml:"retries"`
	Backoff     config.Duration `toml:"backoff"`
	MaxBackoff  config.Duration `toml:"max_backoff"`
}

// Off reports whether the section sends nothing.
func (s Section) Off() bool { return s.URL == "" && s.URLFile == "" }

// Wants reports whether the host chose the event kind.
func (s Section) Wants(kind string) bool { return slices.Contains(s.Events, kind) }

// Validate reports bad values, naming their keys. It does not read
// url_file (Resolve does, at start).
func (s Section) Validate() error {
	var errs []error
	if s.URL != "" && s.URLFile != "" {
		errs = append(errs, errors.New("webhook.url, webhook.url_file: set one"))
	}
	if s.URL != "" {
		if err := checkURL(s.URL); err != nil {
			errs = append(errs, fmt.Errorf("webhook.url: %w", err))
		}
	}
	if s.Format != FormatDiscord && s.Format != FormatJSON {
		errs = append(errs, fmt.Errorf("webhook.format %q: want discord or json", s.Format))
	}
	for _, e := range s.Events {
		if !slices.Contains(eventKinds, e) {
			errs = append(errs, fmt.Errorf("webhook.events: %q: want any of %s", e, strings.Join(eventKinds, ", ")))
		}
	}
	if s.ReplayLink != "" {
		if err := checkURL(s.ReplayLink); err != nil {
			errs = append(errs, fmt.Errorf("webhook.replay_link: %w", err))
		}
	}
	if s.MinInterval < 0 || s.Timeout <= 0 || s.Backoff < 0 || s.MaxBackoff < s.Backoff {
		errs = append(errs, errors.New("webhook.min_interval, timeout, backoff, max_backoff: want min_interval >= 0, timeout > 0, 0 <= backoff <= max_backoff"))
	}
	if s.Queue < 1 || s.Queue > 10000 {
		errs = append(errs, fmt.Errorf("webhook.queue %d: want 1..10000", s.Queue))
	}
	if s.Retries < 0 || s.Retries > 20 {
		errs = append(errs, fmt.Errorf("webhook.retries %d: want 0..20", s.Retries))
	}
	return errors.Join(errs...)
}

// checkURL accepts an absolute http(s) URL; the error never repeats the
// URL, which may hold a secret.
func checkURL(s string) error {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return errors.New("want an absolute http:// or https:// URL")
	}
	return nil
}

// Options turns the section into the sender's options, reading url_file
// (relative to dir) when set.
func (s Section) Options(dir config.Dir) (Options, error) {
	o := Options{
		URL:         strings.TrimSpace(s.URL),
		Format:      s.Format,
		MinInterval: time.Duration(s.MinInterval),
		Queue:       s.Queue,
		Timeout:     time.Duration(s.Timeout),
		Retries:     s.Retries,
		Backoff:     time.Duration(s.Backoff),
		MaxBackoff:  time.Duration(s.MaxBackoff),
	}
	if s.URLFile != "" {
		b, err := readSecret(dir.Resolve(s.URLFile))
		if err != nil {
			return o, fmt.Errorf("webhook.url_file: %w", err)
		}
		o.URL = b
		if err := checkURL(o.URL); err != nil {
			return o, fmt.Errorf("webhook.url_file %s: %w", s.URLFile, err)
		}
	}
	return o, nil
}

// readSecret reads a small file holding one line.
func readSecret(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, 4097)
	n, _ := f.Read(buf)
	if n > 4096 {
		return "", fmt.Errorf("%s: longer than 4 KiB", path)
	}
	return strings.TrimSpace(string(buf[:n])), nil
}
