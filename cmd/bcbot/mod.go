package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/bot"
)

// Playing a modded game (README, "Hosting a modded game"): the bot flies
// the classes of a data pack (what `bcserver import` wrote from the mod)
// and stands in for a client's Scripts/Multiplayer folder, answering
// checksum round 0xFF from it and taking the files the host pushes, as a
// stock client with the mod's ships but another Scripts/Multiplayer does.

// modFlags are -pack and -client-scripts.
type modFlags struct {
	pack, clientScripts *string
}

func addModFlags(fs *flag.FlagSet) *modFlags {
	return &modFlags{
		pack: fs.String("pack", "", "a data pack (bcserver import's OUT_DIR) laid over the stock data: -spawn names its classes by name or species, and the ship's subsystem tail is the pack's"),
		clientScripts: fs.String("client-scripts", "", "a client's Scripts/Multiplayer folder: checksum round 0xFF is answered from it and the host's pushed files are taken "+
			"(kept in memory, each one logged)"),
	}
}

// apply loads the pack into play and the client folder into cfg.
func (m *modFlags) apply(cfg *bot.Config, play *playOptions, log *slog.Logger) error {
	if *m.pack != "" {
		reg, err := loadPack(*m.pack)
		if err != nil {
			return err
		}
		play.Ships = reg
		log.Info("ship data", "pack", *m.pack, "layers", reg.Layers(), "classes", len(reg.Classes()))
	}
	if play.Spawn != "" {
		// Said before joining: the pack (or its absence) is the reason.
		reg := play.Ships
		if reg == nil {
			var err error
			if reg, err = ships.Vanilla(); err != nil {
				return err
			}
		}
		if _, err := speciesOf(reg, play.Spawn); err != nil {
			return err
		}
	}
	if *m.clientScripts != "" {
		if st, err := os.Stat(*m.clientScripts); err != nil || !st.IsDir() {
			return fmt.Errorf("-client-scripts %s: not a folder", *m.clientScripts)
		}
		files, err := bot.LoadClientFiles(os.DirFS(*m.clientScripts), ".")
		if err != nil {
			return fmt.Errorf("-client-scripts: %w", err)
		}
		files.OnReceive(func(r bot.Received) {
			log.Info("pushed file received", "path", r.Path, "bytes", r.Size, "hash", fmt.Sprintf("0x%08X", r.Hash))
		})
		cfg.Files = files
	}
	return nil
}

// speciesOf finds a class by species number or by name (any case).
func speciesOf(reg *ships.Registry, spawn string) (int, error) {
	if n, err := strconv.Atoi(spawn); err == nil {
		if _, ok := reg.Class(n); ok {
			return n, nil
		}
	}
	for _, c := range reg.Classes() {
		if strings.EqualFold(c.Name, spawn) {
			return c.Species(), nil
		}
	}
	hint := ""
	if len(reg.Layers()) < 2 {
		hint = " (a mod's class needs -pack)"
	}
	return 0, fmt.Errorf("-spawn %q: no such ship class in the ship data%s", spawn, hint)
}

// loadPack lays a pack over the stock data, as the server's [mod] packs
// does.
func loadPack(dir string) (*ships.Registry, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-pack %s: not a folder", dir)
	}
	v, err := ships.Vanilla()
	if err != nil {
		return nil, err
	}
	reg, err := v.Overlay(os.DirFS(dir), ".")
	if err != nil {
		return nil, fmt.Errorf("-pack: %w", err)
	}
	return reg, nil
}

// healthWait is how long after a spawn the bot waits for the host's first
// health update of its ship before saying it got none.
const healthWait = 5 * time.Second

// healthWatch tells whether the host models the bot's ship: the owner of a
// ship the host models gets its subsystem health (StateUpdate flag 0x20);
// a ship the host relays without a model, or dropped, gets none.
type healthWatch struct {
	log            *slog.Logger
	modelled, told int32 // the ship last seen with health; the ship last warned about
}

// seen looks at a message from the host for a health update of ship.
func (h *healthWatch) seen(ship int32, species int, p []byte) {
	if ship == 0 || h.modelled == ship || len(p) == 0 || p[0] != codec.OpStateUpdate {
		return
	}
	u, err := codec.DecodeStateUpdate(p, codec.SubsystemsToEnd)
	if err != nil || u.ObjectID != ship || u.Flags&codec.StateSubsystems == 0 {
		return
	}
	h.modelled = ship
	h.log.Info("health update from the host: it models our ship", "id", ship, "species", species)
}

// tick warns once per ship when no health update came in time.
func (h *healthWatch) tick(now time.Time, ship int32, species int, spawnedAt time.Time) {
	if ship == 0 || h.modelled == ship || h.told == ship || now.Sub(spawnedAt) < healthWait {
		return
	}
	h.told = ship
	h.log.Warn("no health update from the host for our ship: it relays the ship without a model (no class data for the species) or dropped it (the host's log says which)",
		"id", ship, "species", species, "after", healthWait)
}
