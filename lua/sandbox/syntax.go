package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Limits on source structure. gopher-lua's compiler recurses once per
// level of the syntax tree, so a file of nothing but "((((((" or
// "function() function() ..." makes the Go stack (and the compile time)
// grow without bound; PUC Lua stops at LUAI_MAXCCALLS = 200 with "chunk
// has too many syntax levels". maxSyntaxLevels bounds brackets and blocks
// before the parser runs; maxTreeDepth bounds the tree the parser built
// (long operator chains and a.b.c chains nest without brackets) before the
// compiler walks it.
//
// maxOperatorChain bounds what the parser itself holds before it builds
// anything: gopher-lua's LR parser shifts every unary operator ("- - - 1",
// "not not x", "#") and every right-associative ".." and "^" of an
// expression onto its stack before it reduces them, some 300 bytes an
// entry, so a 1 MB chain of them took half a gigabyte on the way to being
// refused by the tree check. Such a chain is as deep in the tree as it is
// long, so refusing it in the scan refuses nothing the tree check would
// let through.
const (
	maxSyntaxLevels  = 200
	maxTreeDepth     = 1000
	maxOperatorChain = maxTreeDepth
)

// opener is one unclosed bracket or block found by scanNesting; chain is
// the operator chain pending outside it, restored when it closes.
type opener struct {
	tok   string
	line  int
	chain int
}

// scanNesting is a small Lua lexer that only tracks nesting: brackets,
// block keywords and their closers, and the chains of operators the parser
// stacks up (see maxOperatorChain), skipping strings and comments. It
// refuses nesting deeper than maxSyntaxLevels or a chain longer than
// maxOperatorChain, and returns the openers left unclosed at the end (a
// hint for "syntax error at end of file"). It never recurses, reads each
// byte once and allocates only its stack of openers.
//
// The chain count is conservative: it counts the unary operators, ".." and
// "^" since the last token that certainly ends the parser's pending run (a
// comparison, "and", "or", ",", ";", "=", a keyword, or a name right after
// an operand, which starts a new statement), plus those pending outside
// the brackets it is in.
func scanNesting(src []byte, name string) ([]opener, int, error) {
	var stack []opener
	line := 1
	chain := 0       // operators pending in the parser, all levels
	operand := false // the last token ends an operand: a "-" after it is binary
	push := func(tok string) error {
		stack = append(stack, opener{tok, line, chain})
		if len(stack) > maxSyntaxLevels {
			return fmt.Errorf("%s:%d: chunk has too many syntax levels (more than %d nested brackets and blocks)", name, line, maxSyntaxLevels)
		}
		return nil
	}
	pop := func() {
		if len(stack) > 0 {
			chain = stack[len(stack)-1].chain
			stack = stack[:len(stack)-1]
		}
	}
	// reset ends the pending run of the innermost level.
	reset := func() {
		chain = 0
		if len(stack) > 0 {
			chain = stack[len(stack)-1].chain
		}
	}
	nest := func() error {
		chain++
		if chain > maxOperatorChain {
			return fmt.Errorf("%s:%d: expression nested too deeply (a chain of more than %d unary, '..' or '^' operators)", name, line, maxOperatorChain)
		}
		return nil
	}
	// longBracket returns the level of a long bracket "[==[" at i, or -1.
	longBracket := func(i int) int {
		if i >= len(src) || src[i] != '[' {
			return -1
		}
		j := i + 1
		for j < len(src) && src[j] == '=' {
			j++
		}
		if j < len(src) && src[j] == '[' {
			return j - i - 1
		}
		return -1
	}
	// skipLong skips a long string or comment of the given level opening
	// at i and returns the index after it.
	skipLong := func(i, level int) int {
		closer := append(append([]byte{']'}, bytes.Repeat([]byte{'='}, level)...), ']')
		start := i + level + 2
		end := bytes.Index(src[start:], closer)
		if end < 0 {
			line += bytes.Count(src[start:], []byte{'\n'})
			return len(src)
		}
		line += bytes.Count(src[start:start+end], []byte{'\n'})
		return start + end + len(closer)
	}
	for i := 0; i < len(src); {
		c := src[i]
		var err error
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			if lv := longBracket(i + 2); lv >= 0 {
				i = skipLong(i+2, lv)
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '[':
			if lv := longBracket(i); lv >= 0 {
				i = skipLong(i, lv)
				operand = true
				continue
			}
			err = push("[")
			operand = false
			i++
		case c == '(':
			err = push("(")
			operand = false
			i++
		case c == '{':
			err = push("{")
			operand = false
			i++
		case c == ')' || c == ']' || c == '}':
			pop()
			operand = true
			i++
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					if src[i+1] == '\n' {
						line++
					}
					i++
				}
				i++
			}
			i++
			operand = true
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			// A numeral as Lua 5.1 reads it: digits and dots, an exponent
			// with its sign, then letters (hex digits).
			for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '.') {
				i++
			}
			if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
				i++
				if i < len(src) && (src[i] == '+' || src[i] == '-') {
					i++
				}
			}
			for i < len(src) && (src[i] == '_' || isAlnum(src[i])) {
				i++
			}
			operand = true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || isAlnum(src[j])) {
				j++
			}
			switch string(src[i:j]) {
			case "function", "do", "then", "repeat":
				reset()
				err = push(string(src[i:j]))
				operand = false
			case "end":
				pop()
				operand = true // a function expression may go on: "function() end .. x"
			case "until":
				pop()
				reset()
				operand = false
			case "elseif":
				pop() // its own "then" opens again
				reset()
				operand = false
			case "not":
				err = nest()
				operand = false
			case "nil", "true", "false":
				operand = true
			case "and", "or", "local", "return", "if", "else", "while", "for", "in", "break", "goto":
				reset()
				operand = false
			default:
				if operand {
					reset() // a name after an operand starts a statement
				}
				operand = true
			}
			i = j
		case c == '.':
			switch {
			case i+2 < len(src) && src[i+1] == '.' && src[i+2] == '.':
				i += 3
				operand = true
			case i+1 < len(src) && src[i+1] == '.':
				err = nest()
				i += 2
				operand = false
			default:
				i++
				operand = false
			}
		case c == '-' && !operand || c == '#' || c == '^':
			err = nest()
			operand = false
			i++
		case c == '=' || c == '<' || c == '>' || c == '~':
			// A comparison or an assignment ends every run of this level.
			reset()
			operand = false
			i++
			if i < len(src) && src[i] == '=' {
				i++
			}
		case c == ',' || c == ';':
			reset()
			operand = false
			i++
		default:
			operand = false
			i++
		}
		if err != nil {
			return nil, line, err
		}
	}
	return stack, line, nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// treeDepth checks the nesting of a parsed chunk without recursing more
