# C:\Utopia\Current\Build\scripts\ships\Hardpoints\saopaulo.py
# This file was automatically generated - modify at your own risk.
# 
# Fixture Fleet 1.0: the USS Sao Paulo, a Defiant with ablative armour and the
# cloak the Defiant's hardpoint registers but does not fit.

import App
import GlobalPropertyTemplates
	# The line below is needed by the editor to restore
	# the name of the parent script.
ParentPropertyScript = "ships.Hardpoints.defiant"
if not ('g_bIsModelPropertyEditor' in dir(App)):
	ParentModule = __import__("ships.Hardpoints.defiant", globals(), locals(), ['*'])
	reload(ParentModule)
# Setting up local templates.
#################################################
Hull = App.HullProperty_Create("Hull")

Hull.SetMaxCondition(7000.000000)
Hull.SetCritical(1)
Hull.SetTargetable(1)
Hull.SetPrimary(1)
Hull.SetPosition(0.000000, 0.100000, 0.000000)
Hull.SetPosition2D(64.000000, 50.000000)
Hull.SetRepairComplexity(3.000000)
Hull.SetDisabledPercentage(0.750000)
Hull.SetRadius(1.100000)
App.g_kModelPropertyManager.RegisterLocalTemplate(Hull)
#################################################
AblativeArmor = App.HullProperty_Create("Ablative Armor")

AblativeArmor.SetMaxCondition(3000.000000)
AblativeArmor.SetCritical(0)
AblativeArmor.SetTargetable(1)
AblativeArmor.SetPrimary(0)
AblativeArmor.SetPosition(0.000000, 0.400000, 0.000000)
AblativeArmor.SetPosition2D(64.000000, 40.000000)
AblativeArmor.SetRepairComplexity(4.000000)
AblativeArmor.SetDisabledPercentage(0.250000)
AblativeArmor.SetRadius(0.900000)
App.g_kModelPropertyManager.RegisterLocalTemplate(AblativeArmor)

# Property load function.
def LoadPropertySet(pObj):
	"Sets up the object's properties."
	if not ('g_bIsModelPropertyEditor' in dir(App)):
		ParentModule.LoadPropertySet(pObj)
	prop = App.g_kModelPropertyManager.FindByName("Hull", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Ablative Armor", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Cloaking Device", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
