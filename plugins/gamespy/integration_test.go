package gamespy_test

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/browse"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

// guard bounds every wait on the loopback: a failure, never the sync point.
const guard = 10 * time.Second

// fakeMaster plays the 333networks master server (MasterServer-Qt5, what
// stock masterserver.txt points at) as gamespy.md 4 describes it: it takes
// heartbeats on one UDP port, sends `\secure\` to the heartbeat's source
// address, and lists and queries `<source ip>:<heartbeat port, 0 read as
// 22101>` with `\status\` from a port of its own.
type fakeMaster struct {
	t         *testing.T
	heartbeat *net.UDPConn
	query     *net.UDPConn
}

func newFakeMaster(t *testing.T) *fakeMaster {
	t.Helper()
	m := &fakeMaster{t: t}
	for _, c := range []**net.UDPConn{&m.heartbeat, &m.query} {
		conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		*c = conn
	}
	return m
}

// port is the master's heartbeat port.
func (m *fakeMaster) port() int { return m.heartbeat.LocalAddr().(*net.UDPAddr).Port }

// read returns the next datagram on conn.
func (m *fakeMaster) read(conn *net.UDPConn) (string, netip.AddrPort) {
	m.t.Helper()
	buf := make([]byte, 2048)
	conn.SetReadDeadline(time.Now().Add(guard))
	n, from, err := conn.ReadFromUDPAddrPort(buf)
	if err != nil {
		m.t.Fatalf("master: %v", err)
	}
	return string(buf[:n]), netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
}

func (m *fakeMaster) send(conn *net.UDPConn, to netip.AddrPort, b string) {
	m.t.Helper()
	if _, err := conn.WriteToUDPAddrPort([]byte(b), to); err != nil {
		m.t.Fatalf("master: %v", err)
	}
}

// heartbeatPort parses `\heartbeat\<p>\gamename\bcommander[\statechanged\<n>]`
// and returns the port the master lists the server at.
func heartbeatPort(t *testing.T, hb string) uint16 {
	t.Helper()
	kv, err := browse.ParseReply([]byte(hb))
	if err != nil || kv["gamename"] != "bcommander" {
		t.Fatalf("heartbeat %q: %v", hb, err)
	}
	p, err := strconv.ParseUint(kv["heartbeat"], 10, 16)
	if err != nil {
		t.Fatalf("heartbeat %q: port: %v", hb, err)
	}
	if p == 0 {
		return browse.DefaultGamePort // what 333networks does with 0
	}
	return uint16(p)
}

// listenGame binds a game on a free loopback port: a test never needs a
// fixed one (a server on 22101, `make run`, must not fail the tests).
func listenGame(t *testing.T) *engine.Server {
	t.Helper()
	cfg := engine.DefaultConfig()
	cfg.ServerName = "Listed"
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// A server is listed by the master at its own port: the heartbeat, the
// master's challenge and the server's answer, the master's `\status\` to the
// port it lists, and the goodbye at shutdown — on the stock port (heartbeat
// port 0, the stock bytes) and on another one (heartbeat port = game port).
// The game always binds a free port: for the stock case it announces 22101
// as a server behind a port forward from 22101 would, and the master's
// query reaches it through that "forward".
func TestMasterListsServerAtItsPort(t *testing.T) {
	for _, tc := range []struct {
		name      string
		announce  int // the port the plugin announces; 0: the bound one
		heartbeat string
	}{
		{"stock port 22101", browse.DefaultGamePort, `\heartbeat\0\gamename\bcommander`},
		{"other port", 0, `\heartbeat\%d\gamename\bcommander`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newFakeMaster(t)
			srv := listenGame(t)
			game := srv.Addr()
			announced := game
			if tc.announce != 0 {
				announced = netip.AddrPortFrom(game.Addr(), uint16(tc.announce))
			}
			want := tc.heartbeat
			if strings.Contains(want, "%d") {
				want = fmt.Sprintf(want, game.Port())
			}

			cfg := gamespy.DefaultConfig()
			cfg.Masters = []string{net.JoinHostPort("master.test", strconv.Itoa(m.port()))}
			resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
				if host != "master.test" {
					return nil, fmt.Errorf("unexpected lookup of %q", host)
				}
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			p := gamespy.NewPlugin(cfg, gamespy.PluginOptions{GamePort: int(announced.Port()), Resolve: resolve})
			if err := srv.Game().AddPlugin(p); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- srv.Run(ctx) }()
			stop := sync.OnceValue(func() error { cancel(); return <-done })
			defer stop()

			// 1. The heartbeat, from the game socket.
			hb, src := m.read(m.heartbeat)
			if hb != want {
				t.Fatalf("heartbeat %q, want %q", hb, want)
			}
			if src != game {
				t.Fatalf("heartbeat from %v, want the game socket %v", src, game)
			}
			listed := netip.AddrPortFrom(src.Addr(), heartbeatPort(t, hb))
			if listed != announced {
				t.Fatalf("master would list %v, the game announced %v", listed, announced)
			}

			// 2. The challenge to the heartbeat's source; the answer is the
			// known pair (gamespy.md 4.1).
			m.send(m.heartbeat, src, `\secure\LRPOPQ`)
			reply, from := m.read(m.heartbeat)
			kv, err := browse.ParseReply([]byte(reply))
			if err != nil || from != game || kv["validate"] != "hMwdTNWS" {
				t.Fatalf("challenge answer %q from %v: %v", reply, from, err)
			}

			// 3. The status query from the master's own port, to the listed
			// address.
			// (The listed port forwarded to the game's.)
			m.send(m.query, game, browse.StatusQuery)
			reply, from = m.read(m.query)
			kv, err = browse.ParseReply([]byte(reply))
			if err != nil || from != game || kv["hostname"] != "Listed" || kv["gamename"] != "bcommander" || kv["numplayers"] != "0" {
				t.Fatalf("status %q from %v: %v", reply, from, err)
			}

			// 4. The goodbye when the server stops.
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			bye, from := m.read(m.heartbeat)
			if bye != want+`\statechanged\2` || from != game {
				t.Fatalf("goodbye %q from %v", bye, from)
			}
		})
	}
}
