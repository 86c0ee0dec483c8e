"""``occupant.simulate``: run a compiled Model from an initial state and return Results."""
import numpy as np

from occupant import __version__
from occupant.constants import STANDARD_GRAVITY
from occupant.integrate import implicit_loop, precompile
from occupant.integrate.implicit import CHUNKS, ImplicitIntegrator
from occupant.integrate.divergence import penetration_guard, penetration_message, where
from occupant.integrate.driver import solve
from occupant.integrate.events import compile_event_function, never
from occupant.integrate.fixed_step import DIVERGED, EVENT
from occupant.integrate.integrators import INTEGRATORS, whole_steps
from occupant.integrate.pipeline import make_recording, record_samples
from occupant.integrate.stability import step_limit
from occupant.integrate.system import MultibodySystem
from occupant.model.joint_motion import normalize_quaternions
from occupant.progress import simulation_progress
from occupant.restraints import fit_belts
from occupant.results import Results

OUTPUT_DT = 1e-4  # s: 10 kHz, the sampling CFC 1000 channels need (SAE J211-1, section 5)


class SimulationError(ValueError):
    """Impossible simulation parameters."""


def simulate(model, t_end, dt=None, q0=None, v0=None, z0=None, integrator="rk4",
             gravity=None, base_motion=None, tau=None, events=(), output_dt=None,
             rtol=1e-8, atol=1e-10, energy=True, progress=None):
    """Simulate ``model`` from t = 0 to ``t_end`` (s).

    ``integrator``: a name in ``occupant.integrate.INTEGRATORS``: "rk4" (fixed step ``dt``,
    default 1e-4 s), "euler" (semi-implicit with implicit joint damping, fixed step ``dt``,
    default 1e-5 s) or "dopri5" (adaptive, ``rtol``/``atol``; ``dt`` is the largest step).
    Default fixed steps shrink to 0.8 of the stable step the joint resistance allows
    (``integrate.stability.step_limit``). ``base_motion``: an ``occupant.model.BaseMotion``
    for B0 (default: at rest). ``tau``: constant applied generalized forces (nv,). ``z0``: the
    extra states (default ``initial_states``: belts fitted and contacts on their loading
    history at q0). ``events``: ``integrate.driver.Event`` objects on (t, y),
    y = (q, v, z); an event with a handler changes the state and the run continues. States,
    poses, producer outputs and energy are recorded every ``output_dt`` (default 1e-4 s, or the
    step when that is longer), inside the compiled loop for fixed steps without events.
    ``energy``: add the energy balance to Results.energy. ``progress``: callable receiving the
    fraction done (default: the current ``occupant.progress`` reporter's, when a command set
    one). A run that diverges (a state no longer finite, a step size collapse, a contact
    penetrating through the whole of its shape: ``integrate.divergence``) stops there,
    keeps what it computed and says when, where and why in ``Results.status``/``message``.
    """
    method = INTEGRATORS.get(integrator)
    if method is None:
        raise SimulationError(f"simulate: unknown integrator '{integrator}' "
                              f"(accepted: {', '.join(INTEGRATORS)})")
    if model.constraint_names and not getattr(method, "constrained", False):
        raise SimulationError(f"simulate: model '{model.name}' has closed loops (cut joints "
                              f"{', '.join(dict.fromkeys(model.constraint_names))}); integrator "
                              f"'{integrator}' ignores constraints: use one of "
                              f"{', '.join(k for k, m in INTEGRATORS.items() if getattr(m, 'constrained', False))}")
    if gravity is None:
        gravity = model_gravity(model)
    if not (np.isfinite(t_end) and t_end > 0):
        raise SimulationError(f"simulate: t_end must be a positive number of seconds, got {t_end!r}")
    if dt is not None and not (np.isfinite(dt) and 0 < dt <= t_end):
        raise SimulationError(f"simulate: dt must be in (0, t_end], got {dt!r}")
    q0 = model.neutral_configuration() if q0 is None else np.array(q0, float)
    v0 = np.zeros(model.nv) if v0 is None else np.array(v0, float)
    z0 = None if z0 is None else np.array(z0, float)
    if q0.shape != (model.nq,) or v0.shape != (model.nv,) or (z0 is not None and z0.shape != (model.nz,)):
        raise SimulationError(f"simulate: q0, v0 and z0 must have shapes ({model.nq},), "
                              f"({model.nv},) and ({model.nz},), got {q0.shape}, {v0.shape} and "
                              f"{None if z0 is None else z0.shape}")
    if progress is None:
        progress = simulation_progress(t_end)
    precompile.ahead(model, method.loop if method.default_dt is not None else None,
                     (implicit_loop.implicit,) if issubclass(method, ImplicitIntegrator) else ())
    if z0 is None:
        z0 = initial_states(model, q0)
    if output_dt is not None and not (np.isfinite(output_dt) and output_dt > 0):
        raise SimulationError(f"simulate: output_dt must be a positive number of seconds, got {output_dt!r}")
    limit = step_limit(model, q0, method.stability)
    fixed = method.default_dt is not None
    if dt is None and fixed:
        dt = default_step(method, limit)
        dt = t_end / np.ceil(t_end / dt - 1e-9)
    step = dt if dt is not None else OUTPUT_DT
    output_dt = max(OUTPUT_DT, step) if output_dt is None else output_dt
    stride = max(1, int(round(output_dt / step))) if fixed else 1
    system = MultibodySystem(model, gravity, base_motion, tau, 0.0, t_end,
                             base_dt=min(step, 1e-4) / (2 if method.evaluations_per_step > 1 and fixed else 1))
    y0 = system.initial_state(q0, v0, z0)

    violation = None
    guard = penetration_guard(model)
    guards = _compiled_guards(events) if fixed and method.loop is not None else None
    if guards is not None:
        rec, found, stats, status, message = _run_compiled(system, method, y0, dt, t_end, stride,
                                                           events, guards, progress, guard)
        t = np.arange(len(rec.kinetic)) * stride * dt
    else:
        kwargs = dict(rtol=rtol, atol=atol) if not fixed else {}
        integ = method(system, 0.0, y0, dt, **kwargs)
        if fixed:
            output_dt = stride * dt
        n_out = int(np.floor(t_end / output_dt + 1e-9)) + 1
        t_out = np.arange(n_out) * output_dt
        implicit = isinstance(integ, ImplicitIntegrator)
        if implicit and not events:     # the whole run in the compiled loop
            rec, viol, k, status, message = integ.run(t_end, t_out, progress)
            t, found = t_out[:k], []
            rec = _truncate(rec, k)
        else:
            report = (lambda t: progress(t / t_end)) if progress else None
            sol = solve(integ, t_end, t_out, events, report)
            t, status, message = sol.t, sol.status, sol.message
            rec = make_recording(model, len(t))
            if implicit:
                viol = integ.record(t, sol.y, rec)
            else:
                record_samples(system.bundle, system.data, np.ascontiguousarray(t),
                               np.ascontiguousarray(sol.y), rec)
            found = [{"name": e["name"], "t": e["t"]} for e in sol.events]
        hit = guard.first_violation(rec.outputs, 0, len(t))
        if hit is not None:   # the run went on past it: keep it up to the sample that crossed
            status, message = "diverged", penetration_message(t[hit[0]], *hit[1:])
            rec, t = _truncate(rec, hit[0] + 1), t[:hit[0] + 1]
        violation = (viol[:len(t), 0], viol[:len(t), 1]) if implicit and model.constraint_names else None
        stats = integ.stats()
    if status == "diverged" and len(t):
        message += f". At t = {t[-1]:.6g} s, the last sample kept: {where(model, rec.vdot, rec.outputs, len(t) - 1)}"
    if status == "diverged" and dt is not None and "penetrated" not in message:
        if dt > limit.dt:
            # (euler itself was told to use euler: "for euler: use a smaller dt, or integrator='euler'")
            other = "" if integrator == "euler" else ", or integrator='euler', which takes joint damping implicitly"
            message += (f". Likely cause: the step {dt:g} s exceeds the stable step {limit.dt:.3g} s of "
                        f"joint resistance '{limit.element}' ({limit.reason}) for {integrator}: use a "
                        f"smaller dt{other}")
        else:
            message += (". The step is within the stability estimate of every joint resistance "
                        "element: look for loads out of proportion or a joint far outside its range")
    results = _results(model, system, t, rec, stats, found, status, message, energy)
    if model.constraint_names and violation is not None:
        results.constraint_violation, results.constraint_velocity_violation = violation
    return results


