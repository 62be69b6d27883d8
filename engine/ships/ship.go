package ships

// Ship is the host's model of one ship: the state the host is authoritative
// for and broadcasts in StateUpdate flag 0x20 (simulation.md 1, 4.2).
// Indices are Class.Subsystems indices for conditions and Class.Entries
// indices for power. A Ship belongs to one game goroutine.
type Ship struct {
	class *Class
	id    int32

	cond     []float32 // hit points per subsystem, 0..MaxCondition
	condByte []byte    // wire byte per subsystem, kept in step with cond

	wanted    []float32 // power_wanted per entry (1 = 100 %), powered entries
	on        []bool    // on/off per entry
	powerByte []byte    // wire byte per entry

	main, backup         float32 // battery levels
	mainByte, backupByte byte
}

// NewShip returns a ship of class c with object id objectID at full
// condition, every powered entry at 100 % and on, and full batteries: the
// state the host assumes on ObjCreate(Team), since it does not decode the
// creator's subsystem tail (simulation.md 3.4).
func NewShip(c *Class, objectID int32) *Ship {
	n, e := len(c.Subsystems), len(c.Entries)
	s := &Ship{
		class:     c,
		id:        objectID,
		cond:      make([]float32, n),
		condByte:  make([]byte, n),
		wanted:    make([]float32, e),
		on:        make([]bool, e),
		powerByte: make([]byte, e),
	}
	s.Reset()
	return s
}

// Reset restores the spawn state of NewShip.
func (s *Ship) Reset() {
	for i := range s.cond {
		s.SetCondition(i, s.class.Subsystems[i].MaxCondition)
	}
	for i := range s.wanted {
		s.SetPower(i, 1, true)
	}
	s.SetBatteries(s.class.Power.MainBatteryLimit, s.class.Power.BackupBatteryLimit)
}

// Class returns the ship's class.
func (s *Ship) Class() *Class { return s.class }

// ObjectID returns the ship's network object id.
func (s *Ship) ObjectID() int32 { return s.id }

// SubsystemID returns the object id of subsystem i: the ship takes the
// first id and its subsystems the following ones in the stock creation
// order, subsystem i taking ship id + its IDOffset (simulation.md 3.2).
// Repair events and weapon messages name subsystems by these ids.
func (s *Ship) SubsystemID(i int) int32 {
	return s.id + int32(s.class.Subsystems[i].IDOffset)
}

// SubsystemIndex maps a subsystem object id back to its index.
func (s *Ship) SubsystemIndex(id int32) (int, bool) {
	// Subtract in int64: ids near the top of the int32 range must not wrap.
	k := int64(id) - int64(s.id)
	if k < 1 || k > int64(len(s.cond)) {
		return 0, false
	}
	return s.class.SubsystemByOffset(int(k))
}

// Condition returns subsystem i's condition in hit points.
func (s *Ship) Condition(i int) float32 { return s.cond[i] }

// ConditionFraction returns subsystem i's condition as a fraction of its
// MaxCondition.
func (s *Ship) ConditionFraction(i int) float32 {
	return s.cond[i] / s.class.Subsystems[i].MaxCondition
}

// ConditionByte returns subsystem i's 0x20 condition byte.
func (s *Ship) ConditionByte(i int) byte { return s.condByte[i] }

// SetCondition sets subsystem i's condition in hit points, clamped to
// [0, MaxCondition] (simulation.md 5.3 step 4); NaN counts as 0.
func (s *Ship) SetCondition(i int, hp float32) {
	mx := s.class.Subsystems[i].MaxCondition
	if !(hp > 0) {
		hp = 0
	} else if hp > mx {
		hp = mx
	}
	s.cond[i] = hp
	s.condByte[i] = conditionByte(hp, mx)
}

// ConditionByID returns the condition of the subsystem with object id id.
func (s *Ship) ConditionByID(id int32) (float32, bool) {
	i, ok := s.SubsystemIndex(id)
	if !ok {
		return 0, false
	}
	return s.cond[i], true
}

// SetConditionByID sets the condition of the subsystem with object id id;
// it returns false when the id is not one of this ship's subsystems.
func (s *Ship) SetConditionByID(id int32, hp float32) bool {
	i, ok := s.SubsystemIndex(id)
	if ok {
		s.SetCondition(i, hp)
	}
	return ok
}

