package bot

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

func TestShipCreate(t *testing.T) {
	captured := vectors.MustNamed(t, "simulation.json", "objcreateteam_akira_spawn")
	raw, _ := hex.DecodeString(akiraSpawn)
	if !bytes.Equal(raw, captured) {
		t.Fatal("embedded spawn differs from the vector")
	}
	got, err := ShipCreate(0, 2, "Cady2")
	if err != nil || !bytes.Equal(got, captured) {
		t.Fatalf("slot 0 as captured: %X %v", got, err)
	}
	got, _ = ShipCreate(3, 5, "Bot")
	m, err := codec.DecodeObjCreate(got)
	if err != nil || m.OwnerSlot != 3 || m.OwnerPlayer != 5 || m.ObjectID != 0x3FFFFFFF+3*0x40000 || string(m.Ship.Name) != "Bot" || m.Ship.Species != 1 {
		t.Fatalf("slot 3: %+v %v", m, err)
	}
}
