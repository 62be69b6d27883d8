###############################################################################
#	Filename:	PulsePhaser.py
#
#	The Defiant's pulse phaser bolt ("Fixture Fleet" test mod).
###############################################################################

import App

###############################################################################
#	Create(pTorp)
#
#	Creates a pulse phaser bolt.
###############################################################################
def Create(pTorp):

	kOuterShellColor = App.TGColorA()
	kOuterShellColor.SetRGBA(1.000000, 0.400000, 0.100000, 1.000000)
	kOuterCoreColor = App.TGColorA()
	kOuterCoreColor.SetRGBA(1.000000, 0.900000, 0.600000, 1.000000)
	pTorp.CreateDisruptorModel(kOuterShellColor,kOuterCoreColor, 1.5, 0.12)
	pTorp.SetDamage( GetDamage() )
	pTorp.SetDamageRadiusFactor(0.15)
	pTorp.SetGuidanceLifetime( GetGuidanceLifetime() )
	pTorp.SetMaxAngularAccel( GetMaxAngularAccel() )
	pTorp.SetLifetime( GetLifetime() )

	# Multiplayer specific stuff.  Please, if you create a new torp
	# type. modify the SpeciesToTorp.py file to add the new type.
	import Multiplayer.SpeciesToTorp
	pTorp.SetNetType (Multiplayer.SpeciesToTorp.PULSEPHASER)

	return(0)

def GetLaunchSpeed():
	return(60.0)

def GetLaunchSound():
	return("Defiant Pulse")

def GetPowerCost():
	return(12.0)

def GetName():
	return("Pulse Phaser")

def GetDamage():
	return 250.0

def GetGuidanceLifetime():
	return 0.0

def GetMaxAngularAccel():
	return 0.0

def GetLifetime():
	return 6.0
