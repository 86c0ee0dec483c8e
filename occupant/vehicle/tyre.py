"""Tyres on flat ground with brakes, and couplers of joint coordinates: two compiled force
producers (``bundle.tyres``, ``bundle.couplers``; occupant.integrate.pipeline calls them).

Tyre (one per wheel; ground: the plane z = 0 of B0, normal n = +z). With the spin axis a and the
wheel centre C, the wheel plane's downward direction is d = (-n + (n.a) a)/|...|, the loaded
radius r = C_z / (-d_z), the contact point P = C + r d and the radial deflection delta = R0 - r.

* vertical: Fz = max(0, k delta + c delta'), a point-follower spring-damper (Pacejka, Tyre and
  Vehicle Dynamics, 3rd ed. 2012, section 9.2: the simplest vertical model);
* slip (Pacejka 2012, section 4.3.2, practical slip quantities): with the heading e_x = a x n /
  |a x n|, e_y = n x e_x, the wheel-centre speed V_x = v_C . e_x and the slip velocities
  v_sx, v_sy of the wheel's material point at P, kappa = -v_sx / max(|V_x|, v_min) and
  tan(alpha) = v_sy / max(|V_x|, v_min) (v_min: ``slip_speed``, which keeps the forces finite and
  viscous at standstill);
* force: the magic formula F(s) = D sin(C arctan(B s - E (B s - arctan(B s)))), D = mu Fz
  (Pacejka 2012, eq. 4.49), taken at the combined slip sigma = sqrt(kappa^2 + tan^2 alpha) and
  shared along the slip vector (the similarity approach of section 4.3.2, simplified):
  Fx = MF_x(sigma) kappa / sigma, Fy = -MF_y(arctan sigma) tan(alpha) / sigma.
* brake: a torque -T_b pedal(t) tanh(omega / omega_0) on the wheel's spin coordinate omega
  (relative to its upright), Coulomb friction smoothed over omega_0.

Couplers: e = r_a q_a + r_b q_b - target(t), generalized forces -(k e + c e') r_a on q_a and r_b on
q_b (a compliant gear or rack-and-pinion mesh, ADAMS's coupler made elastic; with no b, a servo).
Both report their outputs and the power of their forces on the tree (POWER_TYRES,
POWER_COUPLERS), so the energy balance closes.
"""
import numpy as np
from numba import njit

from occupant.forces.points import add_point_force, point_state
from occupant.jit import JIT_INLINE, JIT_STAGE
from occupant.model.bundle import POWER_COUPLERS, POWER_TYRES
from occupant.restraints.airbag import table_value


@njit(**JIT_INLINE)
def magic_formula(B, C, D, E, s):
    """Pacejka's magic formula (Pacejka 2012, eq. 4.49) without shifts."""
    Bs = B * s
    return D * np.sin(C * np.arctan(Bs - E * (Bs - np.arctan(Bs))))


