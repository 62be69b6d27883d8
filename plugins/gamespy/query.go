package gamespy

import "bytes"

// query is what parseQuery found in a query datagram.
type query struct {
	basic, info, rules, players, status, packets bool
	hasEcho                                      bool
	echo                                         []byte
	secure                                       []byte
}

func (q *query) sections() bool {
	return q.basic || q.info || q.rules || q.players || q.status || q.packets
}

// parseQuery finds the query words. Like the stock SDK's value_for_key, a
// word is recognised as the substring `\word\` anywhere in the datagram,
// and its value is what follows up to the next backslash (gamespy.md 2).
func parseQuery(b []byte) query {
	var q query
	_, q.basic = wordValue(b, "basic")
	_, q.info = wordValue(b, "info")
	_, q.rules = wordValue(b, "rules")
	_, q.players = wordValue(b, "players")
	_, q.status = wordValue(b, "status")
	_, q.packets = wordValue(b, "packets")
	q.echo, q.hasEcho = wordValue(b, "echo")
	q.secure, _ = wordValue(b, "secure")
	return q
}

// wordValue finds `\word\` in b and returns the value after it.
func wordValue(b []byte, word string) ([]byte, bool) {
	for i := 0; i+len(word)+2 <= len(b); i++ {
		if b[i] != '\\' || b[i+len(word)+1] != '\\' || string(b[i+1:i+1+len(word)]) != word {
			continue
		}
		v := b[i+len(word)+2:]
		if j := bytes.IndexByte(v, '\\'); j >= 0 {
			v = v[:j]
		}
		return v, true
	}
	return nil, false
}
