package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/names"
)

// File format constants (docs/replay-format.md).
const (
	// Magic opens every recording.
	Magic = "BCREPLAY"
	// Version is the format version this package writes (the capture's
	// records' version). A reader refuses files of a newer major version.
	Version = capture.FormatVersion
	// Ext is a recording's file name extension.
	Ext = ".bcr"

	tagBlock  = 'B'
	tagFooter = 'F'

	prefixLen      = 16 // magic, version, reserved, header length
	blockHeaderLen = 17 // tag, compressed length, raw length, start, end
	maxHeader      = 64 << 10
	// maxBlockRaw bounds one block's records: a writer stops adding
	// records past it until the next keyframe, a reader refuses more.
	maxBlockRaw = 8 << 20
)

// BlockInfo locates one block.
type BlockInfo struct {
	Offset     int64  // of the compressed data
	Comp, Raw  uint32 // compressed and uncompressed sizes
	Start, End uint32 // times of its first and last record
}

// appendPrefix writes the file prefix and header.
func appendPrefix(b []byte, h *capture.Header) ([]byte, error) {
	js, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	return append(b, js...), nil
}

func appendBlockHeader(b []byte, comp, raw int, start, end uint32) []byte {
	b = append(b, tagBlock)
	b = binary.LittleEndian.AppendUint32(b, uint32(comp))
	b = binary.LittleEndian.AppendUint32(b, uint32(raw))
	b = binary.LittleEndian.AppendUint32(b, start)
	return binary.LittleEndian.AppendUint32(b, end)
}

func appendFooter(b []byte, f *capture.Footer) ([]byte, error) {
	js, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	b = append(b, tagFooter)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	return append(b, js...), nil
}

// File is an open recording.
type File struct {
	Header capture.Header
	Footer *capture.Footer // nil for a recording cut short
	Blocks []BlockInfo
	// Damaged is set when the file ends in a partial block or an unknown
	// frame: everything before it is readable.
	Damaged bool

	r    io.ReaderAt
	c    io.Closer
	size int64
	dec  *zstd.Decoder
	// afterBlock, if set, is called after each block read (tests measure
	// what a reader holds between blocks).
	afterBlock func(i int)
}

// Open opens the recording at path.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	rf, err := NewFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rf.c = f
	return rf, nil
}

// NewFile reads a recording of size bytes from r.
func NewFile(r io.ReaderAt, size int64) (*File, error) {
	var pre [prefixLen]byte
	if _, err := r.ReadAt(pre[:], 0); err != nil {
		return nil, errors.New("not a recording: too short")
	}
	if string(pre[:8]) != Magic {
		return nil, errors.New("not a recording: bad magic")
	}
	if v := binary.LittleEndian.Uint16(pre[8:]); v > Version {
		return nil, fmt.Errorf("recording format version %d is newer than this reader (%d)", v, Version)
	}
	hl := int64(binary.LittleEndian.Uint32(pre[12:]))
	if hl > maxHeader || prefixLen+hl > size {
		return nil, errors.New("bad header length")
	}
	hb := make([]byte, hl)
	if _, err := r.ReadAt(hb, prefixLen); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	rf := &File{r: r, size: size}
	if err := json.Unmarshal(hb, &rf.Header); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if rf.Header.Format != capture.FormatName {
		return nil, fmt.Errorf("header format %q, want %q", rf.Header.Format, capture.FormatName)
	}
	rf.scan(prefixLen + hl)
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBlockRaw))
	if err != nil {
		return nil, err
	}
	rf.dec = dec
	return rf, nil
}

