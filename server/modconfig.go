package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/engine/ships"
)

// ModSection is [mod], and [games.mod] for one game of [[games]]: what a
// modded game needs (README, "Hosting a modded game"; mods.md 5.10, 7).
// Relative paths are relative to the configuration file's folder.
type ModSection struct {
	// Packs are data packs written by `bcserver import`, laid over the
	// built-in vanilla data in order (after simulation.data_folders). A
	// pack with species tables is the whole ship data of the game; its
	// messages.json declares the mod's script messages.
	Packs []string `toml:"packs"`
	// Manifest is the mod's checksum manifest (bchash); it replaces
	// checksum.manifest for this game.
	Manifest string `toml:"manifest"`
	// ClientScripts is the folder standing for the clients'
	// Scripts/Multiplayer: the files round 0xFF compares with and pushes.
	ClientScripts string `toml:"client_scripts"`
	// Push is off, verify or push; "" means push when client_scripts is
	// set, off otherwise. verify without client_scripts uses the
	// manifest's Scripts/Multiplayer round.
	Push string `toml:"push"`
	// Limits of one join's push (mods.md 5.10 rule 3): beyond any, the
	// join is verified instead. 0 keeps the default.
	PushMaxFiles int      `toml:"push_max_files"`
	PushMaxBytes ByteSize `toml:"push_max_bytes"`
	PushMaxFile  ByteSize `toml:"push_max_file"`
	// Waits for the client's 0x27: the first file (a person answers the
	// client's dialog), each later one, the whole push.
	PushFirstWait Duration `toml:"push_first_wait"`
	PushWait      Duration `toml:"push_wait"`
	PushTotal     Duration `toml:"push_total"`
}

// path resolves a path of the configuration file against its folder.
func (c Config) path(p string) string { return c.dir.Resolve(p) }

// applyMod puts [mod] into the engine's configuration.
func (c Config) applyMod(rc *engine.Config) []error {
	m := c.Mod
	var errs []error
	if len(m.Packs) > 0 {
		reg := rc.Ships
		if reg == nil {
			var err error
			if reg, err = ships.Vanilla(); err != nil {
				return []error{err}
			}
		}
		for _, p := range m.Packs {
			dir := c.path(p)
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				errs = append(errs, fmt.Errorf("mod.packs: %s is not a folder", dir))
				continue
			}
			next, err := reg.Overlay(os.DirFS(dir), ".")
			if err != nil {
				errs = append(errs, fmt.Errorf("mod.packs: %s: %w", dir, err))
				continue
			}
			reg = next
			tab, err := scriptmsg.LoadFile(filepath.Join(dir, scriptmsg.FileName))
			switch {
			case errors.Is(err, os.ErrNotExist):
			case err != nil:
				errs = append(errs, fmt.Errorf("mod.packs: %w", err))
			default:
				rc.ScriptMessages = tab // the topmost pack's table holds
			}
		}
		rc.Ships = reg
		hashes, err := reg.SpeciesTables().Hashes()
		if err != nil {
			errs = append(errs, fmt.Errorf("mod.packs: %w", err))
		}
		rc.SpeciesTables = hashes
	}
	if m.Manifest != "" {
		man, err := checksum.ParseManifestFile(c.path(m.Manifest))
		if err != nil {
			errs = append(errs, fmt.Errorf("mod.manifest: %w", err))
		} else {
			rc.Manifest = man
		}
	}
	mode, err := checksum.ParsePushMode(m.Push)
	if err != nil {
		errs = append(errs, fmt.Errorf("mod.push: %w", err))
	}
	if m.Push == "" && m.ClientScripts != "" {
		mode = checksum.PushPush // on when the game names a client-scripts folder
	}
	rc.Push = mode
	switch {
	case m.ClientScripts != "":
		tree, err := checksum.LoadPushTree(c.path(m.ClientScripts))
		if err != nil {
			errs = append(errs, fmt.Errorf("mod.client_scripts: %w", err))
		}
		rc.PushTree = tree
	case mode == checksum.PushVerify:
		tree, ok := checksum.PushTreeFromManifest(rc.Manifest)
		if !ok {
			errs = append(errs, errors.New("mod.push = \"verify\" needs mod.client_scripts or a manifest with a Scripts/Multiplayer round"))
		}
		rc.PushTree = tree
	case mode == checksum.PushPush:
		errs = append(errs, errors.New("mod.push = \"push\" needs mod.client_scripts (the files to send)"))
	}
	if m.PushMaxFiles < 0 || m.PushMaxBytes < 0 || m.PushMaxFile < 0 || m.PushFirstWait < 0 || m.PushWait < 0 || m.PushTotal < 0 {
		errs = append(errs, errors.New("mod: push limits must not be negative"))
	}
	if m.PushMaxFiles > 0 {
		rc.PushLimits.JoinFiles = m.PushMaxFiles
	}
	if m.PushMaxBytes > 0 {
		rc.PushLimits.JoinBytes = int(m.PushMaxBytes)
	}
	if m.PushMaxFile > 0 {
		rc.PushLimits.File = int(m.PushMaxFile)
	}
	for _, d := range []struct {
		v   Duration
		dst *time.Duration
	}{{m.PushFirstWait, &rc.PushFirstAck}, {m.PushWait, &rc.PushAck}, {m.PushTotal, &rc.PushTotal}} {
		if d.v > 0 {
			*d.dst = time.Duration(d.v)
		}
	}
	return errs
}
