package modimport

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The expressions the stock scripts use as data: literals, dotted names,
// calls, tuples, lists and dictionaries. Operators (other than a sign on
// a number) are refused: mods.md 3.4 rule 6 makes arithmetic in arguments
// a reason to leave a class out.

type valKind uint8

const (
	vNumber valKind = iota + 1
	vString
	vNone
	vName  // a dotted name: App.SPECIES_AKIRA, ShieldGenerator.FRONT_SHIELDS
	vTuple // tuple or list
	vDict
	vCall
)

type value struct {
	kind  valKind
	num   float64
	isInt bool
	str   string  // string value, dotted name, callee, or a number as written
	items []value // tuple items, dict values, call arguments
	keys  []value // dict keys
	line  int
}

// errArithmetic marks an expression with operators.
var errArithmetic = errors.New("an expression, not a literal")

type exprParser struct {
	toks  []token
	pos   int
	depth int // nesting of values being parsed (bounded: maxNesting)
}

// parseExpr parses toks as one expression, all of it.
func parseExpr(toks []token) (value, error) {
	p := exprParser{toks: toks}
	v, err := p.expr()
	if err != nil {
		return v, err
	}
	if p.pos != len(toks) {
		return v, arith(p.toks[p.pos].line, "%q after the value", p.toks[p.pos].text)
	}
	return v, nil
}

func (p *exprParser) peek() (token, bool) {
	if p.pos >= len(p.toks) {
		return token{}, false
	}
	return p.toks[p.pos], true
}

func (p *exprParser) line() int {
	if t, ok := p.peek(); ok {
		return t.line
	}
	if len(p.toks) > 0 {
		return p.toks[len(p.toks)-1].line
	}
	return 0
}

// arithError is an expression where a literal belongs (mods.md 3.4 rule
// 6); errors.Is(err, errArithmetic) holds for it.
type arithError struct{ lineError }

func (e *arithError) Unwrap() error { return errArithmetic }

func arith(line int, format string, args ...any) error {
	return &arithError{lineError{line: line, msg: fmt.Sprintf(format, args...) + ": an expression, not a literal"}}
}

func (p *exprParser) expr() (value, error) {
	// The lexer bounds bracket nesting; this bounds the recursion itself
	// should tokens ever come from elsewhere.
	if p.depth++; p.depth > maxNesting {
		return value{}, errAt(p.line(), "values nested more than %d deep", maxNesting)
	}
	defer func() { p.depth-- }()
	t, ok := p.peek()
	if !ok {
		return value{}, errAt(p.line(), "value missing")
	}
	switch {
	case t.kind == tOp && (t.text == "-" || t.text == "+"):
		p.pos++
		n, ok := p.peek()
		if !ok || n.kind != tNumber {
			return value{}, arith(t.line, "sign before a non-number")
		}
		v, err := p.expr()
		if t.text == "-" {
			v.num = -v.num
			v.str = "-" + v.str
		}
		return v, err
	case t.kind == tNumber:
		p.pos++
		v := value{kind: vNumber, str: t.text, line: t.line}
		if strings.HasPrefix(t.text, "0x") || strings.HasPrefix(t.text, "0X") {
			n, err := strconv.ParseInt(t.text[2:], 16, 64)
			if err != nil {
				return v, errAt(t.line, "number %s is not a number the game reads", t.text)
			}
			v.num, v.isInt = float64(n), true
		} else {
			f, err := strconv.ParseFloat(t.text, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return v, errAt(t.line, "number %s is not a number the game reads", t.text)
			}
			v.num, v.isInt = f, !strings.ContainsAny(t.text, ".eE")
		}
		// Every value the pack reads is a 32-bit float or integer; a
		// larger one would write +Inf, which no JSON holds.
		if math.Abs(v.num) > math.MaxFloat32 {
			return v, errAt(t.line, "number %s is beyond the game's 32-bit numbers", t.text)
		}
		return v, p.noOperator()
	case t.kind == tString:
		p.pos++
		s := t.text
		// Adjacent literals are one string, as in Python.
		for n, ok := p.peek(); ok && n.kind == tString; n, ok = p.peek() {
			s += n.text
			p.pos++
		}
		return value{kind: vString, str: s, line: t.line}, p.noOperator()
	case t.kind == tName && t.text == "None":
		p.pos++
		return value{kind: vNone, line: t.line}, p.noOperator()
	case t.kind == tName:
		name := t.text
		p.pos++
		for {
			n, ok := p.peek()
			if !ok || !n.is(tOp, ".") || p.pos+1 >= len(p.toks) || p.toks[p.pos+1].kind != tName {
				break
			}
			name += "." + p.toks[p.pos+1].text
			p.pos += 2
		}
		if n, ok := p.peek(); ok && n.is(tOp, "(") {
			p.pos++
			args, err := p.list(")")
			if err != nil {
				return value{}, err
			}
			return value{kind: vCall, str: name, items: args, line: t.line}, p.noOperator()
		}
		return value{kind: vName, str: name, line: t.line}, p.noOperator()
	case t.is(tOp, "(") || t.is(tOp, "["):
		p.pos++
		closer := ")"
		if t.text == "[" {
			closer = "]"
		}
		items, trailingComma, err := p.items(closer)
		if err != nil {
			return value{}, err
		}
		if t.text == "(" && len(items) == 1 && !trailingComma {
			return items[0], p.noOperator() // parentheses around one value
		}
		return value{kind: vTuple, items: items, line: t.line}, p.noOperator()
	case t.is(tOp, "{"):
		p.pos++
		return p.dict(t.line)
	}
	return value{}, arith(t.line, "%q is not a value", t.text)
}

