"""Settling the occupant into its seat before the run (``[occupant] settle``, seconds).

A posture places the occupant by its joint angles and H-point, not where the seat's cushions,
the belt and gravity hold it: started there, the seated Hybrid III driver sinks 22 mm into the
cushion within 0.2 s (its head, levelled by the neck bracket, occupant.human.neck_bracket, now
stays within 3 deg and 2 mm; with the neck springs loaded by the 20 deg of flexion that levels
the head it fell back 64 mm), which under a pre-crash braking pulse reads as motion. MADYMO and ATB users settle the dummy by a pre-simulation
under gravity before the crash run [U: common practice]; ``settle`` does that:

- the model with its restraints held (``held``: airbags and pretensioners never fire, the
  interior's intruding surfaces stay where they start),
  under gravity alone (B0 at rest, no pulse), from the posture at rest;
- dynamic relaxation with kinetic damping [U: Cundall's kinetic damping for dynamic
  relaxation, as commonly described (e.g. Underwood 1983); not read here]: the motion is followed
  in chunks; whenever the kinetic energy has passed a peak, the state at the peak is kept and
  the motion restarts there from rest. Each restart removes the energy of the dominant mode at
  its equilibrium crossing, so the occupant comes to rest far sooner than by its own damping;
- the belts left off (``unbelted``) while the occupant sinks into the seat, then buckled on it
  for the last BUCKLED s (fitted there at their pre-load, as the run fits them), as test
  procedures fasten the belt on the seated, positioned dummy and take up its slack [U: FMVSS
  208 S10 / NCAP positioning, commonly described; not read here]: the motion under their pull
  (10 N) dies out by the end, and the settled occupant rests where 0.3 s with the belts on put
  it to about what 50 ms more or less of settling moves it (scenarios/HISTORY.md,
  settlefast). Left on throughout, the belts cost each of the settling's steps a quarter of
  its evaluation (US NCAP: 48 against 36 us here) and hold it to their step; left off
  throughout, their pull acted only from the run's start (the 5F of Euro NCAP: lumbar 0.3 deg
  off, HIC15 407 -> 382). ``belts=True`` (``occupant.settle_belted``) keeps them on
  the body throughout, unlocked and pre-loaded, as the SAFER GS1 deck settles its human [S:
  scenarios/validation/HISTORY.md, gs1settle];
- only the end state matters, not the path to it: the motion is followed at the largest step
  the joint resistance allows (integrate.stability.step_limit, its 0.8 margin as ``simulate``),
  up to SETTLE_DT, not at the run's accuracy step; a settling that diverges at that step is
  done again at the run's step. Settled with its belts a model settles at most at the belts'
  explicit step (``restraints.belt.EXPLICIT_STEP``, 2e-5 s, twice the run's step): their
  webbing's flow relaxes explicitly, and at 5e-5 s it flipped from step to step (GS1's shoulder
  and lap belts). Without them the occupant settles at SETTLE_DT;
- it does not come to rest: under the contacts' regularised friction (slower than their
  friction_speed, 0.01 m/s, sliding meets less than the full Coulomb force) a foot, an arm or
  the pelvis creeps on while any tangential load is left on it, so ``duration`` is always
  followed to its end (no rest criterion ends it sooner: US NCAP's driver still moved 1.6 mm
  and 8 deg, its left hip, between 0.3 and 2 s; scenarios/HISTORY.md, settlefast);
- the run then starts from the settled configuration at rest, with the belts fitted there and
  every hysteresis state on its loading history there (the belts' largest strains, the pairs
  pressed in, the joints deflected: ``simulate``'s default z0, ``simulate.initial_states``; the
  settling starts from its own likewise), and its muscles' states (activations, posture
  controllers) as the settling ended them (``forces.muscles.carry_states``): a posture
  controller goes on holding the posture with the effort it built.
"""
import copy

import numpy as np

from occupant.model.bundle import ELEMENT_FIELD, frozen

CHUNK = 2e-3        # s of motion between kinetic-energy checks: at most this much is followed
                    # past a peak [E: the seated occupant's energy peaks come 20-80 ms apart]
