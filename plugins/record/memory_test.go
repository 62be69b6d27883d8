package record_test

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/plugins/record"
)

// The memory a reader may hold, whatever the recording: what it keeps
// between two blocks (the summary's bounded lists, the state) beyond the
// block it reads (at most 8 MiB raw, checked when the file is opened),
// and the JSON it answers with.
const (
	readerLiveBound = 16 << 20
	summaryJSON     = 2 << 20
	windowJSON      = 16 << 20
)

// measure reads with fn (a summary or a window of f) and returns the most
// the heap held beyond before at any block boundary and with the answer
// built, after a collection: what the reader keeps, not the garbage it
// leaves.
func measure(t *testing.T, f *record.File, fn func() any) (peak uint64, out []byte) {
	t.Helper()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	record.SetAfterBlock(f, func(int) {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > base {
			peak = max(peak, ms.HeapAlloc-base)
		}
	})
	defer record.SetAfterBlock(f, nil)
	v := fn()
	// And what the answer itself holds, before it is written.
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > base {
		peak = max(peak, ms.HeapAlloc-base)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return peak, b
}

// checkReaders summarizes f and reads every window of it, holding each to
// the bounds.
func checkReaders(t *testing.T, name string, f *record.File) {
	t.Helper()
	var sum *record.Summary
	peak, b := measure(t, f, func() any {
		s, err := record.SummarizeView(f, record.View{})
		if err != nil {
			t.Fatal(err)
		}
		sum = s
		return s
	})
	t.Logf("%s: %d blocks, summary: %d chat lines (%d omitted), held %.1f MiB, %d bytes of JSON",
		name, len(f.Blocks), len(sum.Chat), sum.ChatOmitted, float64(peak)/(1<<20), len(b))
	if peak > readerLiveBound || len(b) > summaryJSON {
		t.Errorf("%s: the summary held %d bytes, answers %d bytes (bounds %d, %d)", name, peak, len(b), readerLiveBound, summaryJSON)
	}
	worst, worstJSON := uint64(0), 0
	windows := 0
	for from := uint32(0); from <= f.Duration(); from += 30_000 {
		peak, b := measure(t, f, func() any {
			w, err := record.FramesView(f, from, from+30_000, 50, record.View{})
			if err != nil {
				t.Fatal(err)
			}
			return w
		})
		worst, worstJSON = max(worst, peak), max(worstJSON, len(b))
		windows++
	}
	t.Logf("%s: %d windows of 30 s at 50 ms: held at most %.1f MiB, at most %d bytes of JSON", name, windows, float64(worst)/(1<<20), worstJSON)
	if worst > readerLiveBound || worstJSON > windowJSON {
		t.Errorf("%s: a window held %d bytes, answers %d bytes (bounds %d, %d)", name, worst, worstJSON, readerLiveBound, windowJSON)
	}
}

// Two players flooding chat for two minutes (every tick, the longest
// line) cost the recording their allowance and no more: the lines beyond
// are counted in the footer. Reading it back, and reading a file whose
// blocks are all chat (400,000 lines, as a crafted file or a recorder
// without the allowance would have), or all ships (a crafted block of
// a hundred thousand objects), stays within the bounds.
func TestReadersBoundedUnderFloods(t *testing.T) {
	if testing.Short() {
		t.Skip("long recordings")
	}
	dir := t.TempDir()
	a, err := record.NewArchive(record.ArchiveOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()

	// The flooding match.
	fs := record.NewFileSink(a, record.FileSinkOptions{})
	w, err := missiontest.NewMatch(missiontest.Options{Mode: "deathmatch", FS: missions.FS()})
	if err != nil {
		t.Fatal(err)
	}
	c := capture.NewCapture(capture.CaptureOptions{}, fs)
	if err := w.Game.AddPlugin(c); err != nil {
		t.Fatal(err)
	}
	alice, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := w.Join("Bob")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("spam ", 49)
	const secs = 120
	for range secs * 10 {
		_ = alice.Chat(line, false)
		_ = bob.Chat(line, true)
		w.Advance(100 * time.Millisecond)
		alice.Take()
		bob.Take()
	}
	c.Cut("ended_by_admin")
	w.Close()
	fs.Close()
	list, err := a.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("recordings %+v %v", list, err)
	}
	f, err := record.Open(filepath.Join(dir, list[0].ID+record.Ext))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Each player: the burst, then one line a second.
	maxRecorded := 2 * (capture.ChatBurst + secs*capture.ChatRate + 1)
	if f.Footer == nil || f.Footer.ChatDropped < 2*secs*10-uint64(maxRecorded) {
		t.Fatalf("footer %+v: want about %d lines dropped", f.Footer, 2*secs*10-int(maxRecorded))
	}
	t.Logf("flooding match: %d lines sent, %d recorded, %d counted as dropped, file %d bytes",
		2*secs*10, 2*secs*10-int(f.Footer.ChatDropped), f.Footer.ChatDropped, list[0].Bytes)
	checkReaders(t, "flooding match", f)

	// A recording of nothing but chat, without any allowance (the writer
	// still bounds each block: past 4 MiB it drops records until the next
	// keyframe).
	flood := record.NewFileSink(a, record.FileSinkOptions{})
	flood.BeginMatch(&capture.Header{Format: capture.FormatName, Version: record.Version, Text: capture.TextUTF8, Mode: "chatflood", Started: time.Unix(1e9, 0)})
	flood.Record(&capture.Record{Kind: capture.KindKeyframe})
	flood.Record(&capture.Record{Kind: capture.KindPlayer, Player: 2, InGame: true, Name: "Flood"})
	text := strings.Repeat("x", 500)
	const lines = 100_000
	for i := range lines {
		tm := uint32(i / 4 * 3) // four lines every 3 ms: 5 minutes
		if i > 0 && i%20_000 == 0 {
			flood.Record(&capture.Record{T: tm, Kind: capture.KindKeyframe})
			flood.Record(&capture.Record{T: tm, Kind: capture.KindPlayer, Player: 2, InGame: true, Name: "Flood"})
		}
		flood.Record(&capture.Record{T: tm, Kind: capture.KindChat, Player: 2, Text: text})
	}
	flood.EndMatch(&capture.Footer{DurationMS: lines / 4 * 3, Reason: "shutdown"})
	flood.Close()
	ff := openLatest(t, a, dir, "chatflood")
	defer ff.Close()
	checkReaders(t, "100,000 chat lines", ff)

	// A block of nothing but ships.
	bomb := record.NewFileSink(a, record.FileSinkOptions{})
	bomb.BeginMatch(&capture.Header{Format: capture.FormatName, Version: record.Version, Mode: "shipbomb", Started: time.Unix(2e9, 0)})
	bomb.Record(&capture.Record{Kind: capture.KindKeyframe})
	bomb.Record(&capture.Record{Kind: capture.KindPlayer, Player: 2, InGame: true, Name: "Bomb"})
	for i := range 100_000 {
		bomb.Record(&capture.Record{T: uint32(i / 20), Kind: capture.KindObject, Object: int32(i + 1), Name: "x"})
	}
	bomb.EndMatch(&capture.Footer{DurationMS: 30_000, Reason: "shutdown"})
	bomb.Close()
	fb := openLatest(t, a, dir, "shipbomb")
	defer fb.Close()
	checkReaders(t, "a block of ships", fb)

	// The archive's summary cache holds them all, in both views, within
	// its byte budget.
	list, _ = a.List()
	for _, e := range list {
		for _, v := range []record.View{{}, {Public: true}} {
			if _, err := a.SummaryView(e.ID, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, bytes := a.SummaryCache()
	t.Logf("summary cache: %d summaries, %.1f MiB", n, float64(bytes)/(1<<20))
	if n != 2*len(list) || bytes <= 0 || bytes > 32<<20 {
		t.Errorf("summary cache: %d summaries, %d bytes", n, bytes)
	}
}

func openLatest(t *testing.T, a *record.Archive, dir, mode string) *record.File {
	t.Helper()
	list, err := a.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Mode == mode {
			f, err := record.Open(filepath.Join(dir, e.ID+record.Ext))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes on disk", mode, e.Bytes)
			return f
		}
	}
	t.Fatalf("no %s recording", mode)
	return nil
}
