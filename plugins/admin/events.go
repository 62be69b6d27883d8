package admin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/httpserve"
)

// streamWrite is how long one event may take to write.
const streamWrite = 15 * time.Second

// events streams server-sent events: "status" (the status with the ships)
// every StatusInterval and "log" for each new log line, after the last
// lines of the tail. The console reads it with fetch, which, unlike
// EventSource, can send the Authorization header.
func (a *Admin) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming not supported")
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(event string, v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		// The listener's write timeout bounds one answer; a stream moves
		// it on before each event, so a console that stops reading is cut
		// off and one that reads stays.
		httpserve.Extend(w, streamWrite)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	var logs chan LogLine
	if a.opts.Tail != nil {
		var off func()
		logs, off = a.opts.Tail.subscribe()
		defer off()
		for _, l := range a.mine(a.opts.Tail.Last(0), 50) {
			if !send("log", l) {
				return
			}
		}
	}
	status := func() bool {
		var st Status
		if err := a.do(r.Context(), func(g engine.API) { st = a.status(g, true) }); err != nil {
			return send("error", map[string]string{"error": err.Error()})
		}
		return send("status", st)
	}
	if !status() {
		return
	}
	t := time.NewTicker(a.opts.StatusInterval)
	defer t.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-a.stop:
			return
		case l := <-logs:
			if !a.ours(l) {
				continue
			}
			if !send("log", l) {
				return
			}
		case <-t.C:
			if !status() {
				return
			}
		}
	}
}
