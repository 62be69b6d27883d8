package modimport

import (
	"fmt"
	"strings"
)

// This file reads the Python 1.5 subset the stock scripts are written in
// as text (mods.md 3.1): tokens, logical lines, and the block structure
// given by indentation. Nothing is ever executed.

type tokKind uint8

const (
	tName tokKind = iota + 1
	tNumber
	tString
	tOp
)

type token struct {
	kind tokKind
	text string // names, numbers and operators as written; a string's value
	line int
}

func (t token) is(kind tokKind, text string) bool { return t.kind == kind && t.text == text }

// stmt is one logical line and, for a compound statement (ending in ':'),
// the statements of its block.
type stmt struct {
	line   int
	indent int
	toks   []token
	body   []*stmt
}

// header reports whether the statement opens a block.
func (s *stmt) header() bool {
	n := len(s.toks)
	return n > 0 && s.toks[n-1].is(tOp, ":")
}

// starts reports whether the statement's tokens begin with the given
// names or operators.
func (s *stmt) starts(words ...string) bool {
	if len(s.toks) < len(words) {
		return false
	}
	for i, w := range words {
		if s.toks[i].text != w || s.toks[i].kind == tString {
			return false
		}
	}
	return true
}

// Limits of the reader, near the game's own Python 1.5: its tokenizer
// refuses more than 200 nested brackets (MAXLEVEL) and 100 indentation
// levels (MAXINDENT). Without them a file of a million "(" costs the
// parser's stack and a hundred thousand cost hundreds of megabytes.
const (
	maxNesting = 200
	maxIndent  = 100
	// maxTokens bounds one file's tokens (32 bytes each): the Galaxy's
	// hardpoint, the largest stock one, has some 7,000 in the setters the
	// pack reads; a 40-bank mod ship with every editor setter, a few
	// times that.
	maxTokens = 1 << 17
)

// lineError is a reading error at a line of the file being read; its text
// is the report's, never a Go library's.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func errAt(line int, format string, args ...any) error {
	return &lineError{line: line, msg: fmt.Sprintf(format, args...)}
}

// parseModule splits src into statements with their blocks.
func parseModule(src string) ([]*stmt, error) {
	if len(src) > maxSource {
		return nil, errAt(0, "%d bytes, more than a script holds (%d)", len(src), maxSource)
	}
	lines, err := logicalLines(src)
	if err != nil {
		return nil, err
	}
	var root []*stmt
	// stack of open blocks: the header statement and its indent.
	type open struct {
		s      *stmt
		indent int
	}
	var stack []open
	for _, l := range lines {
		for len(stack) > 0 && l.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			root = append(root, l)
		} else {
			top := stack[len(stack)-1].s
			top.body = append(top.body, l)
		}
		if l.header() {
			if len(stack) >= maxIndent {
				return nil, errAt(l.line, "more than %d nested blocks (the game's Python refuses the file too)", maxIndent)
			}
			stack = append(stack, open{l, l.indent})
			continue
		}
		// "if x: y" on one line: the part after the first ':' at depth 0
		// is the block.
		if i := inlineColon(l.toks); i > 0 {
			body := &stmt{line: l.line, indent: l.indent + 1, toks: l.toks[i+1:]}
			l.toks = l.toks[:i+1]
			l.body = []*stmt{body}
		}
	}
	return root, nil
}

// inlineColon finds the ':' ending the header of a one-line compound
// statement, or returns -1.
func inlineColon(toks []token) int {
	if len(toks) == 0 || toks[0].kind != tName {
		return -1
	}
	switch toks[0].text {
	case "if", "elif", "else", "for", "while", "def", "try", "except", "finally", "class":
	default:
		return -1
	}
	depth := 0
	for i, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 && i < len(toks)-1 {
				return i
			}
		}
	}
	return -1
}

