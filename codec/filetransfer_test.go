package codec_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

// specFilePrefix is the start of a stock 0x25 as mods.md 5.5 gives it: the
// opcode, the u16 length 0x25 and "Scripts/Multiplayer/SpeciesToShip.pyc".
// No capture of a push exists yet (mods.md 9), so the spec's bytes are the
// golden input.
const specFilePrefix = "25 25 00 53 63 72 69 70 74 73 2F 4D 75 6C 74 69 70 6C 61 79 65 72 2F 53" +
	" 70 65 63 69 65 73 54 6F 53 68 69 70 2E 70 79 63"

func TestFileTransferBytes(t *testing.T) {
	prefix := vectors.MustHex(t, strings.ReplaceAll(specFilePrefix, " ", ""))
	data := []byte{0x99, 0x4E, 0x0D, 0x0A, 1, 2, 3, 4, 0xE3}
	m := codec.FileTransfer{Path: []byte("Scripts/Multiplayer/SpeciesToShip.pyc"), Data: data}
	wire := m.AppendTo(nil)
	if !bytes.Equal(wire, append(bytes.Clone(prefix), data...)) {
		t.Fatalf("encoded\n %X\nwant %X + file", wire, prefix)
	}
	if m.Len() != len(wire) || len(wire) != 3+37+len(data) {
		t.Errorf("Len %d, encoded %d", m.Len(), len(wire))
	}
	got, err := codec.DecodeFileTransfer(wire)
	if err != nil || string(got.Path) != string(m.Path) || !bytes.Equal(got.Data, data) {
		t.Fatalf("decode = %q %X, %v", got.Path, got.Data, err)
	}
	// An empty file is a valid message: the path alone.
	if got, err := codec.DecodeFileTransfer(prefix); err != nil || len(got.Data) != 0 {
		t.Errorf("empty file: %X, %v", got.Data, err)
	}
	// Every cut inside the header fails; a cut in the file body is a
	// shorter file (the body runs to the end of the message).
	for n := range 3 + 37 {
		if _, err := codec.DecodeFileTransfer(wire[:n]); !errors.Is(err, codec.ErrShort) && !(n == 0 && err != nil) {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
}

func TestFileTransferRefused(t *testing.T) {
	long := codec.FileTransfer{Path: bytes.Repeat([]byte("a"), codec.FilePathMax)}.AppendTo(nil)
	for name, p := range map[string][]byte{
		"wrong opcode":               {0x24, 0, 0},
		"path the client overflows":  long,
		"negative as a signed short": {0x25, 0x00, 0x80},
	} {
		if _, err := codec.DecodeFileTransfer(p); !errors.Is(err, codec.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestFileTransferAck(t *testing.T) {
	if got := (codec.FileTransferAck{}).AppendTo(nil); !bytes.Equal(got, []byte{0x27}) {
		t.Errorf("ack %X", got)
	}
	if _, err := codec.DecodeFileTransferAck([]byte{0x27}); err != nil {
		t.Error(err)
	}
	for _, p := range [][]byte{nil, {0x28}, {0x27, 0}} {
		if _, err := codec.DecodeFileTransferAck(p); err == nil {
			t.Errorf("%X decoded", p)
		}
	}
}

func FuzzFileTransfer(f *testing.F) {
	f.Add(codec.FileTransfer{Path: []byte("Scripts/Multiplayer/SpeciesToShip.pyc"), Data: []byte{1, 2, 3}}.AppendTo(nil))
	f.Add(codec.FileTransfer{}.AppendTo(nil))
	f.Add([]byte{0x27})
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, err := codec.DecodeFileTransfer(data); err == nil {
			if len(m.Path) >= codec.FilePathMax {
				t.Fatalf("path of %d bytes accepted", len(m.Path))
			}
			if enc := m.AppendTo(nil); !bytes.Equal(enc, data) {
				t.Fatalf("re-encode differs:\n in  %X\n out %X", data, enc)
			}
		}
		if _, err := codec.DecodeFileTransferAck(data); err == nil && !bytes.Equal(data, []byte{0x27}) {
			t.Fatalf("ack %X accepted", data)
		}
	})
}
