package modimport

import (
	"maps"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/engine/ships"
)

// Inheriting hardpoints (mods.md 3.4 rule 5; stock: enterprise,
// rankuf, ...): the child imports and reloads a parent at module level,
// registers some properties again, calls the parent's LoadPropertySet and
// adds names of its own. Settled in the spec from the binary:
//
//   - the child's module body runs after the parent's, so every template
//     of the parent is registered first and the child's come after;
//   - registering a name again replaces the template (FindByName then
//     finds the child's), so an overridden name keeps the parent's place
//     in the add order and takes the child's values;
//   - one subsystem per AddToSet, in order.
//
// Still open (mods.md 9 question 9): whether adding the same template a
// second time makes a second subsystem. The spec's preferred reading is
// that the repeat is ignored; the import models inheriting classes so and
// says so in the report wherever a class repeats a name.

// maxParents bounds a chain of inheriting hardpoints (stock has one level).
const maxParents = 8

// mergedHardpoint reads the hardpoint at stored and, when it inherits,
// its parents from the folder, and merges them. parents lists the parent
// files, nearest first; ok is false when the class must be relay-only
// (the report says why).
func (im *importer) mergedHardpoint(class, stored string) (h *hardpoint, parents []string, ok bool) {
	var chain []*hardpoint
	seen := map[string]bool{}
	for cur := stored; ; {
		seen[cur] = true
		hp, err := readHardpoint(im.src, cur)
		if err != nil {
			im.rep.addErr(LevelError, cur, class, "hardpoint not read", err, fixGrammar)
			return nil, nil, false
		}
		chain = append(chain, hp)
		if hp.parent == "" {
			break
		}
		if hp.editorParent != "" && !strings.EqualFold(hp.editorParent, hp.parent) {
			hp.warn(hp.editorParentLine, "make ParentPropertyScript name the module the file imports",
				"ParentPropertyScript names %s, but the file loads %s; the game loads the latter", hp.editorParent, hp.parent)
		}
		l := im.src.module(hp.parent)
		switch {
		case l.refused != nil:
			im.rep.add(LevelError, l.refused.path, 0, class, l.refused.fix, "parent hardpoint not read: %s", l.refused.why)
			return nil, nil, false
		case !l.found():
			fix := "copy " + strings.ReplaceAll(hp.parent, ".", "/") + ".py (from the install, for a stock parent) into the folder; until then the class is relayed"
			if im.src.compiledOnly(hp.parent) {
				fix = "only the compiled parent is in the folder: decompile " + strings.ReplaceAll(hp.parent, ".", "/") + ".pyc to .py and import again"
			}
			im.rep.add(LevelError, hp.file, hp.parentLine, class, fix, "inherits from %s, which the folder does not hold", hp.parent)
			return nil, nil, false
		case seen[l.stored]:
			im.rep.add(LevelError, hp.file, hp.parentLine, class, "make the chain of parents end in a hardpoint of its own",
				"inherits from %s, which inherits from it in turn", hp.parent)
			return nil, nil, false
		case len(chain) > maxParents:
			im.rep.add(LevelError, hp.file, hp.parentLine, class, "inherit from a hardpoint nearer the top",
				"more than %d hardpoints inherit one from another", maxParents)
			return nil, nil, false
		}
		parents = append(parents, l.stored)
		cur = l.stored
	}
	h = chain[len(chain)-1]
	for i := len(chain) - 2; i >= 0; i-- {
		h = merge(h, chain[i])
	}
	return h, parents, true
}

// merge lays child over parent as the game loads them.
func merge(parent, child *hardpoint) *hardpoint {
	out := &hardpoint{
		file: child.file, loadLine: child.loadLine, templates: maps.Clone(parent.templates), inherits: true,
		parent: child.parent, parentLine: child.parentLine, repeats: slices.Clone(parent.repeats),
		unsupported: append(slices.Clone(parent.unsupported), child.unsupported...),
		warnings:    append(slices.Clone(parent.warnings), child.warnings...),
	}
	// The child's registrations run after the parent's; the exact name
	// of one already there replaces it. A template of another property
	// class under the same name is beyond what the spec settles (it
	// replaces only within a class and its subclasses).
	for _, name := range slices.Sorted(maps.Keys(child.templates)) {
		t := child.templates[name]
		if old, ok := out.templates[name]; ok && old.class != t.class {
			out.unsupported = append(out.unsupported, Finding{Level: LevelError, File: t.file, Line: t.line, Fix: fixGrammar,
				Msg: "registers \"" + name + "\" as a " + t.class + " where the parent's is a " + old.class + ": how the game resolves that is not known"})
			continue
		}
		out.templates[name] = t
	}
	calls := 0
	var adds []added
	for _, a := range child.adds {
		if a.name != "" {
			adds = append(adds, a)
			continue
		}
		if calls++; calls > 1 {
			out.unsupported = append(out.unsupported, Finding{Level: LevelError, File: a.file, Line: a.line, Fix: fixGrammar,
				Msg: "calls the parent's LoadPropertySet a second time"})
			continue
		}
		adds = append(adds, parent.adds...)
	}
	seen := map[string]bool{}
	for _, a := range adds {
		if seen[a.name] {
			a.at = len(out.adds)
			out.repeats = append(out.repeats, a) // the preferred reading: ignored
			continue
		}
		seen[a.name] = true
		out.adds = append(out.adds, a)
	}
	return out
}

// noteInheritance tells the report how an inheriting class was modelled,
// and where the open question of repeated adds matters for it.
func (im *importer) noteInheritance(row ships.ShipRow, h *hardpoint, parents []string) {
	im.rep.add(LevelNote, h.file, h.parentLine, row.ShipScript, "nothing to do",
		"inheriting hardpoint (parent %s): modelled by mods.md 3.4 rule 5, the parent's properties first, those registered again taking the child's values in the parent's place",
		parents[0])
	if len(h.repeats) == 0 {
		return
	}
	var names []string
	for _, r := range h.repeats {
		if !slices.Contains(names, r.name) {
			names = append(names, r.name)
		}
	}
	r := h.repeats[0]
	for _, x := range h.repeats {
		if x.at < r.at {
			r = x
		}
	}
	// Both readings agree on every subsystem created before the first
	// repeat.
	subs := 0
	for _, a := range h.adds[:min(r.at, len(h.adds))] {
		if p := h.templates[a.name]; p != nil && isSubsystemClass(p.class) {
			subs++
		}
	}
	im.rep.add(LevelWarning, r.file, r.line, row.ShipScript,
		"nothing to do now; an ObjCreate capture of this class from a stock game settles it (mods.md 9 question 9)",
		"adds %s again: modelled as one subsystem each (the preferred reading of mods.md 3.4 rule 5); should the game make a second one, the ids after +%d differ",
		quoteList(names), subs)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "\"" + n + "\""
	}
	return strings.Join(q, ", ")
}
