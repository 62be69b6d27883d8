package bot

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
)

// LoadConfig configures a load run: Bots clients join, each creates a
// ship, then each sends Rate relayed messages a second for Duration.
type LoadConfig struct {
	Server   netip.AddrPort
	Bots     int
	Rate     float64
	Duration time.Duration
	// Drain is how long to wait for stragglers after the senders stop
	// (default 1 s).
	Drain time.Duration
	// JoinTimeout bounds the joining of all bots (default 30 s).
	JoinTimeout time.Duration
	// StateUpdates also sends an unreliable StateUpdate per tick per bot,
	// as real clients do, which the host answers with its own.
	StateUpdates bool
	// Password is what each bot sends in its connect request.
	Password string
	Manifest *checksum.Manifest
	Logger   *slog.Logger
}

// LoadReport is the outcome of a load run.
type LoadReport struct {
	Bots      int
	Sent      int64 // relayed messages sent by all bots
	Expected  int64 // Sent × (Bots-1): each goes to every other bot once
	Delivered int64 // copies received
	Duplicate int64 // copies received more than once
	// Latency percentiles of relay latency (send by one bot to receipt by
	// another, both on this machine's clock).
	P50, P90, P99, Max time.Duration
	Elapsed            time.Duration
}

// DeliveredPct is Delivered/Expected in percent.
func (r LoadReport) DeliveredPct() float64 {
	if r.Expected == 0 {
		return 0
	}
	return 100 * float64(r.Delivered) / float64(r.Expected)
}

func (r LoadReport) String() string {
	return fmt.Sprintf("%d bots, %d sent, delivered %d/%d (%.2f%%), %d duplicates, relay latency p50 %v p90 %v p99 %v max %v over %v",
		r.Bots, r.Sent, r.Delivered, r.Expected, r.DeliveredPct(), r.Duplicate,
		r.P50.Round(time.Microsecond), r.P90.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond), r.Elapsed.Round(time.Millisecond))
}

// loadMagic marks the load generator's StartFiring messages: it takes the
// event code's place so other traffic is not counted.
const loadMagic = 0x0BCB10AD

// RunLoad joins the bots, runs the load and reports.
func RunLoad(ctx context.Context, cfg LoadConfig) (LoadReport, error) {
	if cfg.Bots < 2 {
		return LoadReport{}, fmt.Errorf("need at least 2 bots, got %d", cfg.Bots)
	}
	if cfg.Rate <= 0 {
		return LoadReport{}, fmt.Errorf("rate must be positive")
	}
	if cfg.Drain <= 0 {
		cfg.Drain = time.Second
	}
	if cfg.JoinTimeout <= 0 {
		cfg.JoinTimeout = 30 * time.Second
	}
	var mu sync.Mutex
	lat := make([]time.Duration, 0, 1<<16)
	seen := make(map[[2]int64]bool) // (sender id, seq) per receiver is tracked below
	var delivered, dups atomic.Int64
	bots := make([]*Bot, cfg.Bots)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i := range bots {
		i := i
		b, err := New(Config{
			Server: cfg.Server, Name: fmt.Sprintf("load%02d", i), Password: cfg.Password, Manifest: cfg.Manifest, Logger: cfg.Logger, Inbox: 64,
			OnMessage: func(now time.Time, p []byte) bool {
				if len(p) != 25 || p[0] != codec.OpStartFiring || binary.LittleEndian.Uint32(p[5:]) != loadMagic {
					return false
				}
				slot, _ := codec.OwnerSlot(int32(binary.LittleEndian.Uint32(p[9:])))
				sender := int64(slot)
				ts := int64(binary.LittleEndian.Uint64(p[17:]))
				seq := int64(binary.LittleEndian.Uint32(p[13:]))
				key := [2]int64{sender<<8 | int64(i), seq}
				mu.Lock()
				if seen[key] {
					mu.Unlock()
					dups.Add(1)
					return true
				}
				seen[key] = true
				lat = append(lat, now.Sub(time.Unix(0, ts)))
				mu.Unlock()
				delivered.Add(1)
				return true
			},
		})
		if err != nil {
			return LoadReport{}, err
		}
		bots[i] = b
		b.Start(ctx)
		defer b.Close()
	}
	jctx, jcancel := context.WithTimeout(ctx, cfg.JoinTimeout)
	for _, b := range bots {
		if err := b.WaitState(jctx, InGame); err != nil {
			jcancel()
			return LoadReport{}, err
		}
	}
	jcancel()
	for _, b := range bots {
		ship, err := ShipCreate(int(b.Settings().Slot), b.ID(), fmt.Sprintf("load%d", b.ID()))
		if err != nil {
			return LoadReport{}, err
		}
		if err := b.Send(ship, true); err != nil {
			return LoadReport{}, err
		}
	}
	time.Sleep(200 * time.Millisecond) // let the ships reach everyone

	var sent atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for _, b := range bots {
		wg.Add(1)
		go func(b *Bot) {
			defer wg.Done()
			sendLoad(ctx, b, cfg, &sent)
		}(b)
	}
	wg.Wait()
	time.Sleep(cfg.Drain)
	elapsed := time.Since(start)

	mu.Lock()
	defer mu.Unlock()
	r := LoadReport{Bots: cfg.Bots, Sent: sent.Load(), Delivered: delivered.Load(), Duplicate: dups.Load(), Elapsed: elapsed}
	r.Expected = r.Sent * int64(cfg.Bots-1)
	if len(lat) > 0 {
		slices.Sort(lat)
		pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
		r.P50, r.P90, r.P99, r.Max = pct(0.50), pct(0.90), pct(0.99), lat[len(lat)-1]
	}
	return r, nil
}

// sendLoad sends one timestamped StartFiring per period from the bot's own
// ship (so the host's ownership check passes) and, optionally, a
// StateUpdate. The event's destination field carries a per-sender
// sequence number and its 8-byte tail the send time.
func sendLoad(ctx context.Context, b *Bot, cfg LoadConfig, sent *atomic.Int64) {
	period := time.Duration(float64(time.Second) / cfg.Rate)
	slot := int(b.Settings().Slot)
	ship := codec.FirstObjectID(slot)
	tick := time.NewTicker(period)
	defer tick.Stop()
	end := time.After(cfg.Duration)
	msg := make([]byte, 25)
	var seq uint32
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-tick.C:
		}
		seq++
		ev := codec.Event{Op: codec.OpStartFiring, Factory: codec.FactoryStartFiring, Code: loadMagic, Src: ship + 20}
		msg = ev.AppendTo(msg[:0])
		// The 8-byte StartFiring tail carries the send time; the
		// destination field carries a sequence number per sender.
		binary.LittleEndian.PutUint32(msg[13:], seq)
		msg = binary.LittleEndian.AppendUint64(msg, uint64(time.Now().UnixNano()))
		if err := b.Send(msg, true); err != nil {
			return
		}
		sent.Add(1)
		if cfg.StateUpdates {
			up := codec.StateUpdate{ObjectID: ship, GameTime: float32(time.Since(start).Seconds()), Flags: codec.StateForward | codec.StateSpeed,
				Forward: codec.NewDir3(0, 1, 0), Speed: codec.EncodeCF16(float32(seq % 50))}
			_ = b.Send(up.AppendTo(nil), false)
		}
	}
}
