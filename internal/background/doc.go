// Package background lowers the CPU priority of work that runs beside the
// games and must not hold them up: start-up's data loading and mission
// compiles. Only Linux can lower one thread; elsewhere Lower does nothing.
package background
