package capture

// Kill is one ship destroyed.
type Kill struct {
	T            uint32 `json:"t"`
	Victim       string `json:"victim"` // the player, or the host ship's name
	VictimID     byte   `json:"victim_id"`
	VictimShip   int32  `json:"victim_ship"`
	VictimClass  string `json:"victim_class,omitempty"`
	Killer       string `json:"killer,omitempty"`
	KillerID     byte   `json:"killer_id"` // the killing player, 0 for none
	KillerShip   int32  `json:"killer_ship,omitempty"`
	Cause        string `json:"cause"`
	Weapon       string `json:"weapon,omitempty"` // the killer's last weapon kind
	VictimIsHost bool   `json:"victim_host,omitempty"`
}

// ChatLine is one chat line; Player 1 is the host (mission messages).
// Team, Muted and Cancelled say who received it (only the admin's view
// has such lines).
type ChatLine struct {
	T         uint32 `json:"t"`
	Player    byte   `json:"player"`
	Name      string `json:"name"`
	Team      bool   `json:"team,omitempty"`
	Muted     bool   `json:"muted,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
	Text      string `json:"text"`
}

// ChatOf makes the chat line of a KindChat record, the sender named from st.
func ChatOf(r *Record, st *State) ChatLine {
	c := ChatLine{T: r.T, Player: r.Player, Team: r.Team != 0 || r.Flags&ChatTeam != 0, Muted: r.Flags&ChatMuted != 0,
		Cancelled: r.Flags&ChatCancelled != 0, Text: r.Text, Name: "host"}
	if p := st.Players[r.Player]; p != nil {
		c.Name = p.Name
	}
	return c
}
