package codec

import (
	"errors"
	"fmt"
	"math"
)

// Checksum-exchange opcodes (handshake.md 2.2-2.4). They belong to the
// NetFile dispatcher, not the game-opcode table.
const (
	ChecksumRequestOpcode  = 0x20 // server -> client: hash a directory
	ChecksumResponseOpcode = 0x21 // client -> server: the hash tree
	// ChecksumFailFileOpcode is sent for a file (content or presence)
	// mismatch. handshake.md 2.4 follows the majority of the RE notes; one
	// note has 0x22 and 0x23 the other way round (handshake.md 7).
	ChecksumFailFileOpcode = 0x22
	// ChecksumFailVersionOpcode is sent when the round-0 ref_hash (the
	// StringHash of the version string "60") does not match.
	ChecksumFailVersionOpcode = 0x23
)

// Limits on a decoded checksum tree. Stock rounds are at most two levels
// deep (Scripts/Multiplayer/Episode/MissionN) and a reassembled message is
// at most 255 fragments of ~406 bytes (transport.md 7.1), so about 13000
// entries; the caps only stop hostile input from costing more than that.
const (
	// ChecksumMaxDepth is the deepest subdirectory level accepted below the
	// requested directory.
	ChecksumMaxDepth = 8
	// ChecksumMaxEntries caps files plus subdirectories in one response.
	ChecksumMaxEntries = 16384
)

// Minimum encoded sizes used to check counts before allocating
// (handshake.md 2.3): a file entry is two u32; a subdirectory is its name
// hash plus an empty tree (u16 file count + u8 subdir count).
const (
	checksumFileSize   = 8
	checksumSubdirSize = 4 + 2 + 1
)

// ErrChecksumMalformed is wrapped by checksum-message decode and encode
// errors that are not truncation (truncation wraps ErrShort): a wrong
// opcode, trailing bytes, a bad packed byte or a tree over the limits.
var ErrChecksumMalformed = errors.New("malformed checksum message")

// ChecksumRequest is opcode 0x20, the server asking the client to hash
// the files in Dir matching Filter (handshake.md 2.2). Strings are sent
// case- and slash-exact: the client hashes the directory string it was sent.
type ChecksumRequest struct {
	Round     uint8 // 0, 1, 2, 3, then 0xFF
	Dir       string
	Filter    string
	Recursive bool
}

// AppendTo appends the encoded request to b. Strings longer than 65535
// bytes are cut, as the u16 length prefix cannot say more.
func (q ChecksumRequest) AppendTo(b []byte) []byte {
	var w Writer
	w.Reset(b)
	w.U8(ChecksumRequestOpcode)
	w.U8(q.Round)
	w.Str16(q.Dir)
	w.Str16(q.Filter)
	w.Bit(q.Recursive)
	return w.Bytes()
}

// DecodeChecksumRequest parses an opcode-0x20 payload. The recursive flag
// must be a packed byte holding exactly one bit (0x20 or 0x21), the only
// form the stock writer produces, so decoding and re-encoding is exact.
func DecodeChecksumRequest(payload []byte) (ChecksumRequest, error) {
	var q ChecksumRequest
	r := NewReader(payload)
	if op := r.U8(); r.Err() == nil && op != ChecksumRequestOpcode {
		return q, fmt.Errorf("checksum request: opcode 0x%02X: %w", op, ErrChecksumMalformed)
	}
	q.Round = r.U8()
	q.Dir = string(r.Str16())
	q.Filter = string(r.Str16())
	bitAt := r.Offset()
	q.Recursive = r.Bit()
	if r.Err() == nil && payload[bitAt]&^1 != 0x20 {
		r.Fail(fmt.Errorf("recursive flag byte 0x%02X at offset %d is not a single packed bit: %w",
			payload[bitAt], bitAt, ErrChecksumMalformed))
	}
	checksumNoTrailing(&r)
	if err := r.Err(); err != nil {
		return q, fmt.Errorf("checksum request round %d: %w", q.Round, err)
	}
	return q, nil
}

