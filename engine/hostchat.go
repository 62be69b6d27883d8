package engine

import "github.com/bcserver/bcserver/codec"

// HostPlayerID is the network player id of the host: the sender of its
// chat lines (missions.md 2.1), bc.host_id to missions.
const HostPlayerID = 1

// HostChat appends to dst a chat line from the host saying text, in the
// stock client's 8-bit form (Name8) and cut to what one chat line holds.
// Every chat line the host writes is built here: the server's notices,
// missions' and the admin API's.
func HostChat(dst []byte, text string) []byte { return HostChatBytes(dst, Name8(text)) }

// HostChatBytes is HostChat for text already in the client's bytes.
func HostChatBytes(dst, text []byte) []byte {
	if len(text) > codec.MaxChatText {
		text = text[:codec.MaxChatText]
	}
	return codec.Chat{Sender: HostPlayerID, Text: text}.AppendTo(dst)
}

// ServerNotice appends a host chat line that speaks for the server rather
// than the game ("[server] ..."): why a ship was refused, why the game
// mode stopped.
func ServerNotice(dst []byte, text string) []byte { return HostChat(dst, "[server] "+text) }
