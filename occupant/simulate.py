"""``occupant.simulate``: run a compiled Model from an initial state and return Results."""
import numpy as np

from occupant import __version__
from occupant.dynamics.energy import kinetic_energy
from occupant.integrate.driver import solve
from occupant.integrate.fixed_step import EULER, RK4 as RK4_METHOD, run_fixed_step
from occupant.integrate.integrators import RK4, DormandPrince5, SemiImplicitEuler
from occupant.integrate.pipeline import sample_outputs
from occupant.integrate.stability import step_limit
from occupant.integrate.system import MultibodySystem
from occupant.model.model import ModelError
from occupant.results import Results

INTEGRATORS = ("rk4", "dopri5", "euler")


class SimulationError(ValueError):
    """Impossible simulation parameters."""


def simulate(model, t_end, dt=None, q0=None, v0=None, integrator="rk4", gravity=(0.0, 0.0, -9.81),
             base_motion=None, tau=None, events=(), output_dt=None, rtol=1e-8, atol=1e-10,
             energy=True, progress=None):
    """Simulate ``model`` from t = 0 to ``t_end`` (s).

    ``integrator``: "rk4" (fixed step ``dt``, default 1e-4 s), "euler" (semi-implicit with
    implicit joint damping, fixed step ``dt``, default 1e-5 s) or "dopri5" (adaptive,
    ``rtol``/``atol``; ``dt`` is the maximum step). Default fixed steps shrink to 0.8 of the
    stable step the joint resistance allows (``integrate.stability.step_limit``).
    ``base_motion``: an ``occupant.model.BaseMotion`` for B0 (default: at rest). ``tau``: constant
    applied generalized forces (nv,). ``events``: ``integrate.driver.Event`` objects on (t, y).
    States are sampled every ``output_dt`` (default: every step for fixed steps, 1e-4 s for
    dopri5). ``progress``: callable receiving the fraction done. A run that diverges stops there,
    keeps what it computed and says when in ``Results.status``/``message``.
    """
    if integrator not in INTEGRATORS:
        raise SimulationError(f"simulate: unknown integrator '{integrator}' (accepted: {', '.join(INTEGRATORS)})")
    if not (np.isfinite(t_end) and t_end > 0):
        raise SimulationError(f"simulate: t_end must be a positive number of seconds, got {t_end!r}")
    if dt is not None and not (np.isfinite(dt) and 0 < dt <= t_end):
        raise SimulationError(f"simulate: dt must be in (0, t_end], got {dt!r}")
    q0 = model.neutral_configuration() if q0 is None else np.array(q0, float)
    v0 = np.zeros(model.nv) if v0 is None else np.array(v0, float)
    if q0.shape != (model.nq,) or v0.shape != (model.nv,):
        raise SimulationError(f"simulate: q0 must have shape ({model.nq},) and v0 ({model.nv},), "
                              f"got {q0.shape} and {v0.shape}")
    limit = step_limit(model, q0, integrator)
    if dt is None and integrator != "dopri5":
        # the default step, made smaller where the joint resistance needs it (integrate.stability)
        dt = min({"rk4": 1e-4, "euler": 1e-5}[integrator], 0.8 * limit.dt)
        dt = t_end / np.ceil(t_end / dt - 1e-9)
    step = dt if dt is not None else 1e-4
    if output_dt is None:
        output_dt = step
    stride = max(1, int(round(output_dt / step))) if integrator != "dopri5" else 1
    system = MultibodySystem(model, gravity, base_motion, tau, 0.0, t_end,
                             base_dt=min(step, 1e-4) / (2 if integrator == "rk4" else 1))
    y0 = system.project(np.concatenate([q0, v0]))

    if integrator != "dopri5" and not events:
        t, y, stats, status, message = _run_compiled(system, integrator, y0, dt, t_end, stride, progress)
        found = []
    else:
        if integrator == "dopri5":
            integ = DormandPrince5(system, 0.0, y0, rtol=rtol, atol=atol,
                                   max_step=dt if dt is not None else np.inf)
            n_out = int(np.floor(t_end / output_dt + 1e-9)) + 1
        else:
            integ = (RK4 if integrator == "rk4" else SemiImplicitEuler)(system, 0.0, y0, dt)
            n_out = int(round(t_end / dt)) // stride + 1
            output_dt = stride * dt
        t_out = np.arange(n_out) * output_dt
        report = (lambda t: progress(t / t_end)) if progress else None
        sol = solve(integ, t_end, t_out, events, report)
        t, y, status, message = sol.t, sol.y, sol.status, sol.message
        found = [{"name": e["name"], "t": e["t"]} for e in sol.events]
        stats = integ.stats()
    if status == "diverged" and dt is not None:
        if dt > limit.dt:
            message += (f". Likely cause: the step {dt:g} s exceeds the stable step {limit.dt:.3g} s of "
                        f"joint resistance '{limit.element}' ({limit.reason}) for {integrator}: use a "
                        f"smaller dt, or integrator='euler', which takes joint damping implicitly")
        else:
            message += (". The step is within the stability estimate of every joint resistance "
                        "element: look for loads out of proportion or a joint far outside its range")
    return _results(model, system, t, y, stats, found, status, message, energy)


