"""Translational spring-dampers between two points (seed 000, the flexible force element
"translational spring-damper"; ``occupant.modeling.SpringDamper``).

Tension T = k (L - L0) + c L' (or a tabulated T(L - L0) + c L'), L the distance between the two
ends and L' its rate; the force T u on end a and -T u on end b, u the unit vector from a to b.
A force producer: reads ``bundle.spring_dampers``, adds to ``data.f_ext`` through
``points.add_force_pair``, writes (length, length rate, tension) per element to
``data.outputs`` and the power of its forces on the tree to ``data.power``.
"""
from numba import njit

from occupant.jit import JIT_STAGE
from occupant.forces.joint_resistance import table_load
from occupant.forces.points import add_force_pair, line_between
from occupant.model.bundle import POWER_SPRING_DAMPERS


@njit(**JIT_STAGE)
def spring_dampers(bundle, data, t, q, v, z):
    el = bundle.spring_dampers
    power = 0.0
    for e in range(el.link_a.shape[0]):
        la, lb = el.link_a[e], el.link_b[e]
        length, rate, ux, uy, uz, vax, vay, vaz, vbx, vby, vbz = line_between(
            data, la, el.point_a[e], lb, el.point_b[e])
        stretch = length - el.free_length[e]
        if el.table_start[e] >= 0:
            tension = table_load(el.tables, el.table_start[e], el.table_len[e], stretch)
        else:
            tension = el.stiffness[e] * stretch
        tension += el.damping[e] * rate
        fx, fy, fz = tension * ux, tension * uy, tension * uz
        power += add_force_pair(data, la, el.point_a[e, 0], el.point_a[e, 1], el.point_a[e, 2],
                                vax, vay, vaz, lb, el.point_b[e, 0], el.point_b[e, 1],
                                el.point_b[e, 2], vbx, vby, vbz, fx, fy, fz)
        k = el.out_start + 3 * e
        data.outputs[k] = length
        data.outputs[k + 1] = rate
        data.outputs[k + 2] = tension
    data.power[POWER_SPRING_DAMPERS] = power
