package record

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/bcserver/bcserver/engine/capture"
)

// DefaultQueue is the capacity of a FileSink's queue in blocks: a minute
// and more of a busy game at the default keyframe interval.
const DefaultQueue = 8

// controlSlots are queue places only opens and closes may take, so a disk
// that falls behind loses blocks, not the file's start or end.
const controlSlots = 2

// FileSinkOptions configures a FileSink.
type FileSinkOptions struct {
	// Queue is the number of blocks waiting for the disk (DefaultQueue
	// when 0); more are dropped and counted.
	Queue  int
	Logger *slog.Logger
}

// FileStats counts what a FileSink did; readable from any goroutine.
type FileStats struct {
	Matches        atomic.Uint64 // recordings finished
	Blocks         atomic.Uint64 // blocks written
	Bytes          atomic.Uint64 // bytes written
	DroppedBlocks  atomic.Uint64 // blocks lost to a full queue or the size limit
	DroppedRecords atomic.Uint64 // records lost to an over-full block
	Errors         atomic.Uint64 // file errors
}

// FileSink writes each match to its own file in an Archive. Its Sink
// methods run on the game goroutine and only encode into memory; one
// goroutine of its own compresses and writes.
type FileSink struct {
	a     *Archive
	log   *slog.Logger
	enc   *Encoder
	Stats FileStats

	// game goroutine
	in        bool
	buf       []byte
	start     uint32
	end       uint32
	players   bool
	dropBlk   uint64
	dropRec   uint64
	warnedOut bool

	mu     sync.RWMutex // held for reading to send, for writing by Close
	closed bool
	q      chan wop
	free   chan []byte
	done   chan struct{}
}

type wopKind int

const (
	opOpen wopKind = iota
	opBlock
	opClose
	opFlush
)

type wop struct {
	kind       wopKind
	header     *capture.Header
	raw        []byte
	start, end uint32
	footer     capture.Footer
	discard    bool
	flushed    chan struct{}
}

// NewFileSink starts a writer into a.
func NewFileSink(a *Archive, opts FileSinkOptions) *FileSink {
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &FileSink{a: a, log: log.With("component", "plugin/record"), enc: NewEncoder(),
		q: make(chan wop, opts.Queue+controlSlots), free: make(chan []byte, opts.Queue+2), done: make(chan struct{})}
	go s.writer()
	return s
}

func (s *FileSink) getBuf() []byte {
	select {
	case b := <-s.free:
		return b[:0]
	default:
		return make([]byte, 0, 64<<10)
	}
}

// send queues op without waiting; blocks leave the control slots free.
func (s *FileSink) send(op wop) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return false
	}
	if op.kind == opBlock && len(s.q) >= cap(s.q)-controlSlots {
		return false
	}
	select {
	case s.q <- op:
		return true
	default:
		return false
	}
}

// BeginMatch implements Sink.
func (s *FileSink) BeginMatch(h *capture.Header) {
	s.in, s.players, s.dropBlk, s.dropRec, s.warnedOut = true, false, 0, 0, false
	s.buf = s.getBuf()
	if !s.send(wop{kind: opOpen, header: h}) {
		s.log.Warn("recording queue full: this match is not recorded")
		s.in = false
	}
}

// Record implements Sink.
func (s *FileSink) Record(r *capture.Record) {
	if !s.in {
		return
	}
	if r.Kind == capture.KindKeyframe && len(s.buf) > 0 {
		s.seal()
	}
	if len(s.buf) == 0 {
		if r.Kind != capture.KindKeyframe {
			return // only after a block was lost: wait for the next keyframe
		}
		s.enc.Begin(r.T)
		s.start = r.T
	} else if len(s.buf) > maxBlockRaw/2 {
		// A flood (chat, fire) between two keyframes: the block stays
		// bounded; the next keyframe restates the game.
		s.dropRec++
		s.Stats.DroppedRecords.Add(1)
		return
	}
	if r.Kind == capture.KindPlayer && r.InGame {
		s.players = true
	}
	s.buf = s.enc.Append(s.buf, r)
	s.end = r.T
}

// seal hands the block to the writer.
func (s *FileSink) seal() {
	if len(s.buf) == 0 {
		return
	}
	if s.send(wop{kind: opBlock, raw: s.buf, start: s.start, end: s.end}) {
		s.buf = s.getBuf()
		return
	}
	s.dropBlk++
	s.Stats.DroppedBlocks.Add(1)
	if !s.warnedOut {
		s.warnedOut = true
		s.log.Warn("recording queue full: a block of the match is dropped (the disk is slow)")
	}
	s.buf = s.buf[:0]
}