def _run_compiled(system, integrator, y0, dt, t_end, stride, progress):
    n_steps = int(round(t_end / dt))
    if abs(n_steps * dt - t_end) > 1e-9 * t_end:
        raise SimulationError(f"simulate: t_end {t_end} s is not a whole number of steps dt = {dt} s")
    method = EULER if integrator == "euler" else RK4_METHOD
    out = np.zeros((n_steps // stride + 1, len(y0)))
    chunks = 20 if progress else 1
    per_chunk = int(np.ceil(n_steps / chunks / stride)) * stride
    done, y, status, message = 0, y0, "finished", ""
    while done < n_steps:
        n = min(per_chunk, n_steps - done)
        buf = np.zeros((n // stride + 1, len(y0)))
        taken = run_fixed_step(method, *system.kernel_args, done * dt, y, dt, n, stride, system.ws, buf)
        kept = taken // stride
        out[done // stride:done // stride + kept + 1] = buf[:kept + 1]
        if taken < n:
            done += taken
            status = "diverged"
            message = (f"the state stopped being finite in the step after t = {done * dt:.6g} s; "
                       f"results kept up to t = {(done // stride) * stride * dt:.6g} s")
            out = out[:done // stride + 1]
            break
        done += n
        y = buf[kept]
        if progress:
            progress(done / n_steps)
    evals = done * (1 if method == EULER else 4)
    t = np.arange(len(out)) * stride * dt
    stats = {"integrator": integrator, "steps": done, "rejected_steps": 0, "function_evaluations": evals}
    return t, out, stats, status, message


def _results(model, system, t, y, stats, events, status, message, with_energy):
    nq, n = model.nq, len(t)
    q, v = y[:, :nq], y[:, nq:]
    poses = np.zeros((n, model.nb, 4, 4))
    vdot = np.zeros_like(v)
    base_states = np.zeros((n, 12))
    sample_outputs(*system.kernel_args, np.ascontiguousarray(t), np.ascontiguousarray(y),
                   model.body_link, system.ws, np.zeros((model.nl, 3, 3)), np.zeros((model.nl, 3)),
                   poses, vdot, base_states)
    base_poses = np.tile(np.eye(4), (n, 1, 1))
    if system.base_motion is not None:
        for k in range(n):
            base_poses[k, :3, :3], base_poses[k, :3, 3] = system.base_pose(t[k])
        poses = np.einsum("nij,nbjk->nbik", base_poses, poses)
    com = np.einsum("nbij,bj->nbi", poses[:, :, :3, :3], model.body_com) + poses[:, :, :3, 3]
    energy = {}
    if with_energy:
        data = model.make_data()
        kinetic = np.zeros(n)
        for k in range(n):
            base = system.base_motion.spatial_state(t[k], (0, 0, 0)) if system.base_motion else None
            kinetic[k] = kinetic_energy(model, data, q[k], v[k], base=base)
        potential = -(com @ system.gravity) @ model.body_mass
        energy = {"kinetic": kinetic, "potential": potential, "total": kinetic + potential}
    return Results(t=t, q=q, v=v, vdot=vdot, body_com=com, body_poses=poses, base_poses=base_poses,
                   base_states=base_states, energy=energy,
                   body_names=list(model.body_names), dof_names=list(model.dof_names),
                   events=events, stats=stats, status=status, message=message,
                   provenance={"occupant_version": __version__, "model": model.name})
