package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/server"
)

// The packaging keeps state and fits the server (issue 21): the image
// declares its /data volume (history, bans, the token file all live
// there), documents a stop timeout longer than the shutdown wait, and the
// Fleet example's player capacity is the player limit its servers run
// with, which is the default one.
func TestPackagingFitsTheServer(t *testing.T) {
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	d := string(docker)
	for _, want := range []string{"VOLUME /data", "BCSERVER_STORE_PATH=/data/", "BCSERVER_BANS_FILE=/data/", "BCSERVER_ADMIN_TOKEN_FILE=/data/"} {
		if !strings.Contains(d, want) {
			t.Errorf("Dockerfile has no %q", want)
		}
	}
	m := regexp.MustCompile(`--stop-timeout (\d+)`).FindStringSubmatch(d)
	if m == nil {
		t.Fatal("Dockerfile documents no --stop-timeout")
	}
	if n, _ := strconv.Atoi(m[1]); time.Duration(n)*time.Second <= bcnet.DefaultConfig().ShutdownWait {
		t.Errorf("--stop-timeout %s is not longer than the %v shutdown wait", m[1], bcnet.DefaultConfig().ShutdownWait)
	}
	fleet, err := os.ReadFile("../../deploy/agones/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f := string(fleet)
	capm := regexp.MustCompile(`initialCapacity: (\d+)`).FindStringSubmatch(f)
	maxm := regexp.MustCompile(`BCSERVER_SERVER_MAX_PLAYERS\s+value: "(\d+)"`).FindStringSubmatch(f)
	def := server.DefaultConfig().Server.MaxPlayers
	if capm == nil || maxm == nil || capm[1] != maxm[1] || capm[1] != strconv.Itoa(def) {
		t.Errorf("fleet initialCapacity %v, max players %v, default limit %d", capm, maxm, def)
	}
	for _, want := range []string{"mountPath: /data", "terminationGracePeriodSeconds"} {
		if !strings.Contains(f, want) {
			t.Errorf("fleet.yaml has no %q", want)
		}
	}
}
