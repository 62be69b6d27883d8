# Multiplayer species table of the bcserver test mod "Fixture Fleet".
# Written by hand in the stock layout: the stock ids 1-15, a new flyable
# Intrepid at 16, the stock stations from 17 to 30, the Cardassian freighter
# renumbered from 16 to 31, a new Defiant at 150 (above 127: a stock
# receiver reads the byte as -106, so the mod's GetShipFromSpecies adds 256)
# and the Defiant-class USS Sao Paulo at 151.
import App

# types for initializing objects create from C.
UNKNOWN = 0
AKIRA = 1
AMBASSADOR = 2
GALAXY = 3
NEBULA = 4
SOVEREIGN = 5
BIRDOFPREY = 6
VORCHA = 7
WARBIRD = 8
MARAUDER = 9
GALOR = 10
KELDON = 11
CARDHYBRID = 12
KESSOKHEAVY = 13
KESSOKLIGHT = 14
SHUTTLE = 15
INTREPID = 16
FREIGHTER = 17
TRANSPORT = 18
SPACEFACILITY = 19
COMMARRAY = 20
COMMLIGHT = 21
DRYDOCK = 22
PROBE = 23
DECOY = 24
SUNBUSTER = 25
CARDOUTPOST = 26
CARDSTARBASE = 27
CARDSTATION = 28
FEDOUTPOST = 29
FEDSTARBASE = 30
CARDFREIGHTER = 31
DEFIANT = 150
SAOPAULO = 151
MAX_SHIPS = 152
MAX_FLYABLE_SHIPS = 152

