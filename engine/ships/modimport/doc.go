// Package modimport builds a data pack (the format of the embedded
// vanilla-1.1 set, data/README.md, plus the species tables) from a Bridge
// Commander scripts folder: a stock install, a mod's own scripts/ folder,
// or an install with a mod (mods.md 3).
//
// The scripts are Python 1.5 source, read as text by the grammar of
// mods.md 3.2-3.7 and never executed: the species tables of
// Multiplayer/SpeciesToShip.py, SpeciesToTorp.py and SpeciesToSystem.py;
// each ship script's GetShipStats dictionary; each hardpoint file's
// property blocks and LoadPropertySet order, from which the subsystem list,
// object ids, parents, 0x20 list and ObjCreate tail follow exactly as the
// stock engine builds them (mods.md 3.6); and the projectile scripts.
//
// Inheriting hardpoints (Enterprise-style) are merged by mods.md 3.4 rule
// 5, a name added again being ignored (the spec's preferred reading of its
// one open point, said in the report). A class whose scripts hold anything
// outside that grammar (arithmetic, loops, unknown property classes, a
// missing script or parent) is left out and named in the Report with file,
// line and what to do: the server relays it without a model (mods.md 4).
// The folder's own files win: a stock class whose hardpoint or ship script
// the folder holds is read from there, and only what the folder lacks
// comes from the embedded vanilla data (Options.Vanilla).
//
// The folder is not trusted: links and special files are not read, sizes
// are checked before reading, nesting is bounded as the game's Python
// bounds it, and a pack is written beside OUT_DIR and renamed into place
// (ImportDir, WriteDir).
//
// Import is deterministic: the same folder gives byte-identical files.
package modimport
