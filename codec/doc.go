// Package codec implements the stock game's TGBufferStream wire primitives
// (spec/codec.md): little-endian scalars, length-prefixed strings, packed
// booleans, CompressedFloat16 and the compressed direction/vector forms.
//
// codec knows bytes and nothing else: no sockets, no time, no players.
// Writers append into a caller's buffer; Readers never panic and never
// allocate, and report the first error through Err (sticky error style), so
// a decoder can read a whole message and check once.
package codec