// scan walks the frames from off: block headers (their data is skipped)
// and the footer.
func (f *File) scan(off int64) {
	var h [blockHeaderLen]byte
	var last uint32
	for off < f.size {
		n, _ := f.r.ReadAt(h[:], off)
		if n < 1 {
			f.Damaged = true
			return
		}
		switch h[0] {
		case tagBlock:
			if n < blockHeaderLen {
				f.Damaged = true
				return
			}
			b := BlockInfo{Offset: off + blockHeaderLen, Comp: binary.LittleEndian.Uint32(h[1:]), Raw: binary.LittleEndian.Uint32(h[5:]),
				Start: binary.LittleEndian.Uint32(h[9:]), End: binary.LittleEndian.Uint32(h[13:])}
			if b.Offset+int64(b.Comp) > f.size || b.Raw > maxBlockRaw || b.End < b.Start || b.Start < last {
				f.Damaged = true
				return
			}
			last = b.End
			f.Blocks = append(f.Blocks, b)
			off = b.Offset + int64(b.Comp)
		case tagFooter:
			if n < 5 {
				f.Damaged = true
				return
			}
			l := int64(binary.LittleEndian.Uint32(h[1:]))
			if l > maxHeader || off+5+l > f.size {
				f.Damaged = true
				return
			}
			fb := make([]byte, l)
			if _, err := f.r.ReadAt(fb, off+5); err != nil {
				f.Damaged = true
				return
			}
			var ft capture.Footer
			if err := json.Unmarshal(fb, &ft); err != nil {
				f.Damaged = true
				return
			}
			f.Footer = &ft
			return
		default:
			f.Damaged = true
			return
		}
	}
}

// Close closes the file.
func (f *File) Close() error {
	if f.dec != nil {
		f.dec.Close()
	}
	if f.c != nil {
		return f.c.Close()
	}
	return nil
}

// Duration is the time of the last record, in milliseconds.
func (f *File) Duration() uint32 {
	if f.Footer != nil && f.Footer.DurationMS > 0 {
		return f.Footer.DurationMS
	}
	if n := len(f.Blocks); n > 0 {
		return f.Blocks[n-1].End
	}
	return 0
}

// Block returns the records of block i, uncompressed.
func (f *File) Block(i int) ([]byte, error) {
	b := f.Blocks[i]
	comp := make([]byte, b.Comp)
	if _, err := f.r.ReadAt(comp, b.Offset); err != nil {
		return nil, fmt.Errorf("block %d: %w", i, err)
	}
	raw, err := f.dec.DecodeAll(comp, make([]byte, 0, b.Raw))
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", i, err)
	}
	if len(raw) != int(b.Raw) {
		return nil, fmt.Errorf("block %d: %d bytes, header says %d", i, len(raw), b.Raw)
	}
	return raw, nil
}

// BlockAt returns the index of the block to start from to know the state
// at time t: the last one starting at or before t (0 before the first).
func (f *File) BlockAt(t uint32) int {
	i := 0
	for k, b := range f.Blocks {
		if b.Start <= t {
			i = k
		}
	}
	return i
}

// Each calls fn with every record of blocks from..to-1 in order; fn
// returning false stops it. The Record is reused between calls.
func (f *File) Each(from, to int, fn func(*capture.Record) bool) error {
	var r capture.Record
	for i := from; i < to && i < len(f.Blocks); i++ {
		raw, err := f.Block(i)
		if err != nil {
			return err
		}
		d := NewDecoder(raw, f.Blocks[i].Start)
		for {
			ok, err := d.Next(&r)
			if err != nil {
				return fmt.Errorf("block %d: %w", i, err)
			}
			if !ok {
				break
			}
			if r.Kind == capture.KindChat {
				r.Text = f.chatText(r.Text)
			}
			if !fn(&r) {
				return nil
			}
		}
		if f.afterBlock != nil {
			f.afterBlock(i)
		}
	}
	return nil
}

// chatText is a chat line as a viewer may show it: decoded from the
// client's code page in a file written before recordings held UTF-8, and,
// whatever the file says, one line with no control or bidi character (a
// file is input like any other).
func (f *File) chatText(s string) string {
	if f.Header.Text != capture.TextUTF8 {
		return names.CleanText(names.Decode([]byte(s)))
	}
	return names.CleanText(s)
}

// All calls fn with every record of the file.
func (f *File) All(fn func(*capture.Record) bool) error { return f.Each(0, len(f.Blocks), fn) }

// ReadBytes opens a recording held in memory (tests, fuzzing).
func ReadBytes(b []byte) (*File, error) { return NewFile(bytes.NewReader(b), int64(len(b))) }
