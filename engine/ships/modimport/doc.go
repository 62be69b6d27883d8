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
// A class whose scripts hold anything outside that grammar (arithmetic,
// loops, unknown property classes, an inheriting hardpoint, a missing
// script) is left out and named in the Report with file and line: the
// server relays it without a model (mods.md 4). Rows whose scripts the
// folder does not hold (a mod folder with only the mod's own files) take
// the stock class of that name from the embedded vanilla data when
// Options.Vanilla is set.
//
// Import is deterministic: the same folder gives byte-identical files.
package modimport