// ChecksumResponse is opcode 0x21, the client's hash tree for one request
// (handshake.md 2.3).
type ChecksumResponse struct {
	Round uint8
	// RefHash is StringHash("60") = 0x7E0CE243 from a stock client. It is
	// on the wire only when Round == 0; otherwise it is ignored.
	RefHash uint32
	// DirHash is StringHash of the request's directory string with one
	// trailing '/' removed.
	DirHash uint32
	Tree    ChecksumTree
}

// ChecksumTree is one directory level of a response. Order is the
// client's directory-enumeration order and carries no meaning; compare by
// name hash.
type ChecksumTree struct {
	Files   []FileEntry
	Subdirs []SubdirEntry
}

// FileEntry is one file of a ChecksumTree: StringHash of its name as stored
// on disk (case preserved) and FileHash of its bytes.
type FileEntry struct {
	NameHash    uint32
	ContentHash uint32
}

// SubdirEntry is one subdirectory of a ChecksumTree.
type SubdirEntry struct {
	NameHash uint32
	Tree     ChecksumTree
}

// AppendTo appends the encoded response to b. It fails, leaving b as it
// was, when a level has more files (65535) or subdirectories (255) than
// the counts can hold, or the tree exceeds ChecksumMaxDepth or
// ChecksumMaxEntries (the decoder would refuse it).
func (p ChecksumResponse) AppendTo(b []byte) ([]byte, error) {
	var w Writer
	w.Reset(b)
	w.U8(ChecksumResponseOpcode)
	w.U8(p.Round)
	if p.Round == 0 {
		w.U32(p.RefHash)
	}
	w.U32(p.DirHash)
	entries := 0
	if err := appendChecksumTree(&w, &p.Tree, 0, &entries); err != nil {
		return b, fmt.Errorf("checksum response round %d: %w", p.Round, err)
	}
	return w.Bytes(), nil
}

func appendChecksumTree(w *Writer, t *ChecksumTree, depth int, entries *int) error {
	if len(t.Files) > math.MaxUint16 {
		return fmt.Errorf("%d files in one directory, the u16 count holds 65535: %w", len(t.Files), ErrChecksumMalformed)
	}
	if len(t.Subdirs) > math.MaxUint8 {
		return fmt.Errorf("%d subdirectories in one directory, the u8 count holds 255: %w", len(t.Subdirs), ErrChecksumMalformed)
	}
	if len(t.Subdirs) > 0 && depth >= ChecksumMaxDepth {
		return fmt.Errorf("subdirectories deeper than %d levels: %w", ChecksumMaxDepth, ErrChecksumMalformed)
	}
	*entries += len(t.Files) + len(t.Subdirs)
	if *entries > ChecksumMaxEntries {
		return fmt.Errorf("more than %d entries: %w", ChecksumMaxEntries, ErrChecksumMalformed)
	}
	w.U16(uint16(len(t.Files)))
	for _, f := range t.Files {
		w.U32(f.NameHash)
		w.U32(f.ContentHash)
	}
	// All subdirectory name hashes come first, then each subtree in the
	// same order (handshake.md 2.3).
	w.U8(uint8(len(t.Subdirs)))
	for _, s := range t.Subdirs {
		w.U32(s.NameHash)
	}
	for i := range t.Subdirs {
		if err := appendChecksumTree(w, &t.Subdirs[i].Tree, depth+1, entries); err != nil {
			return err
		}
	}
	return nil
}

// DecodeChecksumResponse parses an opcode-0x21 payload (reassembled, since
// large responses arrive in fragments). Every count is checked against the
// bytes left before anything is allocated, depth and total entries are
// capped, and trailing bytes are an error.
//
// On error the returned value still holds the header fields read before
// the failure (Round, RefHash, DirHash) for the log; its Tree is empty.
func DecodeChecksumResponse(payload []byte) (ChecksumResponse, error) {
	var p ChecksumResponse
	r := NewReader(payload)
	if op := r.U8(); r.Err() == nil && op != ChecksumResponseOpcode {
		return p, fmt.Errorf("checksum response: opcode 0x%02X: %w", op, ErrChecksumMalformed)
	}
	p.Round = r.U8()
	if p.Round == 0 {
		p.RefHash = r.U32()
	}
	p.DirHash = r.U32()
	entries := 0
	tree := decodeChecksumTree(&r, 0, &entries)
	checksumNoTrailing(&r)
	if err := r.Err(); err != nil {
		return p, fmt.Errorf("checksum response round %d: %w", p.Round, err)
	}
	p.Tree = tree
	return p, nil
}

