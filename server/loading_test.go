package server

import (
	"context"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/browse"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

// A game answers the server browser while its mission still loads (Run
// starts the loop first): it shows the game in its setup screen and leaves
// a connect unanswered, and the server is not Ready. Once the compile the
// game waits for is done, the mission opens, Ready closes, the browser
// sees an open game and a player gets in.
func TestGameAnswersWhileItsMissionLoads(t *testing.T) {
	uc := loopbackConfig()
	uc.Gamespy.Masters = nil
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := New(ctx, uc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := s.games[0]
	compiled := make(chan struct{})
	u.missions.warmed = compiled // as far as the game knows, the compile goes on
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx) }()

	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	to := net.UDPAddrFromAddrPort(u.Addr())
	// A connect, then a query from the same socket: the game reads them in
	// order, so the first datagram back answers the query, not the connect.
	c := bcnet.NewClient(bcnet.DefaultConfig(), nil, bcnet.ClientOptions{IP: [4]byte{127, 0, 0, 1}, Name: "Early"}, time.Now())
	if err := c.Connect(); err != nil {
		t.Fatal(err)
	}
	d := c.Flush(time.Now(), nil)
	alby.Encrypt(d)
	if _, err := conn.WriteToUDP(d, to); err != nil {
		t.Fatal(err)
	}
	if got := status(t, conn, to); !strings.Contains(got, `\gamemode\`+gamespy.ModeSettings+`\`) {
		t.Fatalf("while loading, the first answer is %q, want the status in settings mode", got)
	}
	select {
	case <-s.Ready():
		t.Fatal("Ready while the mission loads")
	default:
	}
	var deferred uint64
	if err := u.srv.Do(ctx, func(g *engine.Game) { deferred = g.TransportStats().Deferred }); err != nil || deferred != 1 {
		t.Fatalf("deferred connects %d (%v), want 1", deferred, err)
	}

	close(compiled)
	select {
	case <-s.Ready():
	case err := <-ran:
		t.Fatalf("Run ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not Ready 10 s after the compile was done")
	}
	if u.Failure() != "" || u.missions.current() == nil {
		t.Fatalf("after loading: failure %q", u.Failure())
	}
	if got := status(t, conn, to); !strings.Contains(got, `\gamemode\`+gamespy.ModeOpenPlaying+`\`) {
		t.Fatalf("after loading: %q", got)
	}
	r := &running{srv: u.srv, logs: &testutil.LogBuffer{}}
	r.join(t, "Later").Close()
	cancel()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}

// status sends `\status\` to to and returns the first datagram back.
func status(t testing.TB, conn *net.UDPConn, to *net.UDPAddr) string {
	t.Helper()
	if _, err := conn.WriteToUDP([]byte(browse.StatusQuery), to); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	n, _, err := conn.ReadFromUDP(buf)
	if err != nil {
		t.Fatal(err)
	}
	return string(buf[:n])
}

// A game that loads its mission after it runs starts watching its missions
// folder then, not in New (a watcher took half a millisecond on the way to
// the first answer), and before the compile reads the files. A folder gone
// in between leaves the game without hot reload, and the log says so.
func TestMissionsFolderWatchedOnceRunning(t *testing.T) {
	for _, gone := range []bool{false, true} {
		dir := copyMissions(t)
		uc := loopbackConfig()
		uc.Gamespy.Masters = nil
		uc.Game.MissionsDir = dir
		logs := &testutil.LogBuffer{}
		ctx, cancel := context.WithCancel(context.Background())
		s, err := New(ctx, uc, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(s.p.watches.folders); n != 0 || s.games[0].missions.watch == nil {
			t.Fatalf("gone=%v: New started %d watchers, want the watch left to Run", gone, n)
		}
		if gone {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}
		ran := make(chan error, 1)
		go func() { ran <- s.Run(ctx) }()
		select {
		case <-s.Ready():
		case err := <-ran:
			t.Fatalf("gone=%v: Run ended: %v", gone, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("gone=%v: not Ready within 10 s", gone)
		}
		s.p.watches.mu.Lock()
		n := len(s.p.watches.folders)
		s.p.watches.mu.Unlock()
		want := 1
		if gone {
			want = 0
		}
		if n != want {
			t.Errorf("gone=%v: %d folders watched once Ready, want %d", gone, n, want)
		}
		if said := strings.Contains(logs.String(), "not watching the missions folder"); said != gone {
			t.Errorf("gone=%v: the log says the folder is not watched: %v\n%s", gone, said, logs.String())
		}
		cancel()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
	}
}