@njit(**JIT_STAGE)
def tyres(bundle, data, t, q, v, z):
    el = bundle.tyres
    pedal = table_value(el.pedal, 0, el.pedal.shape[0], t, -1.0)
    power = 0.0
    for e in range(el.link.shape[0]):
        lk = el.link[e]
        R = data.R_base_link[lk]
        cx, cy, cz, vx, vy, vz = point_state(data, lk, el.centre[e, 0], el.centre[e, 1],
                                             el.centre[e, 2])
        ax = R[0, 0] * el.axis[e, 0] + R[0, 1] * el.axis[e, 1] + R[0, 2] * el.axis[e, 2]
        ay = R[1, 0] * el.axis[e, 0] + R[1, 1] * el.axis[e, 1] + R[1, 2] * el.axis[e, 2]
        az = R[2, 0] * el.axis[e, 0] + R[2, 1] * el.axis[e, 1] + R[2, 2] * el.axis[e, 2]
        # the wheel plane's downward direction d and the loaded radius along it
        dx, dy, dz = az * ax, az * ay, az * az - 1.0
        dn = np.sqrt(dx * dx + dy * dy + dz * dz)
        k = el.out_start + 7 * e
        brake = 0.0
        if el.spin_dof[e] >= 0:
            omega = v[el.spin_dof[e]]
            brake = -el.brake_torque[e] * pedal * np.tanh(omega / el.brake_speed[e])
            data.tau[el.spin_dof[e]] += brake
            power += brake * omega
        data.outputs[k + 6] = brake
        fz = fx = fy = kappa = alpha = deflection = 0.0
        if dn > 1e-9 and dz < 0.0:
            dx, dy, dz = dx / dn, dy / dn, dz / dn
            r = cz / (-dz)
            deflection = el.radius[e] - r
            if deflection > 0.0:
                rate = vz / dz          # d(deflection)/dt with the axis held
                fz = el.stiffness[e] * deflection + el.damping[e] * rate
                if fz < 0.0:
                    fz = 0.0
                px, py, pz = cx + r * dx, cy + r * dy, cz + r * dz
                # absolute angular velocity of the wheel in B0
                w0, w1, w2 = data.v[lk, 0], data.v[lk, 1], data.v[lk, 2]
                wx = R[0, 0] * w0 + R[0, 1] * w1 + R[0, 2] * w2
                wy = R[1, 0] * w0 + R[1, 1] * w1 + R[1, 2] * w2
                wz = R[2, 0] * w0 + R[2, 1] * w1 + R[2, 2] * w2
                rx, ry, rz = px - cx, py - cy, pz - cz
                sx = vx + wy * rz - wz * ry      # velocity of the wheel's point at P
                sy = vy + wz * rx - wx * rz
                # heading e_x = a x n, lateral e_y = n x e_x (n = +z)
                hx, hy = ay, -ax
                hn = np.sqrt(hx * hx + hy * hy)
                hx, hy = hx / hn, hy / hn
                speed = vx * hx + vy * hy
                vsx = sx * hx + sy * hy
                vsy = -sx * hy + sy * hx
                denom = max(abs(speed), el.slip_speed[e])
                kappa = -vsx / denom
                tan_alpha = vsy / denom
                alpha = np.arctan(tan_alpha)
                sigma = np.sqrt(kappa * kappa + tan_alpha * tan_alpha)
                if sigma > 1e-12:
                    ml, mt = el.mf_long[e], el.mf_lat[e]
                    fx = magic_formula(ml[0], ml[1], ml[2] * fz, ml[3], sigma) * kappa / sigma
                    fy = -magic_formula(mt[0], mt[1], mt[2] * fz, mt[3], np.arctan(sigma)) \
                        * tan_alpha / sigma
                gx = fx * hx - fy * hy
                gy = fx * hy + fy * hx
                # the force at P, on the wheel link (P in link coordinates)
                ox, oy, oz = px - data.p_base_link[lk, 0], py - data.p_base_link[lk, 1], \
                    pz - data.p_base_link[lk, 2]
                lx = R[0, 0] * ox + R[1, 0] * oy + R[2, 0] * oz
                ly = R[0, 1] * ox + R[1, 1] * oy + R[2, 1] * oz
                lz = R[0, 2] * ox + R[1, 2] * oy + R[2, 2] * oz
                add_point_force(data, lk, lx, ly, lz, gx, gy, fz)
                power += gx * sx + gy * sy + fz * (vz + wx * ry - wy * rx)
        data.outputs[k] = fz
        data.outputs[k + 1] = fx
        data.outputs[k + 2] = fy
        data.outputs[k + 3] = kappa
        data.outputs[k + 4] = alpha
        data.outputs[k + 5] = deflection
    data.power[POWER_TYRES] = power


@njit(**JIT_STAGE)
def couplers(bundle, data, t, q, v, z):
    el = bundle.couplers
    power = 0.0
    for e in range(el.dof_a.shape[0]):
        a, b = el.dof_a[e], el.dof_b[e]
        err = el.ratio_a[e] * q[el.q_a[e]]
        rate = el.ratio_a[e] * v[a]
        if b >= 0:
            err += el.ratio_b[e] * q[el.q_b[e]]
            rate += el.ratio_b[e] * v[b]
        s = el.target_start[e]
        if s >= 0:
            n = el.target_len[e]
            err -= table_value(el.targets, s, n, t, -1.0)
            h = 1e-6   # target rate by a central difference of the linear table
            rate -= (table_value(el.targets, s, n, t + h, -1.0)
                     - table_value(el.targets, s, n, t - h, -1.0)) / (2 * h)
        f = -(el.stiffness[e] * err + el.damping[e] * rate)
        data.tau[a] += el.ratio_a[e] * f
        power += el.ratio_a[e] * f * v[a]
        if b >= 0:
            data.tau[b] += el.ratio_b[e] * f
            power += el.ratio_b[e] * f * v[b]
        data.outputs[el.out_start + 2 * e] = err
        data.outputs[el.out_start + 2 * e + 1] = f
    data.power[POWER_COUPLERS] = power