SAMPLE = 1e-4       # s between the recorded states a restart can start from
SETTLE_DT = 5e-5    # s, the longest settling step [E: the joint resistance limits the seated
                    # Hybrid III 50M to 6.7e-5 s (lumbar z, 2.26e4 rad/s); contacts, outside that
                    # limit, were stable up to 6e-5 s; settled at 5e-5 s the US NCAP driver rested
                    # within 0.05 mm and 0.2 deg of where 1e-5 s steps put it, the unbelted sled's
                    # passenger 0.16 mm; a model with belts settles at their EXPLICIT_STEP]


BUCKLED = 0.1       # s: the belts are on the body for the settling's last BUCKLED s, buckled on
                    # the seated occupant [E: the body's motion under their 10 N pre-load dies
                    # out within it: the belted shipped scenarios then rest within 0.21 mm and
                    # 0.21 deg of where 0.3 s with the belts on put them (the 5F 0.07 mm, 0.10
                    # deg; 0.18 deg after 0.05 s, and her HIC15 407 -> 395 where it is 400 now);
                    # scenarios/HISTORY.md, settlefast]


class SettleError(ValueError):
    """The settling pre-simulation did not finish (it diverged after ``after`` s of settling);
    ``settle_scenario`` makes it its scenario's error."""

    def __init__(self, message, after=None):
        super().__init__(message)
        self.after = after


def _diverged(after):
    """The SettleError of a settling that diverged ``after`` s."""
    return SettleError(f"settling under gravity diverged after {after:.3f} s (a posture deep "
                       f"inside the seat or interior?)", after=after)


def settle_scenario(file, model, q0, duration, belts=False):
    """``settle`` for the scenario of ``file`` (its ``occupant.settle``, ``belts`` its
    ``occupant.settle_belted``): a divergence is that file's ScenarioError at that key, with
    what to try (the command line says it in one line)."""
    from occupant.scenario.load import ScenarioError
    try:
        return settle(model, q0, duration, belts)
    except SettleError as err:
        shorter = f"settle < {err.after:.3f} s, or " if err.after else ""
        raise ScenarioError(file, "occupant.settle", str(err),
                            f"{shorter}0 to run from the posture as placed") from None


def held(model):
    """A shallow copy of ``model`` whose airbags and pretensioners never fire (firing times inf),
    whose muscles' reflexes never start and whose posture controllers never let go (reflex
    times and control ends inf: the reflex answers the pulse, and the settling has none) and
    whose surface motions (intrusions) stay at rest. The arrays stay read-only
    (``bundle.frozen``), as the compiled step was compiled for."""
    out = copy.copy(model)
    muscles = model.muscles
    if muscles is not None and len(muscles.reflex_time):
        never = frozen(np.full(len(muscles.reflex_time), np.inf))
        out.muscles = muscles._replace(reflex_time=never, control_end=never)
    contacts = model.contacts
    if len(contacts.mover_axis):
        out.contacts = contacts._replace(mover_b=frozen(np.full(len(contacts.mover_b), -1),
                                                        integer=True))
    bags = model.airbags
    out.airbags = bags._replace(firing_time=frozen(np.full(len(bags.firing_time), np.inf)))
    belts = model.belts
    if belts is not None:
        out.belts = belts._replace(fire_time=frozen(np.full(len(belts.fire_time), np.inf)))
    return out


def unbelted(model):
    """A shallow copy of ``model`` with its belts left off: its belt block holding no belt, which
    the step gets as a model without belts does (``bundle.step_bundle``: a family without
    elements is None); their states stay in z, untouched. ``model`` itself when it has none."""
    belts = model.belts
    field = ELEMENT_FIELD["belts"]
    if belts is None or not len(getattr(belts, field)):
        return model
    out = copy.copy(model)
    out.belts = belts._replace(**{field: frozen(np.zeros(0, dtype=int), integer=True)})
    return out