// Hull returns the hull's condition in hit points.
func (s *Ship) Hull() float32 { return s.cond[s.class.Hull] }

// SetHull sets the hull's condition in hit points (clamped).
func (s *Ship) SetHull(hp float32) { s.SetCondition(s.class.Hull, hp) }

// Destroyed reports whether the hull is at 0, the death condition of
// simulation.md 5.4 (the self-destruct path kills via the reactor, 7).
func (s *Ship) Destroyed() bool { return s.cond[s.class.Hull] == 0 }

// Power returns entry e's power_wanted (1 = 100 %) and on/off state.
func (s *Ship) Power(e int) (wanted float32, on bool) { return s.wanted[e], s.on[e] }

// PowerByte returns entry e's 0x20 power byte.
func (s *Ship) PowerByte(e int) byte { return s.powerByte[e] }

// SetPower sets entry e's power_wanted (1 = 100 %, clamped to 0..1.27 so
// the percentage fits the signed byte) and on/off state. The host takes
// these from the owner and re-broadcasts them to everyone else
// (simulation.md 10); it does not validate them beyond the clamp.
func (s *Ship) SetPower(e int, wanted float32, on bool) {
	if !(wanted > 0) {
		wanted = 0
	} else if wanted > 1.27 {
		wanted = 1.27
	}
	s.wanted[e], s.on[e] = wanted, on
	s.powerByte[e] = powerByte(wanted, on)
}

// Batteries returns the main and backup battery levels.
func (s *Ship) Batteries() (main, backup float32) { return s.main, s.backup }

// BatteryBytes returns the main and backup 0x20 battery bytes.
func (s *Ship) BatteryBytes() (main, backup byte) { return s.mainByte, s.backupByte }

// SetBatteries sets the battery levels, clamped to [0, limit].
func (s *Ship) SetBatteries(main, backup float32) {
	p := &s.class.Power
	s.main = clamp(main, p.MainBatteryLimit)
	s.backup = clamp(backup, p.BackupBatteryLimit)
	s.mainByte = ratioByte(s.main, p.MainBatteryLimit)
	s.backupByte = ratioByte(s.backup, p.BackupBatteryLimit)
}

// ApplyEntry sets the state of one received 0x20 entry, as a client does
// with the host's data (simulation.md 1: 0x20 overrides local values).
// Values are the inverse of the writer's formulas; the wire bytes are kept
// exactly as received, so a ship fed by ReadSubsystems writes the same
// bytes back out.
func (s *Ship) ApplyEntry(st EntryState) {
	e := &s.class.Entries[st.Index]
	for k, b := range st.Cond {
		i := e.Subsystem + k
		s.cond[i] = float32(b) / 255 * s.class.Subsystems[i].MaxCondition
		s.condByte[i] = b
	}
	if st.HasPower {
		pct := int(int8(st.Power))
		on := pct >= 0
		if !on {
			pct = -pct
		}
		s.wanted[st.Index], s.on[st.Index] = float32(pct)/100, on
		s.powerByte[st.Index] = st.Power
	}
	if e.Format == FormatPower {
		p := &s.class.Power
		s.main = float32(st.MainBattery) / 255 * p.MainBatteryLimit
		s.backup = float32(st.BackupBattery) / 255 * p.BackupBatteryLimit
		s.mainByte, s.backupByte = st.MainBattery, st.BackupBattery
	}
}

func clamp(v, limit float32) float32 {
	if !(v > 0) {
		return 0
	}
	return min(v, limit)
}

// conditionByte is trunc(current / max × 255) (simulation.md 4.2).
func conditionByte(cur, mx float32) byte { return ratioByte(cur, mx) }

// ratioByte is trunc(v / limit × 255), 0 when limit is 0, in float32 like
// the stock client.
func ratioByte(v, limit float32) byte {
	if !(limit > 0) || !(v > 0) {
		return 0
	}
	r := v / limit * 255
	if r >= 255 {
		return 255
	}
	return byte(r) // truncation toward zero
}

// powerByte is trunc(wanted × 100) with the sign bit meaning OFF
// (simulation.md 4.2): OFF at 100 % is -100 = 0x9C. OFF at 0 % cannot be
// told from ON at 0 % on the wire; it is written as 0.
func powerByte(wanted float32, on bool) byte {
	pct := int8(wanted * 100) // Go's conversion truncates toward zero
	if !on {
		pct = -pct
	}
	return byte(pct)
}
