// Package bot is a headless Bridge Commander client built on the same
// transport and codec as the server: it connects, answers the checksum
// rounds from a manifest, loads, announces itself with NewPlayerInGame and
// then chats, idles or generates load. It is our stand-in for a stock client
// in integration tests and on the command line (cmd/bcbot).
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// State is how far the bot got.
type State int

// Bot states.
const (
	Connecting State = iota // connect request sent
	Checksums               // connected, answering checksum rounds
	Loading                 // Settings received, NewPlayerInGame sent
	InGame                  // announced in the player list
	Closed                  // disconnected, booted or timed out
)

func (s State) String() string {
	return [...]string{"connecting", "checksums", "loading", "in-game", "closed"}[s]
}

// Config configures a Bot.
type Config struct {
	Server netip.AddrPort
	Name   string
	// Password is sent in the connect request.
	Password string
	// Modem is the "using modem" flag the bot reports in NewPlayerInGame
	// (2A 21 instead of 2A 20).
	Modem bool
	// StayOnReject keeps the bot connected after a checksum-failure reply
	// (0x22/0x23). A stock client disconnects at once (handshake.md 2.4);
	// tests use it to play a client that does not.
	StayOnReject bool
	// Manifest answers the checksum requests; nil means vanilla 1.1.
	Manifest *checksum.Manifest
	// Tamper, if set, may alter each checksum response before it is sent
	// (tests use it to fail validation).
	Tamper func(req codec.ChecksumRequest, resp *codec.ChecksumResponse)
	// Silent makes the bot behave like a stock client without files for a
	// request the manifest does not cover: it sends nothing at all. By
	// default it answers such a request with an empty directory (the vanilla
	// manifest has no Scripts/Multiplayer entry, which every real install
	// has).
	Silent bool
	// Files, when set, is the bot's Scripts/Multiplayer folder: it answers
	// checksum round 0xFF from it as a stock client does and stores files
	// the host pushes (0x25), acknowledging each with 0x27. Received lists
	// them for a test to check the bytes.
	Files *ClientFiles
	// Local is the address to bind; default 127.0.0.1:0 (any port).
	Local     string
	Transport bcnet.Config
	Logger    *slog.Logger
	// Inbox is the capacity of the received-message channel (default 4096).
	// When it is full the oldest messages are dropped and counted.
	Inbox int
	// OnMessage, if set, sees every game message on the bot's goroutine
	// the moment it is decoded (the load generator measures latency here);
	// payload is valid only during the call. Returning true keeps the
	// message out of the inbox.
	OnMessage func(now time.Time, payload []byte) bool
}

// Message is one game message the bot received.
type Message struct {
	At       time.Time
	Payload  []byte
	Reliable bool
}

// Bot is one headless client. Its state lives on its own goroutine; the
// exported methods are safe to call from any goroutine.
type Bot struct {
	cfg    Config
	log    *slog.Logger
	sock   *bcnet.Socket
	client *bcnet.Client
	cmds   chan func()
	inbox  chan Message
	done   chan struct{}

	mu       sync.Mutex
	state    State
	changed  chan struct{} // closed and replaced on every state change
	settings codec.Settings
	boot     bcnet.BootReason
	shutdown bool // the host ended the session with its 0x05
	err      error
	dropped  int
	pushErr  error
	id       byte
	name     string
	peers    map[byte]string

	join Joiner
	buf  []byte
}

// New binds the bot's socket. Start connects.
func New(cfg Config) (*Bot, error) {
	if cfg.Local == "" {
		cfg.Local = "127.0.0.1:0"
	}
	if cfg.Inbox <= 0 {
		cfg.Inbox = 4096
	}
	if cfg.Files != nil && cfg.Transport.MaxMessageSize == 0 {
		// A pushed file fills up to 255 fragments (mods.md 5.5).
		cfg.Transport.MaxMessageSize = checksum.PushMessageMax
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := cfg.Manifest
	if m == nil {
		var err error
		if m, err = checksum.Vanilla(); err != nil {
			return nil, err
		}
	}
	sock, err := bcnet.Listen(cfg.Local, bcnet.SocketOptions{ReadBuffer: 256 << 10, WriteBuffer: 256 << 10})
	if err != nil {
		return nil, err
	}
	b := &Bot{
		cfg: cfg, log: log.With("component", "bot", "name", cfg.Name), sock: sock,
		cmds: make(chan func(), 256), inbox: make(chan Message, cfg.Inbox), done: make(chan struct{}),
		changed: make(chan struct{}), buf: make([]byte, 0, 512),
		join: Joiner{Manifest: m, Modem: cfg.Modem, Silent: cfg.Silent, Tamper: cfg.Tamper, Files: cfg.Files},
		name: cfg.Name, peers: make(map[byte]string), id: bcnet.PeerUnassigned,
	}
	ip := [4]byte{127, 0, 0, 1}
	if a := sock.LocalAddr().Addr(); a.Is4() {
		ip = a.As4()
	}
	b.client = bcnet.NewClient(cfg.Transport, (*botEvents)(b), bcnet.ClientOptions{IP: ip, Name: cfg.Name, Password: cfg.Password}, time.Now())
	return b, nil
}

// Start sends the connect request and runs the bot until ctx ends or the
// bot closes.
func (b *Bot) Start(ctx context.Context) {
	_ = b.client.Connect()
	go b.run(ctx)
}

// LocalAddr returns the bot's UDP address.
func (b *Bot) LocalAddr() netip.AddrPort { return b.sock.LocalAddr() }

// State returns the bot's state.
func (b *Bot) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// ID returns the wire id the server assigned (0xFF before).
func (b *Bot) ID() byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.id
}

