package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Sender.
type Options struct {
	// URL is the endpoint; it may hold a secret and is never logged
	// (only its host is).
	URL    string
	Format string // FormatDiscord (default) or FormatJSON
	// MinInterval spaces two posts at least this far apart.
	MinInterval time.Duration
	// Queue bounds the messages waiting; Enqueue drops beyond it.
	Queue int
	// Timeout bounds one POST.
	Timeout time.Duration
	// Retries is how many more tries a message gets after a network
	// error, 429 or 5xx; Backoff is the first wait, doubled each time up
	// to MaxBackoff (a 429's Retry-After is honoured up to MaxBackoff).
	Retries             int
	Backoff, MaxBackoff time.Duration
	// Client makes the requests; nil uses one without redirects (a
	// webhook answers directly, and a redirect would carry the body
	// elsewhere).
	Client *http.Client
	Logger *slog.Logger
	// Wait pauses the sender for d (spacing, backoff) unless ctx ends
	// first; nil waits on a timer. Tests record the waits instead.
	Wait func(ctx context.Context, d time.Duration) error
	// Now is the sender's clock for spacing posts; nil is time.Now.
	Now func() time.Time
}

// Stats count what the sender did; safe from any goroutine.
type Stats struct {
	Sent    atomic.Uint64 // messages the endpoint took (2xx)
	Failed  atomic.Uint64 // messages given up on after their tries
	Dropped atomic.Uint64 // messages not queued: the queue was full or the sender closed
	Retried atomic.Uint64 // tries after the first
}

// Sender posts messages to one webhook from a goroutine of its own,
// one at a time, spaced and retried; Enqueue never blocks, so the game
// loop that calls it never waits for the network.
type Sender struct {
	opts   Options
	host   string // the URL's host, the only part of it that is logged
	log    *slog.Logger
	q      chan Message
	mu     sync.Mutex // guards closed and the close of q
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	// Stats is updated by the sender goroutine.
	Stats Stats
}

// NewSender starts a sender; Close stops it.
func NewSender(o Options) (*Sender, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("plugin/webhook: the URL is not an absolute http(s) URL")
	}
	if o.Format == "" {
		o.Format = FormatDiscord
	}
	if o.Queue < 1 {
		o.Queue = 100
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if o.Wait == nil {
		o.Wait = sleepCtx
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sender{opts: o, host: u.Host, log: log.With("component", "plugin/webhook", "host", u.Host),
		q: make(chan Message, o.Queue), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go s.run()
	return s, nil
}

// Enqueue hands a message to the sender; it reports false (and counts a
// drop) when the queue is full or the sender is closed. It never blocks.
func (s *Sender) Enqueue(m Message) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		s.Stats.Dropped.Add(1)
		return false
	}
	select {
	case s.q <- m:
		return true
	default:
		s.Stats.Dropped.Add(1)
		return false
	}
}

// Close takes no more messages, sends what is queued until ctx ends (the
// server-down message goes out this way), then abandons the rest.
func (s *Sender) Close(ctx context.Context) {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.q)
	}
	s.mu.Unlock()
	select {
	case <-s.done:
	case <-ctx.Done():
		s.cancel()
		<-s.done
	}
	s.cancel()
}

func (s *Sender) run() {
	defer close(s.done)
	var last time.Time
	for m := range s.q {
		if s.ctx.Err() != nil {
			s.Stats.Failed.Add(1)
			continue
		}
		body, err := Render(m, s.opts.Format)
		if err != nil {
			s.Stats.Failed.Add(1)
			s.log.Warn("webhook message not rendered", "event", m.Kind, "err", err)
			continue
		}
		s.deliver(m.Kind, body, &last)
	}
}

// deliver posts one body with its retries.
func (s *Sender) deliver(kind string, body []byte, last *time.Time) {
	o := s.opts
	for attempt := 0; ; attempt++ {
		if !last.IsZero() && o.MinInterval > 0 {
			if d := o.MinInterval - o.Now().Sub(*last); d > 0 {
				if s.opts.Wait(s.ctx, d) != nil {
					s.Stats.Failed.Add(1)
					return
				}
			}
		}
		status, retryAfter, err := s.post(body)
		*last = o.Now()
		if err == nil && status >= 200 && status < 300 {
			s.Stats.Sent.Add(1)
			return
		}
		retryable := err != nil || status == http.StatusTooManyRequests || status >= 500
		if !retryable || attempt >= o.Retries || s.ctx.Err() != nil {
			s.Stats.Failed.Add(1)
			s.log.Warn("webhook message not delivered", "event", kind, "status", status, "tries", attempt+1, "err", errText(err))
			return
		}
		d := backoff(o.Backoff, o.MaxBackoff, attempt)
		if retryAfter > d {
			d = min(retryAfter, o.MaxBackoff)
		}
		s.Stats.Retried.Add(1)
		s.log.Debug("webhook retry", "event", kind, "status", status, "wait", d, "err", errText(err))
		if s.opts.Wait(s.ctx, d) != nil {
			s.Stats.Failed.Add(1)
			return
		}
	}
}

// post sends one request; the error never holds the URL.
func (s *Sender) post(body []byte) (status int, retryAfter time.Duration, err error) {
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.opts.URL, bytes.NewReader(body))
	if err != nil {
		return 0, 0, errors.New("bad request")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "bcserver-webhook")
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		// *url.Error repeats the URL: keep only what went wrong.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, 0, fmt.Errorf("post to %s: %w", s.host, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if v := resp.Header.Get("Retry-After"); v != "" {
		if n, perr := strconv.ParseFloat(v, 64); perr == nil && n > 0 && n < 86400 {
			retryAfter = time.Duration(n * float64(time.Second))
		}
	}
	return resp.StatusCode, retryAfter, nil
}

// backoff is base × 2^attempt, at most max.
func backoff(base, max time.Duration, attempt int) time.Duration {
	d := base
	for i := 0; i < attempt && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