def initial_states(model, q0, settled=None):
    """The extra states z at q0 at rest, the one default of ``simulate`` and the settling:
    zeros, with every hysteresis state started on its loading history at q0: the belts fitted
    at their pretension strain, their largest strain that (``restraints.fit_belts``), each
    compliant pair touching at q0 at its penetration (``contact.compliant.start_histories``)
    and each hysteretic joint resistance at its deflection
    (``forces.joint_resistance.start_histories``), and each posture controller of the muscles
    holding the pitch it reads at q0 (``forces.muscles.start_controls``). ``settled``: the z a
    settling ended with, whose muscle states (activations, posture controllers) go on from
    where it left them instead (``forces.muscles.carry_states``: a run, or a settling's
    buckled part, after a settling). All read at q0 with its quaternions made
    unit, as the run starts (``MultibodySystem.initial_state``): a pair's largest penetration is
    then its first sample's to the bit (1 ulp of a settled quaternion moved a heel's by 1.5e-16)."""
    from occupant.contact.compliant import start_histories as pairs_start
    from occupant.forces.joint_resistance import start_histories as joints_start
    from occupant.forces.muscles import carry_states, start_controls
    q0 = np.array(q0, dtype=float)
    normalize_quaternions(model.tree, q0)
    z = joints_start(model, q0, pairs_start(model, q0, fit_belts(model, q0)))
    if settled is not None:     # its controllers' references carried with their other states
        return carry_states(model, z, settled)
    return start_controls(model, q0, z)


