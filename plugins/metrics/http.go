package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/bcserver/bcserver/internal/httpserve"
)

var (
	dHTTPRefused = desc("bcserver_http_refused_total", "HTTP connections and requests refused, by listener (admin, spectate) and reason (per_address, connections, rate, viewers).", "listener", "reason")
	dHTTPOpen    = desc("bcserver_http_connections", "HTTP connections open, by listener.", "listener")
)

// httpCollector reads the HTTP listeners' counters at scrape time.
type httpCollector []*httpserve.Stats

func (c httpCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- dHTTPRefused
	ch <- dHTTPOpen
}

func (c httpCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c {
		for _, r := range httpserve.Reasons() {
			ch <- prometheus.MustNewConstMetric(dHTTPRefused, prometheus.CounterValue, float64(s.Refused(r)), s.Name(), r.String())
		}
		ch <- prometheus.MustNewConstMetric(dHTTPOpen, prometheus.GaugeValue, float64(s.Open()), s.Name())
	}
}

// AddHTTP adds the series of the process's HTTP listeners (one Stats
// each, named by its listener), without a game label: they are the
// process's.
func (r *Registry) AddHTTP(stats ...*httpserve.Stats) {
	if len(stats) > 0 {
		r.add(nil, httpCollector(stats))
	}
}
