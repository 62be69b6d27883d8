package codec

// Game opcodes: the first byte of every reassembled game message
// (opcodes.md 2). Values below MaxMessageTypes belong to the engine's
// dispatchers; 0x20..0x28 belong to the NetFile dispatcher (checksum and
// file transfer, handshake.md 2.2-2.5); everything from MaxMessageTypes up is
// a mission script message (missions.md 1.1).
const (
	OpSettings           = 0x00 // S>C, handshake.md 2.5
	OpGameInit           = 0x01 // S>C, no payload
	OpObjCreate          = 0x02 // object stream without team byte
	OpObjCreateTeam      = 0x03 // object stream with team byte
	OpPythonEvent        = 0x06 // S>C serialized event
	OpStartFiring        = 0x07 // event-forward, relayed
	OpStopFiring         = 0x08
	OpStopFiringAtTarget = 0x09
	OpSubsystemStatus    = 0x0A
	OpAddToRepairList    = 0x0B
	OpClientEvent        = 0x0C
	OpPythonEvent2       = 0x0D // C>S serialized event, consumed
	OpStartCloaking      = 0x0E
	OpStopCloaking       = 0x0F
	OpStartWarp          = 0x10
	OpRepairListPriority = 0x11
	OpSetPhaserLevel     = 0x12
	OpHostMsg            = 0x13 // C>S self-destruct request
	OpDestroyObject      = 0x14
	OpCollisionEffect    = 0x15 // C>S, consumed
	OpUICollisionSetting = 0x16
	OpPlayerListEvent    = 0x17 // "DeletePlayerUI": join/leave player-list event
	OpDeletePlayerAnim   = 0x18
	OpTorpedoFire        = 0x19
	OpPulseFire          = 0x1A // one pulse-cannon bolt (formerly "BeamFire")
	OpTorpedoTypeChange  = 0x1B
	OpStateUpdate        = 0x1C
	OpObjectPrompt       = 0x1D
	OpRequestObject      = 0x1E
	OpEnterSet           = 0x1F
	OpChecksumRequest    = ChecksumRequestOpcode     // 0x20
	OpChecksumResponse   = ChecksumResponseOpcode    // 0x21
	OpChecksumFailFile   = ChecksumFailFileOpcode    // 0x22
	OpChecksumFailVer    = ChecksumFailVersionOpcode // 0x23
	OpFileTransfer       = 0x25
	OpFileTransferAck    = 0x27
	OpTransferDone       = 0x28 // S>C, no payload, before Settings
	OpExplosion          = 0x29
	OpNewPlayerInGame    = 0x2A // C>S, one packed bit

	// MaxMessageTypes is the engine's MAX_MESSAGE_TYPES: not a message
	// itself; every opcode at or above it is a script message that the
	// session layer hands to the mission layer (missions.md 1.1).
	MaxMessageTypes = 0x2B

	OpChat        = 0x2C // MAX_MESSAGE_TYPES + 1
	OpTeamChat    = 0x2D // + 2
	OpMissionInit = 0x35 // + 10
	OpScoreChange = 0x36 // + 11
	OpScore       = 0x37 // + 12
	OpEndGame     = 0x38 // + 13
	OpRestartGame = 0x39 // + 14
	OpScoreInit   = 0x3F // + 20, team modes
	OpTeamScore   = 0x40 // + 21, team modes
	OpTeam        = 0x41 // + 22, team modes
)

// IsScriptOpcode reports whether op is a mission script message (known or
// a mod's): missions.md 1.1 routes every value >= MaxMessageTypes to the
// mission layer and never treats it as an error.
func IsScriptOpcode(op byte) bool { return op >= MaxMessageTypes }

// OpcodeName returns a short name of op for logs. Unused engine slots are
// "Unused"; script opcodes the stock scripts do not define are
// "ScriptMessage" (mods use them, missions.md 1.1).
func OpcodeName(op byte) string {
	switch op {
	case OpSettings:
		return "Settings"
	case OpGameInit:
		return "GameInit"
	case OpObjCreate:
		return "ObjCreate"
	case OpObjCreateTeam:
		return "ObjCreateTeam"
	case OpPythonEvent:
		return "PythonEvent"
	case OpStartFiring:
		return "StartFiring"
	case OpStopFiring:
		return "StopFiring"
	case OpStopFiringAtTarget:
		return "StopFiringAtTarget"
	case OpSubsystemStatus:
		return "SubsystemStatus"
	case OpAddToRepairList:
		return "AddToRepairList"
	case OpClientEvent:
		return "ClientEvent"
	case OpPythonEvent2:
		return "PythonEvent2"
	case OpStartCloaking:
		return "StartCloaking"
	case OpStopCloaking:
		return "StopCloaking"
	case OpStartWarp:
		return "StartWarp"
	case OpRepairListPriority:
		return "RepairListPriority"
	case OpSetPhaserLevel:
		return "SetPhaserLevel"
	case OpHostMsg:
		return "HostMsg"
	case OpDestroyObject:
		return "DestroyObject"
	case OpCollisionEffect:
		return "CollisionEffect"
	case OpUICollisionSetting:
		return "UICollisionSetting"
	case OpPlayerListEvent:
		return "PlayerListEvent"
	case OpDeletePlayerAnim:
		return "DeletePlayerAnim"
	case OpTorpedoFire:
		return "TorpedoFire"
	case OpPulseFire:
		return "PulseFire"
	case OpTorpedoTypeChange:
		return "TorpedoTypeChange"
	case OpStateUpdate:
		return "StateUpdate"
	case OpObjectPrompt:
		return "ObjNotFound"
	case OpRequestObject:
		return "RequestObject"
	case OpEnterSet:
		return "EnterSet"
	case OpChecksumRequest:
		return "ChecksumRequest"
	case OpChecksumResponse:
		return "ChecksumResponse"
	case OpChecksumFailFile:
		return "ChecksumFailFile"
	case OpChecksumFailVer:
		return "ChecksumFailVersion"
	case OpFileTransfer:
		return "FileTransfer"
	case OpFileTransferAck:
		return "FileTransferAck"
	case OpTransferDone:
		return "TransferDone"
	case OpExplosion:
		return "Explosion"
	case OpNewPlayerInGame:
		return "NewPlayerInGame"
	case OpChat:
		return "Chat"
	case OpTeamChat:
		return "TeamChat"
	case OpMissionInit:
		return "MissionInit"
	case OpScoreChange:
		return "ScoreChange"
	case OpScore:
		return "Score"
	case OpEndGame:
		return "EndGame"
	case OpRestartGame:
		return "RestartGame"
	case OpScoreInit:
		return "ScoreInit"
	case OpTeamScore:
		return "TeamScore"
	case OpTeam:
		return "Team"
	}
	if IsScriptOpcode(op) {
		return "ScriptMessage"
	}
	return "Unused" // 0x04, 0x05, 0x24, 0x26: dead slots in the stock dispatchers
}
