package admin

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/config"
	"github.com/bcserver/bcserver/internal/httpserve"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [admin] section of the default configuration file,
// with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [admin]: the HTTP API, the web console, /metrics and the
// health probes.
type Section struct {
	// Listen is the address of the HTTP server; empty turns it off.
	Listen string `toml:"listen"`
	// Token is the bearer token; empty means the one in TokenFile,
	// generated there at first start.
	Token     string `toml:"token"`
	TokenFile string `toml:"token_file"`
	// Tokens are more tokens with names and roles (viewer, moderator,
	// admin); every action is audited under the token's name.
	Tokens []Token `toml:"tokens"`
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the caller (in the audit lines and the connection caps).
	TrustedProxies []string `toml:"trusted_proxies"`
}

// Proxies returns the trusted proxies (Validate checked them).
func (s Section) Proxies() httpserve.Proxies {
	ps, _ := httpserve.ParseProxies("admin.trusted_proxies", s.TrustedProxies)
	return ps
}

// Validate reports bad values, naming their keys. Relative paths are
// relative to dir, the configuration file's folder.
func (s Section) Validate(dir config.Dir) error {
	if s.Listen == "" {
		return nil
	}
	var errs []error
	host, port, err := net.SplitHostPort(s.Listen)
	tokenFile := dir.Resolve(s.TokenFile)
	if err != nil {
		errs = append(errs, fmt.Errorf("admin.listen %q: want host:port", s.Listen))
	} else if s.Token == "" && !isLoopback(host) && !tokenFileHolds(tokenFile) {
		// A token the server generated is for a console on this machine;
		// beyond it the host chooses the token: in the configuration, the
		// environment, or a file it wrote (a container's volume, a mounted
		// secret).
		errs = append(errs, fmt.Errorf("admin.listen %q is not a loopback address: set admin.token (or BCSERVER_ADMIN_TOKEN), or write a token of at least 16 characters to admin.token_file (%s), to serve the admin API beyond this machine", s.Listen, tokenFile))
	} else if _, err := net.LookupPort("tcp", port); err != nil {
		errs = append(errs, fmt.Errorf("admin.listen %q: bad port", s.Listen))
	}
	if s.Token != "" && len(s.Token) < 16 {
		errs = append(errs, errors.New("admin.token: use at least 16 characters"))
	}
	if _, err := httpserve.ParseProxies("admin.trusted_proxies", s.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	if s.Token == "" && s.TokenFile == "" {
		errs = append(errs, errors.New("admin.token_file: empty with no admin.token"))
	}
	if err := validateTokens(s.Tokens); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// tokenFileHolds reports whether the token file exists and holds a token
// of at least 16 characters.
func tokenFileHolds(path string) bool {
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && len(strings.TrimSpace(string(b))) >= 16
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// LoadToken returns the configured token, or the one in the token file
// (relative to dir), generating and writing it (mode 0600) at first start.
func (s Section) LoadToken(dir config.Dir, log *slog.Logger) (string, error) {
	if s.Token != "" {
		return s.Token, nil
	}
	file := dir.Resolve(s.TokenFile)
	b, err := os.ReadFile(file)
	if err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) < 16 {
			return "", fmt.Errorf("admin token file %s: token shorter than 16 characters", file)
		}
		return tok, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reading the admin token: %w", err)
	}
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(raw[:])
	if err := os.WriteFile(file, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("writing the admin token: %w", err)
	}
	log.Info("admin token generated", "component", "plugin/admin", "file", file)
	return tok, nil
}