def model_gravity(model):
    """The model's gravity field, else standard gravity along -z of B0 (m/s^2)."""
    return model.gravity if model.gravity is not None else STANDARD_GRAVITY


def default_step(method, limit):
    """The default step of a fixed-step ``method``, made smaller where the joint resistance
    needs it (``limit``: integrate.stability.step_limit)."""
    return min(method.default_dt, 0.8 * limit.dt)


def _compiled_guards(events):
    """The events' compiled functions for the compiled loops (a never-firing one when there are
    none), or None when one of them cannot be compiled."""
    guards = tuple(compile_event_function(ev.function) for ev in events)
    if any(g is None for g in guards):
        return None
    return guards or (never,)


def _truncate(rec, n):
    """The recording's first n samples."""
    return type(rec)(*[a[:n] for a in rec[:-1]], rec.body_link)


def _run_compiled(system, method, y0, dt, t_end, stride, events, guards, progress, guard):
    """The run in the method's compiled loop, in ``CHUNKS`` chunks. At a step over which an event fired,
    that step is taken again by the Python driver, which locates the event, applies its handler
    and ends the step on the grid; the compiled loop then goes on. After each chunk the samples
    it recorded are checked against the penetration ``guard``."""
    model = system.model
    n_steps = whole_steps(t_end, dt)
    if n_steps is None:
        raise SimulationError(f"simulate: t_end {t_end} s is not a whole number of steps dt = {dt} s")
    rec = make_recording(model, n_steps // stride + 1)
    direction = np.array([float(ev.direction) for ev in events] or [0.0])
    y_last = np.zeros((2, len(y0)))
    g_old = np.array([ev.function(0.0, y0) for ev in events] or [1.0], float)
    # the same chunks with and without progress (a report after each; the guard checks each)
    chunk = int(np.ceil(n_steps / CHUNKS / stride)) * stride
    done, y, status, message, found = 0, y0, "finished", "", []
    checked = 0   # samples checked against the guard
    last = n_steps  # the last step whose starting state is recorded (when on a stride)
    while done < n_steps:
        n = min(chunk - done % chunk, n_steps - done)
        taken, code = method.loop(system.bundle, system.data, done, y, dt, n, stride, rec,
                                  done + n == n_steps, guards, direction, g_old, y_last)
        done += taken
        if code == DIVERGED:
            status = "diverged"
            message = (f"the state stopped being finite in the step after t = {done * dt:.6g} s; "
                       f"results kept up to t = {(done // stride) * stride * dt:.6g} s")
            last = done
            break
        y = y_last[1].copy()
        if code == EVENT:  # the last step again, through the driver: locate, handle, restart
            integ = method(system, (done - 1) * dt, y_last[0], dt)
            sol = solve(integ, done * dt, [done * dt], events)
            found += [{"name": e["name"], "t": e["t"]} for e in sol.events]
            if sol.status != "finished":  # a terminal event, or divergence, within the step
                status, message, last = sol.status, sol.message, done - 1
                break
            y = integ.y
            g_old[:] = [ev.function(done * dt, y) for ev in events]
            if done == n_steps and n_steps % stride == 0:  # the final state: no loop left to record it
                _record_one(system, rec, n_steps // stride, t_end, y)
        recorded = done // stride + (done == n_steps and n_steps % stride == 0)
        hit = guard.first_violation(rec.outputs, checked, recorded)
        checked = recorded
        if hit is not None:
            status, last = "diverged", hit[0] * stride
            message = penetration_message(hit[0] * stride * dt, *hit[1:])
            break
        if progress:
            progress(done / n_steps)
    if status != "finished":  # keep the samples recorded
        rec = _truncate(rec, last // stride + 1)
    stats = {"integrator": method.name, "steps": done, "rejected_steps": 0,
             "function_evaluations": done * method.evaluations_per_step}
    return rec, found, stats, status, message


def _record_one(system, rec, k, t, y):
    """Record the state y at t as sample k of rec."""
    one = make_recording(system.model, 1)
    record_samples(system.bundle, system.data, np.array([t]), y[None, :], one)
    for field, part in zip(rec[:-1], one[:-1]):
        field[k] = part[0]


def _results(model, system, t, rec, stats, events, status, message, with_energy):
    nq, nv, n = model.nq, model.nv, len(t)
    poses = rec.poses
    if system.base_motion is not None:
        base_poses = system.base_motion.poses(t)
        poses = base_poses[:, None] @ poses
    else:
        base_poses = np.tile(np.eye(4), (n, 1, 1))
    com = (poses[:, :, :3, :3] @ model.body_com[:, :, None])[..., 0] + poses[:, :, :3, 3]
    z = rec.y[:, nq + nv:]
    work = {name: z[:, model.work_start + k] for k, name in enumerate(model.power_names)}
    energy = {}
    if with_energy:
        potential = -(com @ system.gravity) @ model.body_mass
        total = rec.kinetic + potential
        energy = {"kinetic": rec.kinetic.copy(), "potential": potential, "total": total,
                  "work": sum(work.values()) if work else np.zeros(n)}
        energy["balance"] = total - total[0] - energy["work"]
    return Results(t=t, q=rec.y[:, :nq].copy(), v=rec.y[:, nq:nq + nv].copy(), z=z.copy(),
                   vdot=rec.vdot, f_ext=rec.f_ext, body_com=com, body_poses=poses, base_poses=base_poses,
                   base_states=rec.base, energy=energy, work=work,
                   outputs={name: rec.outputs[:, k] for k, name in enumerate(model.output_names)},
                   output_units=dict(zip(model.output_names, model.output_units)),
                   body_names=list(model.body_names), dof_names=list(model.dof_names),
                   events=events, stats=stats, status=status, message=message,
                   provenance={"occupant_version": __version__, "model": model.name})
