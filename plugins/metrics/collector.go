package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
	bcnet "github.com/bcserver/bcserver/net"
)

// transport sums connection counters.
type transport struct {
	retransmits, duplicates, outOfWindow, reassemblyDrops, bufferDrops, malformed uint64
}

func (t *transport) add(s bcnet.Stats) {
	t.retransmits += s.Retransmits
	t.duplicates += s.Duplicates
	t.outOfWindow += s.OutOfWindow
	t.reassemblyDrops += s.ReassemblyDrops
	t.bufferDrops += s.BufferDrops
	t.malformed += s.Malformed
}

// snapshot is what a scrape reads on the game goroutine.
type snapshot struct {
	inGame, joining, ships int
	gameOver               bool
	conns                  transport // closed connections plus the open ones
	host                   bcnet.HostStats
}

func (m *Metrics) take(g *engine.Game) snapshot {
	s := snapshot{gameOver: g.GameOver(), conns: m.departed, host: g.TransportStats()}
	for _, p := range g.Players() {
		if p.InGame() {
			s.inGame++
		} else {
			s.joining++
		}
		s.conns.add(p.TransportStats())
	}
	for _, o := range g.Objects() {
		if o.IsShip() && o.Alive() {
			s.ships++
		}
	}
	return s
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

var (
	dPlayers      = desc("bcserver_players", "Players in the game.")
	dJoining      = desc("bcserver_players_joining", "Players connected but not in the game yet (checksums, loading).")
	dGames        = desc("bcserver_games", "Games this process runs.")
	dGameOver     = desc("bcserver_game_over", "1 between END_GAME and the restart.")
	dShips        = desc("bcserver_ships", "Ships alive in the game.")
	dDgIn         = desc("bcserver_datagrams_received_total", "UDP datagrams received on the game socket.")
	dDgOut        = desc("bcserver_datagrams_sent_total", "UDP datagrams sent from the game socket.")
	dBytesIn      = desc("bcserver_received_bytes_total", "Bytes received on the game socket.")
	dBytesOut     = desc("bcserver_sent_bytes_total", "Bytes sent from the game socket.")
	dDrops        = desc("bcserver_dropped_total", "Datagrams and messages dropped, by reason.", "reason")
	dRetransmits  = desc("bcserver_retransmits_total", "Reliable messages sent again for want of an ACK.")
	dJoins        = desc("bcserver_joins_total", "Players that reached the game.")
	dRefused      = desc("bcserver_connects_refused_total", "Connects refused (full, not accepting, banned).")
	dChecksumFail = desc("bcserver_checksum_failures_total", "Clients that failed file validation.")
	dTicks        = desc("bcserver_ticks_total", "Game ticks run.")
	dTicksDropped = desc("bcserver_ticks_dropped_total", "Game ticks skipped because the loop fell behind.")
	dRelayed      = desc("bcserver_relayed_messages_total", "Game messages relayed to the other players.")
	dWeaponHits   = desc("bcserver_weapon_hits_total", "Weapon hits the host damage model applied.")
	dGSQueries    = desc("bcserver_gamespy_queries_total", "GameSpy queries answered.")
	dGSLimited    = desc("bcserver_gamespy_rate_limited_total", "GameSpy queries dropped by the per-source rate limit.")
	dStoreDropped = desc("bcserver_store_writes_dropped_total", "Match-history writes dropped (queue full) or refused by the database.", "reason")
	dWebhook      = desc("bcserver_webhook_messages_total", "Webhook announcements by result: sent, failed (out of tries), dropped (queue full), retried (tries after the first).", "result")
	dViolations   = desc("bcserver_fairplay_violations_total", "Fair-play violations, by rule (README, \"Fair play\").", "rule")
	dRecDropped   = desc("bcserver_record_dropped_total", "Parts of match recordings dropped: blocks (the disk fell behind, or the size limit), records (a flood between two keyframes) and chat (lines over a player's chat allowance).", "what")
)

type collector struct{ m *Metrics }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{dPlayers, dJoining, dGames, dGameOver, dShips, dDgIn, dDgOut, dBytesIn, dBytesOut, dDrops,
		dRetransmits, dJoins, dRefused, dChecksumFail, dTicks, dTicksDropped, dRelayed, dWeaponHits, dGSQueries, dGSLimited, dStoreDropped, dRecDropped, dWebhook, dViolations} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	s := m.snapshotNow()
	gauge := func(d *prometheus.Desc, v float64, l ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, l...)
	}
	counter := func(d *prometheus.Desc, v uint64, l ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), l...)
	}
	gauge(dPlayers, float64(s.inGame))
	gauge(dJoining, float64(s.joining))
	gauge(dGames, 1)
	over := 0.0
	if s.gameOver {
		over = 1
	}
	gauge(dGameOver, over)
	gauge(dShips, float64(s.ships))

	srv := m.opts.Server
	st := srv.Stats()
	counter(dDgIn, s.host.Datagrams)
	counter(dDgOut, st.DatagramsOut.Load())
	counter(dBytesIn, st.BytesIn.Load())
	counter(dBytesOut, st.BytesOut.Load())
	gs := &srv.Game().Stats
	sock := srv.SocketStats()
	for _, d := range []struct {
		reason string
		v      uint64
	}{
		{"oversize", sock.Oversize.Load()},
		{"malformed_datagram", s.host.Malformed + s.conns.malformed},
		{"stranger", s.host.Strangers},
		{"stranger_budget", s.host.StrangersDropped},
		{"unanswered_connect", s.host.Unverified},
		{"displaced_connect", s.host.Displaced},
		{"deferred_connect", s.host.Deferred},
		{"answer_budget", s.host.AnswersDropped},
		{"duplicate", s.conns.duplicates},
		{"out_of_window", s.conns.outOfWindow},
		{"reassembly", s.conns.reassemblyDrops},
		{"reorder_buffer_full", s.conns.bufferDrops},
		{"send_error", st.SendErrors.Load()},
		{"handshake_order", gs.HandshakeDropped.Load()},
		{"malformed_message", gs.Malformed.Load()},
		{"not_relayable", gs.RelayDropped.Load()},
		{"spoofed", gs.Spoofed.Load()},
		{"throttled", gs.Throttled.Load()},
		{"chat", gs.ChatDropped.Load()},
		{"collision", gs.CollisionsDropped.Load()},
		{"weapon_implausible", gs.WeaponRejected.Load()},
	} {
		counter(dDrops, d.v, d.reason)
	}
	counter(dRetransmits, s.conns.retransmits)
	counter(dJoins, gs.Joins.Load())
	counter(dRefused, gs.Refused.Load()+s.host.Refused)
	counter(dChecksumFail, gs.ChecksumFailures.Load())
	counter(dTicks, gs.Ticks.Load())
	counter(dTicksDropped, gs.TicksDropped.Load())
	counter(dRelayed, gs.Relayed.Load())
	counter(dWeaponHits, gs.WeaponHits.Load())
	for _, r := range fairplay.Rules() {
		counter(dViolations, gs.Violations[r].Load(), r.String())
	}
	if m.opts.Gamespy != nil {
		q, l := m.opts.Gamespy()
		counter(dGSQueries, q)
		counter(dGSLimited, l)
	}
	if m.opts.RecordDropped != nil {
		b, r := m.opts.RecordDropped()
		counter(dRecDropped, b, "block")
		counter(dRecDropped, r, "record")
	}
	if m.opts.ChatDropped != nil {
		counter(dRecDropped, m.opts.ChatDropped(), "chat")
	}
	if m.opts.Webhook != nil {
		s, f, d, r := m.opts.Webhook()
		counter(dWebhook, s, "sent")
		counter(dWebhook, f, "failed")
		counter(dWebhook, d, "dropped")
		counter(dWebhook, r, "retried")
	}
	if m.opts.StoreDropped != nil {
		d, f := m.opts.StoreDropped()
		counter(dStoreDropped, d, "queue_full")
		counter(dStoreDropped, f, "write_failed")
	}
}