// than maxTreeDepth levels itself.
type treeDepth struct {
	name string
	err  error
}

func (d *treeDepth) fail(line int) {
	if d.err == nil {
		d.err = fmt.Errorf("%s:%d: expression or block nested too deeply (more than %d levels)", d.name, line, maxTreeDepth)
	}
}

func (d *treeDepth) stmts(ss []ast.Stmt, depth int) {
	for _, s := range ss {
		if d.err != nil {
			return
		}
		d.stmt(s, depth)
	}
}

func (d *treeDepth) exprs(es []ast.Expr, depth int) {
	for _, e := range es {
		if d.err != nil {
			return
		}
		d.expr(e, depth)
	}
}

func (d *treeDepth) stmt(s ast.Stmt, depth int) {
	if depth > maxTreeDepth {
		d.fail(s.Line())
		return
	}
	depth++
	switch s := s.(type) {
	case *ast.AssignStmt:
		d.exprs(s.Lhs, depth)
		d.exprs(s.Rhs, depth)
	case *ast.LocalAssignStmt:
		d.exprs(s.Exprs, depth)
	case *ast.FuncCallStmt:
		d.expr(s.Expr, depth)
	case *ast.DoBlockStmt:
		d.stmts(s.Stmts, depth)
	case *ast.WhileStmt:
		d.expr(s.Condition, depth)
		d.stmts(s.Stmts, depth)
	case *ast.RepeatStmt:
		d.expr(s.Condition, depth)
		d.stmts(s.Stmts, depth)
	case *ast.IfStmt:
		d.expr(s.Condition, depth)
		d.stmts(s.Then, depth)
		d.stmts(s.Else, depth)
	case *ast.NumberForStmt:
		d.exprs([]ast.Expr{s.Init, s.Limit, s.Step}, depth)
		d.stmts(s.Stmts, depth)
	case *ast.GenericForStmt:
		d.exprs(s.Exprs, depth)
		d.stmts(s.Stmts, depth)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			d.expr(s.Name.Func, depth)
			d.expr(s.Name.Receiver, depth)
		}
		d.expr(s.Func, depth)
	case *ast.ReturnStmt:
		d.exprs(s.Exprs, depth)
	}
}

