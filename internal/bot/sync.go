package bot

import (
	"context"
	"errors"
)

// Sync waits until the bot's goroutine has run once: after it returns,
// the connect request of a started bot has left its socket. Tests use it
// to have many connects queued at the server before it reads any.
func (b *Bot) Sync(ctx context.Context) error {
	done := make(chan struct{})
	select {
	case b.cmds <- func() { close(done) }:
	case <-b.done:
		return errors.New("bot closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-b.done:
		return errors.New("bot closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}
