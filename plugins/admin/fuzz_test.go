package admin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequestBodies feeds arbitrary bodies to the request decoding every
// mutating endpoint uses: it must answer with an error or a value, never
// panic, and refuse what is not one JSON object of the known fields.
func FuzzRequestBodies(f *testing.F) {
	for _, s := range []string{`{"player":"Bob","reason":"x"}`, `{"player":3}`, `{"text":"hi"}`, `{"mode":"ctf","now":true}`,
		`{"address":"203.0.113.255"}`, `{"reason":3}`, ``, `[]`, `{"player":{"a":1}}`, `{} {}`, `{"player":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, v := range []any{&kickReq{}, &sayReq{}, &setReq{}, &banReq{}, &endReq{}} {
			r := httptest.NewRequest(http.MethodPost, "/api/v1/x", strings.NewReader(body))
			w := httptest.NewRecorder()
			r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
			err := decodeBody(r, v, false)
			if err == nil && !json.Valid([]byte(body)) {
				t.Fatalf("accepted invalid JSON %q", body)
			}
		}
	})
}