// Name returns the bot's player name: the configured one, or the one the
// server gave it when that was in use (Settings bit 2).
func (b *Bot) Name() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.name
}

// Peers returns the other clients the server announced (identity relays),
// by wire id, as the stock client's peer list holds them.
func (b *Bot) Peers() map[byte]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[byte]string, len(b.peers))
	for id, n := range b.peers {
		out[id] = n
	}
	return out
}

// ServerShutDown reports whether the server ended the session with its
// shutdown notice (a 0x05 naming the host, transport.md 10.4).
func (b *Bot) ServerShutDown() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.shutdown
}

// Settings returns the Settings message the server sent.
func (b *Bot) Settings() codec.Settings {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.settings
}

// BootReason returns the reason of the boot notice that closed the bot.
func (b *Bot) BootReason() bcnet.BootReason {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.boot
}

// Err returns why the bot closed, if it did.
func (b *Bot) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// PushErr returns the first pushed file the bot refused (see
// Joiner.PushErr), or nil.
func (b *Bot) PushErr() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pushErr
}

// Dropped counts received messages lost because the inbox was full.
func (b *Bot) Dropped() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// Done is closed when the bot has stopped: the server went away, booted
// it, or the bot was closed.
func (b *Bot) Done() <-chan struct{} { return b.done }

// Inbox delivers the game messages the bot receives.
func (b *Bot) Inbox() <-chan Message { return b.inbox }

// WaitState waits until the bot reaches want (or a later state). Reaching
// Closed first is an error.
func (b *Bot) WaitState(ctx context.Context, want State) error {
	for {
		b.mu.Lock()
		st, ch, err := b.state, b.changed, b.err
		b.mu.Unlock()
		if st >= want && (st != Closed || want == Closed) {
			return nil
		}
		if st == Closed {
			if err == nil {
				err = errors.New("closed")
			}
			return fmt.Errorf("bot %q closed before %s: %w", b.cfg.Name, want, err)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("bot %q waiting for %s (at %s): %w", b.cfg.Name, want, st, ctx.Err())
		}
	}
}

// Send queues a game message to the server.
func (b *Bot) Send(payload []byte, reliable bool) error {
	p := append([]byte(nil), payload...)
	return b.do(func() error { return b.client.Send(p, reliable) })
}

// Chat sends a chat line (0x2C, or 0x2D for team chat) with the bot's id.
func (b *Bot) Chat(text string, team bool) error {
	return b.do(func() error {
		m := codec.Chat{Team: team, Sender: int32(b.client.ID()), Text: []byte(text)}
		return b.client.Send(m.AppendTo(nil), true)
	})
}

func (b *Bot) do(fn func() error) error {
	errc := make(chan error, 1)
	select {
	case b.cmds <- func() { errc <- fn() }:
		b.sock.Wake()
	case <-b.done:
		return errors.New("bot closed")
	}
	select {
	case err := <-errc:
		return err
	case <-b.done:
		return errors.New("bot closed")
	}
}

// Close disconnects gracefully (the server gets a 0x05) and stops the bot.
func (b *Bot) Close() {
	select {
	case <-b.done:
		return
	default:
	}
	_ = b.do(func() error {
		if b.client.State() == bcnet.ClientConnected {
			_ = b.client.Disconnect()
		}
		b.flush(time.Now())
		b.setState(Closed, nil)
		return nil
	})
	b.sock.Close()
	<-b.done
}

func (b *Bot) setState(s State, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s <= b.state && s != Closed {
		return
	}
	if b.state == Closed {
		return
	}
	b.state = s
	if err != nil && b.err == nil {
		b.err = err
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *Bot) run(ctx context.Context) {
	defer close(b.done)
	defer b.sock.Close()
	stop := context.AfterFunc(ctx, b.sock.Wake)
	defer stop()
	b.flush(time.Now())
	next := time.Now().Add(10 * time.Millisecond)
	for {
		if ctx.Err() != nil {
			// Leave as a quitting stock client does, so the server need
			// not wait for a timeout.
			if b.client.State() == bcnet.ClientConnected {
				_ = b.client.Disconnect()
				b.flush(time.Now())
			}
			b.setState(Closed, ctx.Err())
			return
		}
		pkts, err := b.sock.Receive(next)
		if err != nil {
			b.setState(Closed, errors.New("socket closed"))
			return
		}
		now := time.Now()
		for _, p := range pkts {
			if d := p.Data; p.Addr == b.cfg.Server && len(d) >= 2 && d[0] != '\\' {
				alby.Decrypt(d)
				if err := b.client.Receive(now, d); err != nil {
					b.log.Debug("bad datagram from server", "err", err)
				}
			}
		}
		if !now.Before(next) {
			next = now.Add(10 * time.Millisecond)
			if err := b.client.Tick(now); err != nil {
				b.setState(Closed, fmt.Errorf("server connection: %w", err))
				b.flush(now)
				return
			}
		}
		for more := true; more; {
			select {
			case fn := <-b.cmds:
				fn()
			default:
				more = false
			}
		}
		b.flush(now)
		if b.State() == Closed {
			return // the disconnect or last ACKs have left with the flush
		}
	}
}

func (b *Bot) flush(now time.Time) {
	defer func() {
		if err := b.sock.Flush(); err != nil {
			b.log.Debug("send failed", "err", err)
		}
	}()
	for i := 0; i < 1024; i++ {
		d := b.client.Flush(now, b.buf[:0])
		if d == nil {
			return
		}
		alby.Encrypt(d)
		if _, err := b.sock.WriteToUDPAddrPort(d, b.cfg.Server); err != nil {
			b.log.Debug("send failed", "err", err)
		}
	}
}