# Setup tuples
kSpeciesTuple = (
	(None, 0, "Neutral", 0),
	("Akira", App.SPECIES_AKIRA, "Federation", 1),
	("Ambassador", App.SPECIES_AMBASSADOR, "Federation", 1),
	("Galaxy", App.SPECIES_GALAXY, "Federation", 1),
	("Nebula", App.SPECIES_NEBULA, "Federation", 1),
	("Sovereign", App.SPECIES_SOVEREIGN, "Federation", 1),
	("BirdOfPrey", App.SPECIES_BIRD_OF_PREY, "Klingon", 1),
	("Vorcha", App.SPECIES_VORCHA, "Klingon", 1),
	("Warbird", App.SPECIES_WARBIRD, "Romulan", 1),
	("Marauder", App.SPECIES_MARAUDER, "Ferengi", 1),
	("Galor", App.SPECIES_GALOR, "Cardassian", 1),
	("Keldon", App.SPECIES_KELDON, "Cardassian", 1),
	("CardHybrid", App.SPECIES_CARDHYBRID, "Cardassian", 1),
	("KessokHeavy", App.SPECIES_KESSOK_HEAVY, "Kessok", 1),
	("KessokLight", App.SPECIES_KESSOK_LIGHT, "Kessok", 1),
	("Shuttle", App.SPECIES_SHUTTLE, "Federation", 1),
	("Intrepid", "USS Intrepid", 130, "Federation", 1),
	("Freighter" , App.SPECIES_FREIGHTER, "Federation", 1),
	("Transport" , App.SPECIES_TRANSPORT, "Federation", 1),
	("SpaceFacility" , App.SPECIES_SPACE_FACILITY, "Federation", 1),
	("CommArray" , App.SPECIES_COMMARRAY, "Federation", 1),
	("CommLight" , App.SPECIES_COMMLIGHT, "Cardassian", 1),
	("DryDock" , App.SPECIES_DRYDOCK, "Federation", 1),
	("Probe" , App.SPECIES_PROBE, "Federation", 1),
	("Decoy" , App.SPECIES_PROBETYPE2, "Federation", 1),
	("Sunbuster" , App.SPECIES_SUNBUSTER, "Kessok", 1),
	("CardOutpost" , App.SPECIES_CARD_OUTPOST, "Cardassian", 1),
	("CardStarbase" , App.SPECIES_CARD_STARBASE, "Cardassian", 1),
	("CardStation" , App.SPECIES_CARD_STATION, "Cardassian", 1),
	("FedOutpost" , App.SPECIES_FED_OUTPOST, "Federation", 1),
	("FedStarbase" , App.SPECIES_FED_STARBASE, "Federation", 1),
	("CardFreighter", "Cardassian Freighter" , App.SPECIES_CARDFREIGHTER, "Cardassian", 1),
	(None, 0, "Neutral", 0),	# 32: unused
	(None, 0, "Neutral", 0),	# 33: unused
	(None, 0, "Neutral", 0),	# 34: unused
	(None, 0, "Neutral", 0),	# 35: unused
	(None, 0, "Neutral", 0),	# 36: unused
	(None, 0, "Neutral", 0),	# 37: unused
	(None, 0, "Neutral", 0),	# 38: unused
	(None, 0, "Neutral", 0),	# 39: unused
	(None, 0, "Neutral", 0),	# 40: unused
	(None, 0, "Neutral", 0),	# 41: unused
	(None, 0, "Neutral", 0),	# 42: unused
	(None, 0, "Neutral", 0),	# 43: unused
	(None, 0, "Neutral", 0),	# 44: unused
	(None, 0, "Neutral", 0),	# 45: unused
	(None, 0, "Neutral", 0),	# 46: unused
	(None, 0, "Neutral", 0),	# 47: unused
	(None, 0, "Neutral", 0),	# 48: unused
	(None, 0, "Neutral", 0),	# 49: unused
	(None, 0, "Neutral", 0),	# 50: unused
	(None, 0, "Neutral", 0),	# 51: unused
	(None, 0, "Neutral", 0),	# 52: unused
	(None, 0, "Neutral", 0),	# 53: unused
	(None, 0, "Neutral", 0),	# 54: unused
	(None, 0, "Neutral", 0),	# 55: unused
	(None, 0, "Neutral", 0),	# 56: unused
	(None, 0, "Neutral", 0),	# 57: unused
	(None, 0, "Neutral", 0),	# 58: unused
	(None, 0, "Neutral", 0),	# 59: unused
	(None, 0, "Neutral", 0),	# 60: unused
	(None, 0, "Neutral", 0),	# 61: unused
	(None, 0, "Neutral", 0),	# 62: unused
	(None, 0, "Neutral", 0),	# 63: unused
	(None, 0, "Neutral", 0),	# 64: unused
	(None, 0, "Neutral", 0),	# 65: unused
	(None, 0, "Neutral", 0),	# 66: unused
	(None, 0, "Neutral", 0),	# 67: unused
	(None, 0, "Neutral", 0),	# 68: unused
	(None, 0, "Neutral", 0),	# 69: unused
	(None, 0, "Neutral", 0),	# 70: unused
	(None, 0, "Neutral", 0),	# 71: unused
	(None, 0, "Neutral", 0),	# 72: unused
	(None, 0, "Neutral", 0),	# 73: unused
	(None, 0, "Neutral", 0),	# 74: unused
	(None, 0, "Neutral", 0),	# 75: unused
	(None, 0, "Neutral", 0),	# 76: unused
	(None, 0, "Neutral", 0),	# 77: unused
	(None, 0, "Neutral", 0),	# 78: unused
	(None, 0, "Neutral", 0),	# 79: unused
	(None, 0, "Neutral", 0),	# 80: unused
	(None, 0, "Neutral", 0),	# 81: unused
	(None, 0, "Neutral", 0),	# 82: unused
	(None, 0, "Neutral", 0),	# 83: unused
	(None, 0, "Neutral", 0),	# 84: unused
	(None, 0, "Neutral", 0),	# 85: unused
	(None, 0, "Neutral", 0),	# 86: unused
	(None, 0, "Neutral", 0),	# 87: unused
	(None, 0, "Neutral", 0),	# 88: unused
	(None, 0, "Neutral", 0),	# 89: unused
	(None, 0, "Neutral", 0),	# 90: unused
	(None, 0, "Neutral", 0),	# 91: unused
	(None, 0, "Neutral", 0),	# 92: unused
	(None, 0, "Neutral", 0),	# 93: unused
	(None, 0, "Neutral", 0),	# 94: unused
	(None, 0, "Neutral", 0),	# 95: unused
	(None, 0, "Neutral", 0),	# 96: unused
	(None, 0, "Neutral", 0),	# 97: unused
	(None, 0, "Neutral", 0),	# 98: unused
	(None, 0, "Neutral", 0),	# 99: unused
	(None, 0, "Neutral", 0),	# 100: unused
	(None, 0, "Neutral", 0),	# 101: unused
	(None, 0, "Neutral", 0),	# 102: unused
	(None, 0, "Neutral", 0),	# 103: unused
	(None, 0, "Neutral", 0),	# 104: unused
	(None, 0, "Neutral", 0),	# 105: unused
	(None, 0, "Neutral", 0),	# 106: unused
	(None, 0, "Neutral", 0),	# 107: unused
	(None, 0, "Neutral", 0),	# 108: unused
	(None, 0, "Neutral", 0),	# 109: unused
	(None, 0, "Neutral", 0),	# 110: unused
	(None, 0, "Neutral", 0),	# 111: unused
	(None, 0, "Neutral", 0),	# 112: unused
	(None, 0, "Neutral", 0),	# 113: unused
	(None, 0, "Neutral", 0),	# 114: unused
	(None, 0, "Neutral", 0),	# 115: unused
	(None, 0, "Neutral", 0),	# 116: unused
	(None, 0, "Neutral", 0),	# 117: unused
	(None, 0, "Neutral", 0),	# 118: unused
	(None, 0, "Neutral", 0),	# 119: unused
	(None, 0, "Neutral", 0),	# 120: unused
	(None, 0, "Neutral", 0),	# 121: unused
	(None, 0, "Neutral", 0),	# 122: unused
	(None, 0, "Neutral", 0),	# 123: unused
	(None, 0, "Neutral", 0),	# 124: unused
	(None, 0, "Neutral", 0),	# 125: unused
	(None, 0, "Neutral", 0),	# 126: unused
	(None, 0, "Neutral", 0),	# 127: unused
	(None, 0, "Neutral", 0),	# 128: unused
	(None, 0, "Neutral", 0),	# 129: unused
	(None, 0, "Neutral", 0),	# 130: unused
	(None, 0, "Neutral", 0),	# 131: unused
	(None, 0, "Neutral", 0),	# 132: unused
	(None, 0, "Neutral", 0),	# 133: unused
	(None, 0, "Neutral", 0),	# 134: unused
	(None, 0, "Neutral", 0),	# 135: unused
	(None, 0, "Neutral", 0),	# 136: unused
	(None, 0, "Neutral", 0),	# 137: unused
	(None, 0, "Neutral", 0),	# 138: unused
	(None, 0, "Neutral", 0),	# 139: unused
	(None, 0, "Neutral", 0),	# 140: unused
	(None, 0, "Neutral", 0),	# 141: unused
	(None, 0, "Neutral", 0),	# 142: unused
	(None, 0, "Neutral", 0),	# 143: unused
	(None, 0, "Neutral", 0),	# 144: unused
	(None, 0, "Neutral", 0),	# 145: unused
	(None, 0, "Neutral", 0),	# 146: unused
	(None, 0, "Neutral", 0),	# 147: unused
	(None, 0, "Neutral", 0),	# 148: unused
	(None, 0, "Neutral", 0),	# 149: unused
	("Defiant", 131, "Federation", 1),
	("SaoPaulo", "USS Sao Paulo", 131, "Federation", 1),
	(None, 0, "Neutral", 1))


def GetShipFromSpecies (iSpecies):
	# Stock receivers widen the byte as signed: 128..255 arrive negative.
	if (iSpecies < 0):
		iSpecies = iSpecies + 256
	if (iSpecies <= 0 or iSpecies >= MAX_SHIPS):
		return None

	pSpecTuple = kSpeciesTuple [iSpecies]
	pcScript = pSpecTuple [0]

	ShipScript = __import__("ships." + pcScript)
	ShipScript.LoadModel ()
	return ShipScript.GetShipStats ()
