package record

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
)

// sample returns one record of every kind, with values that survive the
// quantisation exactly.
func sample() []capture.Record {
	return []capture.Record{
		{T: 0, Kind: capture.KindKeyframe, Flags: 1},
		{T: 0, Kind: capture.KindPlayer, Player: 2, Slot: 0, InGame: true, Team: -1, Kills: 3, Deaths: -2, Score: 123456, Name: "Picard"},
		{T: 5, Kind: capture.KindObject, Object: 0x3FFFFFFF, Owner: 2, Species: 5, Team: 1, Flags: capture.ObjHost, Name: "Enterprise", Class: "Sovereign"},
		{T: 5, Kind: capture.KindMotion, Object: 0x3FFFFFFF, Pos: [3]float32{1.5, -2.25, 300}, Fwd: [3]float32{0, 1, 0}, Up: [3]float32{0, 0, 1}, Speed: 7.5},
		{T: 205, Kind: capture.KindMotion, Object: 0x3FFFFFFF, Pos: [3]float32{2, -2.25, 299.875}, Fwd: [3]float32{0.6, 0.8, 0}, Up: [3]float32{0, 0, 1}, Speed: 8},
		{T: 300, Kind: capture.KindStatus, Object: 0x3FFFFFFF, Hull: 0.5, Shields: [6]float32{1, 0.25, 0, 0.125, 0.5, 0.75}},
		{T: 300, Kind: capture.KindSubsystems, Object: 0x3FFFFFFF, Subs: []capture.Sub{{Index: 0, Cond: 1}, {Index: 7, Cond: 0.5}, {Index: 30, Cond: 0}}},
		{T: 301, Kind: capture.KindFire, Object: 0x3FFFFFFF, Other: 4096, Weapon: 0x3FFFFFFF + 12, Player: 2, Opcode: 0x1A, Weapons: capture.WeaponPhaser},
		{T: 301, Kind: capture.KindHit, Object: 4096, Other: 0x3FFFFFFF, Player: 2, Weapons: capture.WeaponPhaser, Cause: capture.CauseWeapon, Damage: 12.5, HullHit: true},
		{T: 301, Kind: capture.KindDamage, Object: 4096, Other: 0x3FFFFFFF, Player: 2, Weapons: capture.WeaponTorpedo, Cause: capture.CauseCollision, Damage: 0.25},
		{T: 400, Kind: capture.KindDeath, Object: 4096, Other: 0x3FFFFFFF, Player: 2, Cause: capture.CauseWeapon},
		{T: 400, Kind: capture.KindExplosion, Object: 4096, Pos: [3]float32{10, 20, -30}, Radius: 10.5, Damage: 50},
		{T: 450, Kind: capture.KindChat, Player: 1, Team: 1, Flags: capture.ChatTeam, Text: "Wave 2 <b>&</b>"},
		{T: 451, Kind: capture.KindChat, Player: 3, Flags: capture.ChatMuted, Text: "held back"},
		{T: 452, Kind: capture.KindChat, Player: 3, Flags: capture.ChatCancelled, Text: "!vote"},
		{T: 452, Kind: capture.KindMessage, Opcode: 0x36, Payload: []byte{0x36, 2, 0, 0, 0}},
		{T: 500, Kind: capture.KindMessage, Opcode: 0x37, Payload: append([]byte{0x37}, bytes.Repeat([]byte{7}, 1000)...)},
		{T: 600, Kind: capture.KindChat, Player: 3, Text: strings.Repeat("long ", 100)},
		{T: 700, Kind: capture.KindPlayerLeft, Player: 3, Text: "timeout"},
		{T: 700, Kind: capture.KindObjectGone, Object: 4096},
		{T: 800, Kind: capture.KindGameEnd, Reason: 2, Team: -1},
		{T: 800, Kind: capture.KindGameEnd, Reason: 0, Team: 1, Player: 3, Name: "Kirk", Text: "the freighter was destroyed",
			TeamScores: []capture.TeamScore{{Team: 0, Kills: 2, Score: 1500}, {Team: 1, Kills: 5, Score: -30}}},
		{T: 900, Kind: capture.KindGameRestart},
	}
}