// logicalLines tokenises src into logical lines: physical lines joined
// inside brackets and after a backslash, comments and blank lines dropped.
func logicalLines(src string) ([]*stmt, error) {
	var out []*stmt
	var cur *stmt
	depth, ntok := 0, 0
	line := 1
	atLineStart := true
	indent := 0
	i := 0
	flush := func() {
		if cur != nil && len(cur.toks) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for i < len(src) {
		c := src[i]
		if atLineStart {
			// Measure indentation: a tab moves to the next multiple of 8.
			indent = 0
			for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
				if src[i] == '\t' {
					indent = indent/8*8 + 8
				} else if src[i] == ' ' {
					indent++
				}
				i++
			}
			atLineStart = false
			continue
		}
		switch {
		case c == '\n':
			line++
			i++
			if depth == 0 {
				flush()
				atLineStart = true
			}
		case c == '\r' || c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i++
			if src[i] == '\r' {
				i++
			}
			if i < len(src) && src[i] == '\n' {
				i++
			}
			line++
		default:
			if cur == nil {
				cur = &stmt{line: line, indent: indent}
			}
			tok, n, lines, err := scanToken(src[i:], line)
			if err != nil {
				return nil, err
			}
			if ntok++; ntok > maxTokens {
				return nil, errAt(line, "more than %d tokens: not a script the game's editor or a person writes", maxTokens)
			}
			if tok.kind == tOp {
				switch tok.text {
				case "(", "[", "{":
					if depth++; depth > maxNesting {
						return nil, errAt(line, "more than %d nested brackets (the game's Python refuses the file too)", maxNesting)
					}
				case ")", "]", "}":
					if depth > 0 {
						depth--
					}
				}
			}
			cur.toks = append(cur.toks, tok)
			i += n
			line += lines
		}
	}
	flush()
	return out, nil
}

// scanToken reads one token at the start of s.
func scanToken(s string, line int) (token, int, int, error) {
	c := s[0]
	switch {
	case isLetter(c):
		if (c == 'r' || c == 'R') && len(s) > 1 && (s[1] == '"' || s[1] == '\'') {
			t, n, lines, err := scanString(s[1:], line, true)
			return t, n + 1, lines, err
		}
		n := 1
		for n < len(s) && (isLetter(s[n]) || isDigit(s[n])) {
			n++
		}
		return token{tName, s[:n], line}, n, 0, nil
	case isDigit(c) || c == '.' && len(s) > 1 && isDigit(s[1]):
		n := 0
		if c == '0' && len(s) > 1 && (s[1] == 'x' || s[1] == 'X') {
			n = 2
			for n < len(s) && isHex(s[n]) {
				n++
			}
		} else {
			for n < len(s) && (isDigit(s[n]) || s[n] == '.') {
				n++
			}
			if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
				m := n + 1
				if m < len(s) && (s[m] == '+' || s[m] == '-') {
					m++
				}
				if m < len(s) && isDigit(s[m]) {
					n = m
					for n < len(s) && isDigit(s[n]) {
						n++
					}
				}
			}
		}
		text := s[:n]
		if n < len(s) && (s[n] == 'L' || s[n] == 'l') {
			n++ // a Python long: the same value
		}
		return token{tNumber, text, line}, n, 0, nil
	case c == '"' || c == '\'':
		return scanString(s, line, false)
	}
	for _, op := range []string{"==", "!=", "<>", "<=", ">=", "**", "<<", ">>"} {
		if strings.HasPrefix(s, op) {
			return token{tOp, op, line}, len(op), 0, nil
		}
	}
	if strings.IndexByte("()[]{},:.=<>+-*/%&|^~`;@", c) >= 0 {
		return token{tOp, s[:1], line}, 1, 0, nil
	}
	return token{}, 0, 0, errAt(line, "unexpected character %q", c)
}

// scanString reads a quoted string (triple-quoted ones may span lines) and
// returns its value with the common escapes applied.
func scanString(s string, line int, raw bool) (token, int, int, error) {
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	var b strings.Builder
	lines := 0
	i := len(q)
	for i < len(s) {
		if strings.HasPrefix(s[i:], q) {
			return token{tString, b.String(), line}, i + len(q), lines, nil
		}
		c := s[i]
		switch {
		case c == '\n' && len(q) == 1:
			return token{}, 0, 0, errAt(line, "string not closed")
		case c == '\\' && !raw && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\n':
				lines++
			case '\\', '\'', '"':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			i++
			continue
		case c == '\n':
			lines++
		}
		b.WriteByte(c)
		i++
	}
	return token{}, 0, 0, errAt(line, "string not closed")
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