// noOperator fails when an operator follows a complete value.
func (p *exprParser) noOperator() error {
	t, ok := p.peek()
	if !ok || t.kind != tOp {
		return nil
	}
	switch t.text {
	case ",", ")", "]", "}", ":":
		return nil
	}
	return arith(t.line, "operator %q", t.text)
}

func (p *exprParser) list(closer string) ([]value, error) {
	items, _, err := p.items(closer)
	return items, err
}

// items reads comma-separated values up to closer.
func (p *exprParser) items(closer string) ([]value, bool, error) {
	var out []value
	trailing := false
	for {
		t, ok := p.peek()
		if !ok {
			return nil, false, errAt(p.line(), "%q missing", closer)
		}
		if t.is(tOp, closer) {
			p.pos++
			return out, trailing, nil
		}
		v, err := p.expr()
		if err != nil {
			return nil, false, err
		}
		out = append(out, v)
		trailing = false
		t, ok = p.peek()
		switch {
		case ok && t.is(tOp, ","):
			p.pos++
			trailing = true
		case ok && t.is(tOp, closer):
		default:
			return nil, false, arith(p.line(), "',' or %q expected", closer)
		}
	}
}

func (p *exprParser) dict(line int) (value, error) {
	v := value{kind: vDict, line: line}
	for {
		t, ok := p.peek()
		if !ok {
			return v, errAt(p.line(), "'}' missing")
		}
		if t.is(tOp, "}") {
			p.pos++
			return v, p.noOperator()
		}
		k, err := p.expr()
		if err != nil {
			return v, err
		}
		if t, ok := p.peek(); !ok || !t.is(tOp, ":") {
			return v, errAt(p.line(), "':' expected in a dictionary")
		}
		p.pos++
		val, err := p.expr()
		if err != nil {
			return v, err
		}
		v.keys = append(v.keys, k)
		v.items = append(v.items, val)
		if t, ok := p.peek(); ok && t.is(tOp, ",") {
			p.pos++
		}
	}
}

// lookup returns the dictionary value under the string key k.
func (v value) lookup(k string) (value, bool) {
	for i, key := range v.keys {
		if key.kind == vString && key.str == k {
			return v.items[i], true
		}
	}
	return value{}, false
}

// describe names a value's kind for a report line.
func (v value) describe() string {
	switch v.kind {
	case vNumber:
		return "a number"
	case vString:
		return fmt.Sprintf("%q", v.str)
	case vNone:
		return "None"
	case vName:
		return v.str
	case vTuple:
		return "a tuple"
	case vDict:
		return "a dictionary"
	case vCall:
		return "a call of " + v.str
	}
	return "nothing"
}

// assignment splits "NAME = expr" (a single target); ok is false for
// anything else.
func assignment(s *stmt) (string, []token, bool) {
	if len(s.toks) < 3 || s.toks[0].kind != tName || !s.toks[1].is(tOp, "=") {
		return "", nil, false
	}
	return s.toks[0].text, s.toks[2:], true
}

// callOf parses a statement that is one call, "A.B.Method(args)".
func callOf(s *stmt) (value, bool) {
	v, err := parseExpr(s.toks)
	if err != nil || v.kind != vCall {
		return value{}, false
	}
	return v, true
}

// splitCallee splits a dotted callee into its receiver and method name.
func splitCallee(name string) (recv, method string) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}
