package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/bcserver/bcserver/internal/httpserve"
)

// downloadWrite bounds the download of one recording file.
const downloadWrite = 15 * time.Minute

// API serves the recordings to the replay viewer (the admin plugin mounts
// it behind its token):
//
//	GET /api/v1/replays                      the list, newest first
//	GET /api/v1/replays/{id}                 the summary: players, kills, chat, ships
//	GET /api/v1/replays/{id}/frames?from=&to=&step=   a window of states (ms)
//
// The summary and the windows show every chat line, marked (team, muted,
// cancelled); with ?public=1 only what every player received.
//
//	GET /api/v1/replays/{id}/file            the file itself (docs/replay-format.md)
//
// Reads run on the HTTP goroutine; they never touch a game.
func (a *Archive) API() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/v1/replays", a.apiList)
	m.HandleFunc("GET /api/v1/replays/{id}", a.apiSummary)
	m.HandleFunc("GET /api/v1/replays/{id}/frames", a.apiFrames)
	m.HandleFunc("GET /api/v1/replays/{id}/file", a.apiFile)
	return m
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}

func apiErr(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrNoRecording) {
		writeError(w, http.StatusNotFound, "no such recording")
		return
	}
	writeError(w, http.StatusInternalServerError, "%v", err)
}

func (a *Archive) apiList(w http.ResponseWriter, r *http.Request) {
	list, err := a.List()
	if err != nil {
		apiErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// viewOf reads ?public=1: the view a host can share, with only what every
// player received.
func viewOf(r *http.Request) View {
	p := r.URL.Query().Get("public")
	return View{Public: p == "1" || p == "true"}
}

func (a *Archive) apiSummary(w http.ResponseWriter, r *http.Request) {
	s, err := a.SummaryView(r.PathValue("id"), viewOf(r))
	if err != nil {
		apiErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s)
}

func msParam(r *http.Request, name string, def uint32) (uint32, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%s %q: want milliseconds", name, s)
	}
	return uint32(v), nil
}

func (a *Archive) apiFrames(w http.ResponseWriter, r *http.Request) {
	from, err := msParam(r, "from", 0)
	if err == nil {
		var to, step uint32
		if to, err = msParam(r, "to", from+10000); err == nil {
			if step, err = msParam(r, "step", 200); err == nil {
				win, ferr := a.FramesView(r.PathValue("id"), from, to, step, viewOf(r))
				if ferr != nil {
					apiErr(w, ferr)
					return
				}
				writeJSON(w, http.StatusOK, win)
				return
			}
		}
	}
	writeError(w, http.StatusBadRequest, "%v", err)
}

func (a *Archive) apiFile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p, err := a.path(id)
	if err != nil {
		apiErr(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `attachment; filename="`+id+Ext+`"`)
	w.Header().Set("Cache-Control", "no-store")
	// A recording of up to [record] max_file over a slow link: longer
	// than the listener's write timeout for one answer.
	httpserve.Extend(w, downloadWrite)
	http.ServeFile(w, r, p)
}