// Every kind survives encoding and decoding, in a block and in a file.
func TestRecordsRoundTrip(t *testing.T) {
	recs := sample()
	enc := NewEncoder()
	enc.Begin(0)
	var b []byte
	for i := range recs {
		b = enc.Append(b, &recs[i])
	}
	d := NewDecoder(b, 0)
	var r capture.Record
	for i, want := range recs {
		ok, err := d.Next(&r)
		if !ok || err != nil {
			t.Fatalf("record %d: %v %v", i, ok, err)
		}
		got := r
		if len(got.Subs) == 0 {
			got.Subs = nil
		}
		if len(got.Payload) == 0 {
			got.Payload = nil
		}
		if len(got.TeamScores) == 0 {
			got.TeamScores = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
	if ok, err := d.Next(&r); ok || err != nil {
		t.Fatalf("after the last: %v %v", ok, err)
	}
	// Truncated anywhere: an error or fewer records, never a panic.
	for n := range len(b) {
		d := NewDecoder(b[:n], 0)
		for i := 0; i < len(recs)+1; i++ {
			if ok, _ := d.Next(&r); !ok {
				break
			}
		}
	}
}

// A game end written before the outcome was added (the reason alone)
// reads as one without a winner.
func TestOldGameEndReads(t *testing.T) {
	// time delta 0, kind 15, payload length 1, varint reason 3.
	d := NewDecoder([]byte{0, byte(capture.KindGameEnd), 1, 6}, 0)
	var r capture.Record
	if ok, err := d.Next(&r); !ok || err != nil || r.Reason != 3 || r.Team != -1 || r.Player != 0 || r.Text != "" || len(r.TeamScores) != 0 {
		t.Fatalf("%v %v %+v", ok, err, r)
	}
}

// A file cut at any byte opens and reads up to its last whole block.
func TestFileCutAnywhere(t *testing.T) {
	a, err := NewArchive(ArchiveOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	fs := NewFileSink(a, FileSinkOptions{})
	synthMatch(fs, time.Minute)
	fs.Close()
	list, _ := a.List()
	f, err := a.Open(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	whole := len(f.Blocks)
	f.Close()
	b := readAll(t, a, list[0].ID)
	for _, n := range []int{0, 7, prefixLen, prefixLen + 10, len(b) / 3, len(b) / 2, len(b) - 30, len(b) - 1, len(b)} {
		f, err := ReadBytes(b[:n])
		if err != nil {
			continue
		}
		if n < len(b) && f.Footer != nil {
			t.Errorf("cut at %d: footer read", n)
		}
		if len(f.Blocks) > whole {
			t.Errorf("cut at %d: %d blocks", n, len(f.Blocks))
		}
		if err := f.All(func(*capture.Record) bool { return true }); err != nil {
			t.Errorf("cut at %d: %v", n, err)
		}
		f.Close()
	}
}

func readAll(t testing.TB, a *Archive, id string) []byte {
	t.Helper()
	p, _ := a.path(id)
	b, err := osReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzDecoder(f *testing.F) {
	recs := sample()
	enc := NewEncoder()
	var b []byte
	for i := range recs {
		b = enc.Append(b, &recs[i])
	}
	f.Add(b)
	f.Add([]byte{0, 6, 3, 1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b, 0)
		var r capture.Record
		for i := 0; i < len(b)+1; i++ {
			if ok, _ := d.Next(&r); !ok {
				return
			}
		}
	})
}

func FuzzFile(f *testing.F) {
	a, err := NewArchive(ArchiveOptions{Dir: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	fs := NewFileSink(a, FileSinkOptions{})
	synthMatch(fs, 15*time.Second)
	fs.Close()
	list, _ := a.List()
	f.Add(readAll(f, a, list[0].ID))
	a.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		rf, err := ReadBytes(b)
		if err != nil {
			return
		}
		defer rf.Close()
		_ = rf.All(func(*capture.Record) bool { return true })
		_, _ = Summarize(rf)
		_, _ = Frames(rf, 0, 5000, 100)
	})
}

var osReadFile = os.ReadFile