// EndMatch implements Sink. A match nobody played in leaves no file.
func (s *FileSink) EndMatch(f *capture.Footer) {
	if !s.in {
		return
	}
	s.seal()
	s.in = false
	ft := *f
	ft.DroppedBlocks, ft.DroppedRecords = s.dropBlk, s.dropRec
	s.send(wop{kind: opClose, footer: ft, discard: !s.players})
}

// Flush waits until everything queued is written (tests, shutdown).
func (s *FileSink) Flush() error {
	ch := make(chan struct{})
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errors.New("record: closed")
	}
	s.q <- wop{kind: opFlush, flushed: ch}
	s.mu.RUnlock()
	<-ch
	return nil
}

// Close writes what is queued and stops the writer. Call it after the
// game stopped.
func (s *FileSink) Close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.q)
	}
	s.mu.Unlock()
	<-s.done
}

// writer owns the open file.
type fileState struct {
	f         *os.File
	id        string
	size      int64
	blocks    int
	truncated bool
	failed    bool
	comp      []byte
	hdr       []byte
}

func (s *FileSink) writer() {
	defer close(s.done)
	var st fileState
	for op := range s.q {
		switch op.kind {
		case opOpen:
			if st.f != nil {
				s.finish(&st, capture.Footer{Reason: "unfinished"}, false)
			}
			s.open(&st, op.header)
		case opBlock:
			s.block(&st, op)
			select {
			case s.free <- op.raw:
			default:
			}
		case opClose:
			if st.f != nil {
				s.finish(&st, op.footer, op.discard)
			}
		case opFlush:
			close(op.flushed)
		}
	}
	if st.f != nil {
		s.finish(&st, capture.Footer{Reason: "unfinished"}, false)
	}
}

func (s *FileSink) open(st *fileState, h *capture.Header) {
	*st = fileState{comp: st.comp, hdr: st.hdr}
	id := fileID(h)
	var f *os.File
	var err error
	for i := 1; i <= 100; i++ {
		try := id
		if i > 1 {
			try = fmt.Sprintf("%s-%d", id, i)
		}
		f, err = os.OpenFile(filepath.Join(s.a.Dir(), try+Ext), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		id = try
		break
	}
	if err != nil {
		s.Stats.Errors.Add(1)
		s.log.Error("cannot create a recording", "err", err)
		return
	}
	b, err := appendPrefix(st.hdr[:0], h)
	if err == nil {
		_, err = f.Write(b)
	}
	if err != nil {
		s.Stats.Errors.Add(1)
		s.log.Error("writing a recording", "file", f.Name(), "err", err)
		f.Close()
		return
	}
	st.f, st.id, st.size = f, id, int64(len(b))
}

func (s *FileSink) block(st *fileState, op wop) {
	if st.f == nil || st.failed {
		return
	}
	if st.truncated {
		s.Stats.DroppedBlocks.Add(1)
		return
	}
	st.comp = s.a.enc.EncodeAll(op.raw, st.comp[:0])
	if st.size+int64(blockHeaderLen+len(st.comp)) > s.a.opts.MaxFileBytes {
		st.truncated = true
		s.Stats.DroppedBlocks.Add(1)
		s.log.Warn("recording reached its size limit: the rest of the match is not recorded", "file", st.id+Ext, "max_bytes", s.a.opts.MaxFileBytes)
		return
	}
	st.hdr = appendBlockHeader(st.hdr[:0], len(st.comp), len(op.raw), op.start, op.end)
	_, err := st.f.Write(st.hdr)
	if err == nil {
		_, err = st.f.Write(st.comp)
	}
	if err != nil {
		st.failed = true
		s.Stats.Errors.Add(1)
		s.log.Error("writing a recording", "file", st.id+Ext, "err", err)
		return
	}
	st.size += int64(blockHeaderLen + len(st.comp))
	st.blocks++
	s.Stats.Blocks.Add(1)
	s.Stats.Bytes.Add(uint64(blockHeaderLen + len(st.comp)))
}

func (s *FileSink) finish(st *fileState, ft capture.Footer, discard bool) {
	name := st.f.Name()
	ft.Blocks, ft.Truncated = st.blocks, st.truncated
	var err error
	if !st.failed {
		var b []byte
		if b, err = appendFooter(nil, &ft); err == nil {
			_, err = st.f.Write(b)
		}
	}
	if cerr := st.f.Close(); err == nil {
		err = cerr
	}
	st.f = nil
	switch {
	case discard:
		_ = os.Remove(name)
	case err != nil:
		s.Stats.Errors.Add(1)
		s.log.Error("finishing a recording", "file", name, "err", err)
	default:
		s.Stats.Matches.Add(1)
		s.log.Info("match recorded", "file", filepath.Base(name), "bytes", st.size, "reason", ft.Reason)
	}
	s.a.Sweep(st.id)
}