func decodeChecksumTree(r *Reader, depth int, entries *int) ChecksumTree {
	var t ChecksumTree
	at := r.Offset()
	n := int(r.U16())
	if r.Err() != nil {
		return t
	}
	if n*checksumFileSize > r.Len() {
		r.Fail(fmt.Errorf("file count %d at offset %d needs %d bytes, have %d: %w",
			n, at, n*checksumFileSize, r.Len(), ErrShort))
		return t
	}
	if *entries += n; *entries > ChecksumMaxEntries {
		r.Fail(fmt.Errorf("more than %d entries: %w", ChecksumMaxEntries, ErrChecksumMalformed))
		return t
	}
	if n > 0 {
		t.Files = make([]FileEntry, n)
		for i := range t.Files {
			t.Files[i] = FileEntry{NameHash: r.U32(), ContentHash: r.U32()}
		}
	}
	at = r.Offset()
	ns := int(r.U8())
	if r.Err() != nil || ns == 0 {
		return t
	}
	if depth >= ChecksumMaxDepth {
		r.Fail(fmt.Errorf("subdirectories deeper than %d levels at offset %d: %w", ChecksumMaxDepth, at, ErrChecksumMalformed))
		return t
	}
	if ns*checksumSubdirSize > r.Len() {
		r.Fail(fmt.Errorf("subdirectory count %d at offset %d needs at least %d bytes, have %d: %w",
			ns, at, ns*checksumSubdirSize, r.Len(), ErrShort))
		return t
	}
	if *entries += ns; *entries > ChecksumMaxEntries {
		r.Fail(fmt.Errorf("more than %d entries: %w", ChecksumMaxEntries, ErrChecksumMalformed))
		return t
	}
	t.Subdirs = make([]SubdirEntry, ns)
	for i := range t.Subdirs {
		t.Subdirs[i].NameHash = r.U32()
	}
	for i := range t.Subdirs {
		t.Subdirs[i].Tree = decodeChecksumTree(r, depth+1, entries)
		if r.Err() != nil {
			return ChecksumTree{}
		}
	}
	return t
}

// ChecksumFail is opcode 0x22 or 0x23, the server's only failure signal in
// the checksum exchange: the client shows a dialog naming File and leaves
// (handshake.md 2.4).
type ChecksumFail struct {
	Opcode uint8  // ChecksumFailFileOpcode or ChecksumFailVersionOpcode
	File   string // bytes as the client should display them, no terminator
}

// AppendTo appends the encoded message to b. Opcode is written as given;
// set it to one of the two ChecksumFail opcodes. A name longer than 65535
// bytes is cut.
func (c ChecksumFail) AppendTo(b []byte) []byte {
	var w Writer
	w.Reset(b)
	w.U8(c.Opcode)
	w.Str16(c.File)
	return w.Bytes()
}

// DecodeChecksumFail parses an opcode-0x22 or 0x23 payload.
func DecodeChecksumFail(payload []byte) (ChecksumFail, error) {
	var c ChecksumFail
	r := NewReader(payload)
	c.Opcode = r.U8()
	if r.Err() == nil && c.Opcode != ChecksumFailFileOpcode && c.Opcode != ChecksumFailVersionOpcode {
		return c, fmt.Errorf("checksum fail: opcode 0x%02X: %w", c.Opcode, ErrChecksumMalformed)
	}
	c.File = string(r.Str16())
	checksumNoTrailing(&r)
	if err := r.Err(); err != nil {
		return c, fmt.Errorf("checksum fail 0x%02X: %w", c.Opcode, err)
	}
	return c, nil
}

// checksumNoTrailing fails r when bytes are left: these messages have no
// optional tail, so extra bytes mean the sender and we disagree on layout.
func checksumNoTrailing(r *Reader) {
	if r.Err() == nil && r.Len() != 0 {
		r.Fail(fmt.Errorf("%d trailing bytes at offset %d: %w", r.Len(), r.Offset(), ErrChecksumMalformed))
	}
}
