"""Editable model description: parts, markers, geometry, joints and force elements, held in an
Assembly that keeps references consistent and compiles to the frozen runtime Model (seed 000)."""
from occupant.modeling.elements import (
    Part, VirtualPart, Marker, Joint, MDH, Pose, JointResistance, SpringDamper, ModelingError,
)
from occupant.modeling.geometry import (Ellipsoid, Sphere, Cylinder, Box, Plane, Mesh, Link,
                                        Frustum, Torus)
from occupant.modeling.contacts import ContactCharacteristic, ContactPair
from occupant.modeling.airbags import (Airbag, AirbagContact, driver_airbag, knee_airbag,
                                      passenger_airbag)
from occupant.modeling.assembly import Assembly
from occupant.modeling.muscles import Muscle
from occupant.modeling.materials import Material
from occupant.modeling.constraint_elements import Primitive, Coupler
from occupant.modeling.marker_forces import MarkerForce
from occupant.modeling.environment import Gravity, Units
from occupant.modeling.motions import TimeFunction, JointMotion, MarkerMotion
from occupant.modeling.curves import Curve
from occupant.modeling.higher_pairs import PointOnCurve, CurveOnCurve
from occupant.modeling.surface_motions import SurfaceMotion

__all__ = [
    "Part", "Marker", "Joint", "MDH", "Pose", "JointResistance", "SpringDamper", "ModelingError",
    "Ellipsoid", "Sphere", "Cylinder", "Box", "Plane", "Mesh", "Assembly",
    "ContactCharacteristic", "ContactPair", "Airbag", "AirbagContact",
    "driver_airbag", "knee_airbag", "passenger_airbag",
    "ContactCharacteristic", "ContactPair", "Muscle",
    "VirtualPart", "Link", "Frustum", "Torus", "Material", "Primitive", "Coupler", "MarkerForce",
    "Gravity", "Units", "TimeFunction", "JointMotion", "MarkerMotion", "Curve", "PointOnCurve",
    "CurveOnCurve", "SurfaceMotion",
]