def settle(model, q0, duration, belts=False):
    """The configuration (nq,) in which ``model`` comes to rest from ``q0`` under gravity alone,
    after ``duration`` seconds of kinetic-damped motion (module docstring), and a dict of what
    it did: ``restarts``, ``peaks`` (s of settling, from its start: the kinetic-energy peaks
    it restarted from), ``kinetic`` (J, the largest kinetic energy of the last chunk), ``dt``
    (s, the step of its last part) and ``z`` (its extra states at the end, whose muscle states
    the run goes on from: ``simulate.initial_states``). ``belts``: its belts on the body
    throughout; by default they are off (``unbelted``) but for the last BUCKLED s, buckled
    on the seated occupant, its muscles going on as the unbelted part left them.
    Semi-implicit Euler through its compiled loop in chunks, at the largest stable step up to
    SETTLE_DT (with belts up to their EXPLICIT_STEP), else (diverged there) at the run's step."""
    model = held(model)
    if belts or unbelted(model) is model:
        return _settle_part(model, q0, duration, True)
    seated = max(duration - BUCKLED, 0.0)
    q, restarts, peaks, z = q0, 0, np.zeros(0), None
    if seated > 0.0:
        q, info = _settle_part(unbelted(model), q0, seated, False)
        restarts, peaks, z = info["restarts"], info["peaks"], info["z"]
    try:       # the muscles go on as the unbelted part left them (posture controllers holding
        #        the posture the settling started from, with the effort built to hold it)
        q, info = _settle_part(model, q, duration - seated, True, settled=z)
    except SettleError as err:   # its time counted from the settling's start
        raise _diverged(seated + err.after) from None
    return q, {**info, "restarts": restarts + info["restarts"],
               "peaks": np.concatenate([peaks, seated + info["peaks"]])}


def _settle_part(model, q0, duration, belts, settled=None):
    """``settle`` of the held ``model`` with (``belts``) or without its belts on the body: at
    the coarse step, else (diverged there) at the run's step; ``settled`` as ``_relax``'s."""
    from occupant.integrate import precompile
    from occupant.integrate.fixed_step import relax_euler
    from occupant.integrate.integrators import INTEGRATORS
    from occupant.integrate.stability import step_limit
    from occupant.restraints.belt import EXPLICIT_STEP
    from occupant.simulate import default_step

    method = INTEGRATORS["euler"]
    # a first run compiles the step here, before simulate: split over two processes as there
    precompile.ahead(model, relax_euler)
    limit = step_limit(model, q0, method.stability)
    run_dt = default_step(method, limit)
    coarse = min(SETTLE_DT, 0.8 * limit.dt)
    if belts and model.belts is not None and len(model.belts.fire_time):
        coarse = min(coarse, EXPLICIT_STEP)
    if coarse > run_dt:
        try:
            return _relax(model, q0, duration, coarse, settled)
        except SettleError:
            pass
    return _relax(model, q0, duration, run_dt, settled)


def _relax(model, q0, duration, dt, settled=None):
    """Kinetic-damped motion of the held ``model`` from ``q0`` at rest for ``duration`` s at
    step ``dt`` (module docstring), semi-implicit Euler in one compiled call
    (``fixed_step.relax_euler``): (configuration, what it did), SettleError on divergence.
    ``settled``: the z an earlier part ended with, whose muscle states it goes on from
    (``simulate.initial_states``; default: started at q0)."""
    from occupant.integrate.fixed_step import DIVERGED, relax_euler
    from occupant.integrate.pipeline import make_recording
    from occupant.integrate.system import MultibodySystem
    from occupant.simulate import initial_states, model_gravity

    stride = max(1, int(round(SAMPLE / dt)))
    chunk = stride * max(1, int(round(CHUNK / (stride * dt))))
    n_steps = chunk * int(np.ceil(duration / (chunk * dt) - 1e-9))
    system = MultibodySystem(model, model_gravity(model), None, None, 0.0, n_steps * dt,
                             base_dt=min(dt, 1e-4))
    y = np.array(system.initial_state(q0, np.zeros(model.nv),
                                      initial_states(model, q0, settled)),
                 dtype=np.float64)
    peaks = np.zeros(n_steps // chunk, dtype=np.int64)
    restarts, kinetic, done, code = relax_euler(
        system.bundle, system.data, y, dt, n_steps, chunk, stride, make_recording(model, 1),
        np.zeros((n_steps // stride, len(y))), np.zeros(n_steps // stride), peaks)
    if code == DIVERGED:
        raise _diverged(done * dt)
    return y[:model.nq].copy(), {"restarts": restarts, "kinetic": kinetic, "dt": dt,
                                 "peaks": peaks[:restarts] * stride * dt,
                                 "z": y[model.nq + model.nv:].copy()}
