package gamespy

import (
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/config"
	"github.com/bcserver/bcserver/internal/browse"
)

func TestConfig(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	r, err := NewResponder(c.ResponderOptions(captureInfo, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(r, t0, browser, []byte(browse.StatusQuery)); len(got) != 1 || string(got[0]) != string(vector(t, "gamespy_status_response")) {
		t.Errorf("default config reply %q", got)
	}
	c.Masters = []string{"81.205.81.173"}
	h, err := NewHeartbeater(c.HeartbeatOptions(22101, nil, nil))
	if err != nil || !h.Due(t0) {
		t.Fatalf("heartbeater %v", err)
	}

	bad := DefaultConfig()
	bad.Heartbeat = config.Duration(-time.Second)
	bad.RateBurst = -1
	bad.MaxDatagrams = -1
	bad.Masters = []string{"host:0"}
	err = bad.Validate()
	for _, key := range []string{"heartbeat:", "rate_burst:", "max_datagrams:", `masters: "host:0"`} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}
