package metrics

import (
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
)

// Registry is the Prometheus registry behind /metrics: the Go runtime and
// process collectors and each game's series. It registers them on the
// first scrape (Gather), not when a game is built: a registration
// describes every collector on a goroutine of its own, a tenth of a
// millisecond per game on the way to the first answered server-browser
// query. The series count from the start all the same.
type Registry struct {
	prom    *prometheus.Registry
	mu      sync.Mutex
	pending []registration
	err     error // what registering reported (a bug: a name twice), every scrape
}

// registration is a game's collectors, with the labels (game="22101")
// every series of theirs gets.
type registration struct {
	labels prometheus.Labels
	cs     []prometheus.Collector
}

// NewRegistry returns a registry with the Go runtime and process
// collectors, for the games of one process to share (Options.Registry).
// Both are made on the first scrape: building them (the runtime's metric
// descriptions, the process's /proc probe) took a third of a millisecond
// on the way to the first answered server-browser query.
func NewRegistry() *Registry {
	r := &Registry{prom: prometheus.NewRegistry()}
	r.add(nil,
		&lazyCollector{make: func() prometheus.Collector { return collectors.NewGoCollector() }},
		&lazyCollector{make: func() prometheus.Collector {
			return collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})
		}})
	return r
}

// add queues collectors for registration with labels (nil: none).
func (r *Registry) add(labels prometheus.Labels, cs ...prometheus.Collector) {
	r.mu.Lock()
	r.pending = append(r.pending, registration{labels, cs})
	r.mu.Unlock()
}

// Gather implements prometheus.Gatherer: it registers what is queued, then
// gathers. A registration that failed fails every scrape, saying why.
func (r *Registry) Gather() ([]*dto.MetricFamily, error) {
	r.mu.Lock()
	pending := r.pending
	r.pending = nil
	for _, p := range pending {
		var to prometheus.Registerer = r.prom
		if p.labels != nil {
			to = prometheus.WrapRegistererWith(p.labels, r.prom)
		}
		var failed []string
		for _, c := range p.cs {
			if err := to.Register(c); err != nil {
				failed = append(failed, err.Error())
			}
		}
		if failed != nil {
			r.err = errors.Join(r.err, fmt.Errorf("metrics: registering the series of %v: %d failed: %s", p.labels, len(failed), failed[0]))
		}
	}
	err := r.err
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return r.prom.Gather()
}

// lazyCollector is a collector made when it is first collected. It is
// registered unchecked (it describes nothing ahead), which a registry
// allows; what it collects is still checked for consistency at every
// scrape.
type lazyCollector struct {
	once sync.Once
	make func() prometheus.Collector
	c    prometheus.Collector
}

// Describe implements prometheus.Collector: nothing, an unchecked
// collector.
func (*lazyCollector) Describe(chan<- *prometheus.Desc) {}

// Collect implements prometheus.Collector.
func (l *lazyCollector) Collect(ch chan<- prometheus.Metric) {
	l.once.Do(func() { l.c = l.make() })
	l.c.Collect(ch)
}
