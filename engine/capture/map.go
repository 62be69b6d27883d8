package capture

// Map is the record as JSON for tools (`bcserver replay -json`) and the
// viewer: "t" and "kind", then the fields of its kind.
func (r *Record) Map() map[string]any {
	m := map[string]any{"t": r.T, "kind": r.Kind.String()}
	switch r.Kind {
	case KindKeyframe:
		m["game_over"] = r.Flags&1 != 0
	case KindPlayer:
		m["player"], m["slot"], m["name"], m["team"], m["kills"], m["deaths"], m["score"] = r.Player, r.Slot, r.Name, r.Team, r.Kills, r.Deaths, r.Score
	case KindPlayerLeft:
		m["player"], m["reason"] = r.Player, r.Text
	case KindObject:
		m["object"], m["owner"], m["species"], m["team"], m["name"], m["class"], m["host"] = r.Object, r.Owner, r.Species, r.Team, r.Name, r.Class, r.Flags&ObjHost != 0
	case KindObjectGone:
		m["object"] = r.Object
	case KindMotion:
		m["object"], m["pos"], m["fwd"], m["up"], m["speed"] = r.Object, r.Pos, r.Fwd, r.Up, r.Speed
	case KindStatus:
		m["object"], m["hull"], m["shields"] = r.Object, r.Hull, r.Shields
	case KindSubsystems:
		subs := make([][2]float32, len(r.Subs))
		for i, s := range r.Subs {
			subs[i] = [2]float32{float32(s.Index), s.Cond}
		}
		m["object"], m["subsystems"] = r.Object, subs
	case KindFire:
		m["object"], m["target"], m["weapon"], m["player"], m["opcode"], m["weapon_kind"] = r.Object, r.Other, r.Weapon, r.Player, r.Opcode, r.Weapons.String()
	case KindHit, KindDamage:
		m["object"], m["attacker"], m["player"], m["damage"], m["hull_hit"], m["cause"] = r.Object, r.Other, r.Player, r.Damage, r.HullHit, r.Cause.String()
		m["weapon_kind"] = r.Weapons.String()
	case KindDeath:
		m["object"], m["killer"], m["player"], m["owner"], m["cause"] = r.Object, r.Other, r.Player, r.Owner, r.Cause.String()
	case KindChat:
		m["player"], m["team"], m["text"] = r.Player, r.Team != 0 || r.Flags&ChatTeam != 0, r.Text
		if r.Flags&ChatMuted != 0 {
			m["muted"] = true
		}
		if r.Flags&ChatCancelled != 0 {
			m["cancelled"] = true
		}
	case KindMessage:
		m["opcode"], m["payload"] = r.Opcode, r.Payload
	case KindGameEnd:
		m["reason"] = r.Reason
		if r.Team >= 0 {
			m["winner_team"] = r.Team
		}
		if r.Player != 0 {
			m["winner"], m["winner_name"] = r.Player, r.Name
		}
		if r.Text != "" {
			m["why"] = r.Text
		}
		if len(r.TeamScores) > 0 {
			m["teams"] = r.TeamScores
		}
	case KindExplosion:
		m["object"], m["pos"], m["radius"], m["damage"] = r.Object, r.Pos, r.Radius, r.Damage
	default:
		m["payload"] = r.Payload
	}
	return m
}
