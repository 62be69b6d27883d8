package lua

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

const (
	slogDebug = slog.LevelDebug
	slogInfo  = slog.LevelInfo
	slogWarn  = slog.LevelWarn
	slogError = slog.LevelError
)

// logLimiter is a token bucket over a mission's log lines (print, bc.log
// and its callback errors): a mission that logs in a loop would otherwise
// fill the host's disk. Lines over the rate are counted and reported as
// "N mission log lines suppressed" once the mission may log again. It runs
// on the engine's clock, so tests are exact.
type logLimiter struct {
	rate, burst float64
	maxLine     int
	now         func() time.Time
	what        string

	tokens     float64
	at         time.Time
	suppressed int
}

func newLogLimiter(l *Limits, now func() time.Time, what string) *logLimiter {
	return &logLimiter{rate: float64(l.LogRate), burst: float64(l.LogBurst), maxLine: l.LogLine, now: now, what: what, tokens: float64(l.LogBurst)}
}

func (l *logLimiter) refill() {
	now := l.now()
	if !l.at.IsZero() && now.After(l.at) {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.at).Seconds()*l.rate)
	}
	l.at = now
}

// log writes one line if the bucket allows, with long messages and string
// values cut to the line cap.
func (l *logLimiter) log(log *slog.Logger, level slog.Level, msg string, attrs ...any) {
	if !log.Enabled(context.Background(), level) {
		return
	}
	l.refill()
	if l.tokens < 1 {
		l.suppressed++
		return
	}
	l.tokens--
	l.flushSuppressed(log)
	for i, a := range attrs {
		if s, ok := a.(string); ok && len(s) > l.maxLine {
			attrs[i] = s[:l.maxLine] + "…"
		}
	}
	if len(msg) > l.maxLine {
		msg = msg[:l.maxLine] + "…"
	}
	log.Log(context.Background(), level, msg, attrs...)
}

// flush reports suppressed lines once the bucket has room again; the host
// calls it every tick so the summary comes even if the mission went quiet.
func (l *logLimiter) flush(log *slog.Logger) {
	if l.suppressed == 0 {
		return
	}
	l.refill()
	if l.tokens >= 1 {
		l.tokens--
		l.flushSuppressed(log)
	}
}

func (l *logLimiter) flushSuppressed(log *slog.Logger) {
	if l.suppressed > 0 {
		log.Warn(fmt.Sprintf("%d %s suppressed", l.suppressed, l.what), "limit", fmt.Sprintf("%g lines/s", l.rate))
		l.suppressed = 0
	}
}
