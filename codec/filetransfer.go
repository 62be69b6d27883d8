package codec

// File transfer: the stock host's push of its Scripts/Multiplayer files
// after checksum round 0xFF (mods.md 5.5-5.7). These opcodes belong to the
// NetFile dispatcher with the checksum messages. 0x24 BEGIN_SEND_FILE and
// 0x26 DIRECTORY have no stock handler and no stock sender (mods.md 5.1):
// they have no type here.

// FilePathMax is the longest path a stock client can take: it copies the
// path into a 1,024-byte stack buffer without a bounds check (mods.md
// 5.8), so a sender must stay well below it.
const FilePathMax = 1024

// FileTransfer is NetFile opcode 0x25 (FILE_MESSAGE), host to client: one
// whole file. Path is relative to the game folder with "/" separators and
// no terminator (e.g. "Scripts/Multiplayer/SpeciesToShip.pyc"); Data runs
// to the end of the message. The stock client writes the file, answers
// with 0x27 and reloads the module if it is a loaded .pyc (mods.md 5.8).
type FileTransfer struct {
	Path []byte
	Data []byte
}

// Len returns the encoded size: 3 + len(Path) + len(Data) (mods.md 5.5).
func (m FileTransfer) Len() int { return 3 + len(m.Path) + len(m.Data) }

// AppendTo appends the encoded message to b. A path longer than 65535
// bytes is cut (the length is a u16).
func (m FileTransfer) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpFileTransfer)
	w.rawStr16(m.Path)
	w.Raw(m.Data)
	return w.buf
}

// DecodeFileTransfer parses an opcode-0x25 payload. Path and Data are
// sub-slices of payload. The stock reader takes the length as a signed
// short into a 1,024-byte buffer, so a length of FilePathMax or more is
// refused as malformed rather than read: no stock host could send it
// without crashing the client.
func DecodeFileTransfer(payload []byte) (FileTransfer, error) {
	var m FileTransfer
	d := newDecoder(payload, "file transfer")
	d.opcode(OpFileTransfer)
	at := d.Offset()
	n := d.at("path length").U16()
	if d.err == nil && n >= FilePathMax {
		d.fail("path length", "path of %d bytes at offset %d, a stock client holds fewer than %d", n, at, FilePathMax)
	}
	if d.err == nil {
		m.Path = d.at("path").Raw(int(n))
	}
	if d.err == nil {
		m.Data = d.Rest()
	}
	return m, d.result()
}

// FileTransferAck is NetFile opcode 0x27 (FILE_RECEIVED_ACK), client to
// host, no payload: sent after every 0x25 the client processed, whether or
// not it could write the file (mods.md 5.6).
type FileTransferAck struct{}

// AppendTo appends the encoded message to b.
func (FileTransferAck) AppendTo(b []byte) []byte { return append(b, OpFileTransferAck) }

// DecodeFileTransferAck parses an opcode-0x27 payload.
func DecodeFileTransferAck(payload []byte) (FileTransferAck, error) {
	return FileTransferAck{}, decodeBare(payload, OpFileTransferAck, "file transfer ack")
}
