package bot

import (
	"encoding/hex"
	"fmt"

	"github.com/bcserver/bcserver/codec"
)

// akiraSpawn is a stock client's ObjCreateTeam for an Akira (slot 0, player
// id 2, id 0x3FFFFFFF, player "Cady2", set "Multi1"), captured from a stock
// session (vectors/simulation.json objcreateteam_akira_spawn).
const akiraSpawn = "03000208800000FFFFFF3F010000B042000084C2000092C2F54A6F3FFE8C963E84E34B3E38784E3C0000000000000005436164793206" +
	"4D756C746931FFFF64FFFFFFFFFFFFFF64FFFFFFFFFFFF64FFFFFFFFFFFFFFFFFF646001FFFFFF64FFFFFFFFFFFFFF6400FF64FFFFFF6401FF"

// ShipCreate returns the ObjCreateTeam a stock client would send for an
// Akira in the given slot, with the owner's wire player id in byte 2, named
// after the player: the captured spawn message with its owner, object id
// and name replaced.
func ShipCreate(slot int, playerID uint8, name string) ([]byte, error) {
	raw, err := hex.DecodeString(akiraSpawn)
	if err != nil {
		return nil, err
	}
	m, err := codec.DecodeObjCreate(raw)
	if err != nil {
		return nil, fmt.Errorf("captured spawn: %w", err)
	}
	m.OwnerSlot = uint8(slot)
	m.OwnerPlayer = playerID
	m.ObjectID = codec.FirstObjectID(slot)
	if len(name) > 255 {
		name = name[:255]
	}
	m.Ship.Name = []byte(name)
	return m.AppendTo(nil), nil
}
