"""The test chest of the carried-contact tests (belt wrap, airbag): a torso fixed in B0 with a
chest ellipsoid at its origin and a 0.5 kg plate (a sternum) on a prismatic joint along x at the
chest's front, held by a linear spring."""
from occupant.modeling import Assembly, Ellipsoid, Joint, JointResistance, Marker, Part, Pose


def chest_rig(name, chest, stiffness, damping):
    """The rig's Assembly (parts torso, plate; joint slide; ellipsoid chest of semi-axes chest)."""
    asm = Assembly(name)
    asm.add(Part("torso", 10.0, inertia=(0.1, 0.1, 0.1)))
    asm.add(Joint("base", "fixed", None, "torso", Pose()))
    asm.add(Part("plate", 0.5, inertia=(1e-3, 1e-3, 1e-3)))
    asm.add(Joint("slide", "prismatic", "torso", "plate",    # the joint's z along the torso's x
                  Pose(rotation=[[0, 0, 1], [0, 1, 0], [-1, 0, 0]], position=(chest[0], 0.0, 0.0))))
    asm.add(JointResistance("rib", "slide", stiffness=stiffness, damping=damping))
    asm.add(Marker("centre", "torso"))
    asm.add(Ellipsoid("chest", "centre", chest))
    return asm