func (d *treeDepth) expr(e ast.Expr, depth int) {
	if e == nil || d.err != nil {
		return
	}
	if depth > maxTreeDepth {
		d.fail(e.Line())
		return
	}
	depth++
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		d.expr(e.Object, depth)
		d.expr(e.Key, depth)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			d.expr(f.Key, depth)
			d.expr(f.Value, depth)
		}
	case *ast.FuncCallExpr:
		d.expr(e.Func, depth)
		d.expr(e.Receiver, depth)
		d.exprs(e.Args, depth)
	case *ast.LogicalOpExpr:
		d.expr(e.Lhs, depth)
		d.expr(e.Rhs, depth)
	case *ast.RelationalOpExpr:
		d.expr(e.Lhs, depth)
		d.expr(e.Rhs, depth)
	case *ast.StringConcatOpExpr:
		d.expr(e.Lhs, depth)
		d.expr(e.Rhs, depth)
	case *ast.ArithmeticOpExpr:
		d.expr(e.Lhs, depth)
		d.expr(e.Rhs, depth)
	case *ast.UnaryMinusOpExpr:
		d.expr(e.Expr, depth)
	case *ast.UnaryNotOpExpr:
		d.expr(e.Expr, depth)
	case *ast.UnaryLenOpExpr:
		d.expr(e.Expr, depth)
	case *ast.FunctionExpr:
		d.stmts(e.Stmts, depth)
	}
}

// Compile checks the nesting of Lua source, then parses and
// compiles it. Every error reads "name:line: message". charge, if set, is
// called between the cheap scan and the expensive parse.
func Compile(b []byte, name string, charge func()) (*glua.FunctionProto, error) {
	open, lines, err := scanNesting(b, name)
	if err != nil {
		return nil, err
	}
	if charge != nil {
		charge()
	}
	chunk, err := parse.Parse(bytes.NewReader(b), name)
	if err != nil {
		if len(b) > 0 && b[len(b)-1] == '\n' && lines > 1 {
			lines-- // the last line is the one the newline ends
		}
		return nil, syntaxError(err, name, open, lines, b)
	}
	d := &treeDepth{name: name}
	d.stmts(chunk, 0)
	if d.err != nil {
		return nil, d.err
	}
	proto, err := glua.Compile(chunk, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	trimProto(proto)
	return proto, nil
}

// trimProto copies a compiled function's slices (and its nested
// functions') to their length. gopher-lua's compiler leaves each function
// holding the 1024-entry code and line buffers it wrote into — about
// 20 KB per function, most of a game's idle memory — and nothing appends
// to a proto once it is compiled.
func trimProto(p *glua.FunctionProto) {
	p.Code = slices.Clone(p.Code)
	p.Constants = slices.Clone(p.Constants)
	p.FunctionPrototypes = slices.Clone(p.FunctionPrototypes)
	p.DbgSourcePositions = slices.Clone(p.DbgSourcePositions)
	p.DbgLocals = slices.Clone(p.DbgLocals)
	p.DbgCalls = slices.Clone(p.DbgCalls)
	p.DbgUpvalues = slices.Clone(p.DbgUpvalues)
	for _, c := range p.FunctionPrototypes {
		trimProto(c)
	}
}

// syntaxError rewrites gopher-lua's parse errors ("name line:2(column:7)
// near 'x': syntax error", or "name at EOF: syntax error" with no line at
// all) as "name:2: syntax error near 'x'". At the end of the file it names
// the innermost block or bracket left open, which is nearly always the
// mistake.
func syntaxError(err error, name string, open []opener, lines int, src []byte) error {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", name, err)
	}
	if pe.Pos.Line == parse.EOF {
		msg := fmt.Sprintf("%s:%d: %s at the end of the file", name, lines, pe.Message)
		if n := len(open); n > 0 {
			o := open[n-1]
			msg += fmt.Sprintf(" ('%s' at line %d is not closed)", o.tok, o.line)
		}
		return errors.New(msg)
	}
	if o, ok := openBracketBefore(src, name, pe.Pos.Line); ok {
		// The parser notices a bracket left open only at the next
		// statement, a line or more later ("local" on line 66 for a "(" on
		// line 65): name the line of the bracket, where the mistake is,
		// as PUC Lua's "')' expected (to close '(' at line 65)" does.
		return fmt.Errorf("%s:%d: '%s' is not closed: %s near '%s' at line %d (column %d)", name, o.line, o.tok, pe.Message, pe.Token, pe.Pos.Line, pe.Pos.Column)
	}
	return fmt.Errorf("%s:%d: %s near '%s' (column %d)", name, pe.Pos.Line, pe.Message, pe.Token, pe.Pos.Column)
}

// closers pairs each bracket with the one that closes it.
var closers = map[string]string{"(": ")", "[": "]", "{": "}"}

// openBracketBefore reports the innermost bracket still open where line
// begins, when it is a bracket ("(", "[", "{", not a block) opened on an
// earlier line.
func openBracketBefore(src []byte, name string, line int) (opener, bool) {
	off, l := 0, 1
	for l < line && off < len(src) {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return opener{}, false
		}
		off += i + 1
		l++
	}
	open, _, err := scanNesting(src[:off], name)
	if err != nil || len(open) == 0 {
		return opener{}, false
	}
	o := open[len(open)-1]
	if _, bracket := closers[o.tok]; !bracket || o.line >= line {
		return opener{}, false
	}
	return o, true
}
