"""Fixed-step integrators, compiled: semi-implicit (symplectic) Euler as MuJoCo's default
integrator (v+ = v + h a; q+ = q (+) h v+, with (M + h C) a = f(q, v): joint damping C taken
implicitly, as MuJoCo does; for free joints the linear velocity is stepped in world axes, as
MuJoCo's qvel holds it; z+ = z + h z'), and the classical fourth-order Runge-Kutta method on
y = (q, v, z) with quaternion projection after each step (Hairer, Lubich, Wanner, Geometric
Numerical Integration, 2006, section IV.4). Each has a compiled loop that takes many steps,
records output samples from the evaluations it makes (``pipeline.record_evaluated``) and watches
the events without returning to Python.
"""
import numpy as np
from numba import njit, typeof, types

from occupant.jit import (JIT, JIT_INLINE, JIT_LOOP, call_compiled, compiled_entry, nonliteral,
                          separate)
from occupant.model.joint_motion import FREE, integrate_configuration, normalize_quaternions
from occupant.spatial.rotation import quat_rotate

from occupant.integrate.pipeline import (accelerations, derivative, kinetic_energy, loads,
                                         record_evaluated)


@njit(**JIT)
def euler_step(bundle, data, t, y, h, y_out, rec, k):
    """One step from (t, y) into y_out, for the integrators driven from Python."""
    _euler_advance(bundle, data, t, y, h, y_out, rec, k, None)


@njit(**JIT)
def rk4_step(bundle, data, t, y, h, k1, k2, k3, k4, tmp, y_out, rec, k):
    """One step from (t, y) into y_out, for the integrators driven from Python."""
    _rk4_advance(bundle, data, t, y, h, k1, k2, k3, k4, tmp, y_out, rec, k)


@separate
def _euler_advance(bundle, data, t, y, h, y_out, rec, k, load):
    """One step from (t, y) into y_out; when k >= 0 the state y is recorded as sample k of rec on
    the way (explicit accelerations, one extra ABA pass). ``load``: the compiled entry of
    ``pipeline.loads`` (``jit.call_compiled``; None: linked)."""
    tree = bundle.tree
    nq, nv = data.q_unit.shape[0], data.vdot.shape[0]
    v = y[nq:nq + nv]
    data.record_outputs[0] = k >= 0      # outputs only for the sample (Data.record_outputs)
    call_compiled(loads, load, bundle, data, t, y[:nq], v, y[nq + nv:])
    data.record_outputs[0] = 1
    # the explicit accelerations to record (k >= 0), then the step's: one inlined copy of the
    # stage for both (each copy costs compilation)
    for implicit in range(0 if k >= 0 else 1, 2):
        accelerations(bundle, data, v, h * implicit)
        if implicit == 0:
            record_evaluated(bundle.tree.inertia, data, y, rec, k)
    vdot = data.vdot
    for r in range(nv):
        y_out[nq + r] = y[nq + r] + h * vdot[r]
    for r in range(nq + nv, y.shape[0]):
        y_out[r] = y[r] + h * data.zdot[r - nq - nv]
    integrate_configuration(tree, y[:nq], y_out[nq:nq + nv], h, y_out[:nq])
    for i in range(tree.parent.shape[0]):
        if tree.jtype[i] != FREE:
            continue
        # world-axes linear velocity v_w = R v (R v)' = R (a + omega x v): step it as MuJoCo does
        k, j = tree.qidx[i], nq + tree.vidx[i]
        vx, vy, vz, wx, wy, wz = y[j], y[j + 1], y[j + 2], y[j + 3], y[j + 4], y[j + 5]
        jv = j - nq
        ax = vdot[jv] + wy * vz - wz * vy
        ay = vdot[jv + 1] + wz * vx - wx * vz
        az = vdot[jv + 2] + wx * vy - wy * vx
        gx, gy, gz = quat_rotate(y, k + 3, vx + h * ax, vy + h * ay, vz + h * az, nonliteral(False))
        y_out[k], y_out[k + 1], y_out[k + 2] = y[k] + h * gx, y[k + 1] + h * gy, y[k + 2] + h * gz
        y_out[j], y_out[j + 1], y_out[j + 2] = quat_rotate(y_out, k + 3, gx, gy, gz,
                                                           nonliteral(True))


@separate
def _rk4_advance(bundle, data, t, y, h, k1, k2, k3, k4, tmp, y_out, rec, k):
    """One step from (t, y) into y_out; when k >= 0 the state y is recorded as sample k of rec
    from the first stage's evaluation (no extra work)."""
    n = y.shape[0]
    data.record_outputs[0] = k >= 0      # outputs only for the sample (Data.record_outputs)
    derivative(bundle, data, t, y, k1)
    if k >= 0:
        record_evaluated(bundle.tree.inertia, data, y, rec, k)
    data.record_outputs[0] = 0
    for r in range(n):
        tmp[r] = y[r] + 0.5 * h * k1[r]
    derivative(bundle, data, t + 0.5 * h, tmp, k2)
    for r in range(n):
        tmp[r] = y[r] + 0.5 * h * k2[r]
    derivative(bundle, data, t + 0.5 * h, tmp, k3)
    for r in range(n):
        tmp[r] = y[r] + h * k3[r]
    derivative(bundle, data, t + h, tmp, k4)
    for r in range(n):
        y_out[r] = y[r] + h / 6.0 * (k1[r] + 2.0 * k2[r] + 2.0 * k3[r] + k4[r])
    data.record_outputs[0] = 1
    normalize_quaternions(bundle.tree, y_out[:data.q_unit.shape[0]])


# status of a compiled loop's return
FINISHED, DIVERGED, EVENT = 0, 1, 2


@njit(**JIT_INLINE)
def _event_crossed(guards, direction, g_old, t, y):
    """True if some event's g changed sign from g_old to its value at (t, y) in its direction;
    g_old is updated up to the first that did (the driver recomputes them after an event)."""
    hit = False
    for e in range(len(guards)):
        g = guards[e](t, y.ctypes, y.shape[0])
        if (g_old[e] < 0.0 <= g) or (g_old[e] > 0.0 >= g):
            if direction[e] == 0.0 or (direction[e] > 0.0) == (g > g_old[e]):
                hit = True
        if not hit:
            g_old[e] = g
    return hit


@njit(**JIT_INLINE)
def _sample(s, stride):
    """Sample index of the state at the start of global step s (every stride-th), or -1."""
    return s // stride if s % stride == 0 else -1


@njit(**JIT_INLINE)
def _accept(y, y_new, t, guards, direction, g_old, y_last):
    """Take y_new as the state after the step ending at t. Returns the loop status: DIVERGED
    if y_new is not finite, EVENT if an event's g changed sign over the step (then y_last holds
    the states before and after it), else FINISHED."""
    for r in range(y.shape[0]):
        if not np.isfinite(y_new[r]):
            return DIVERGED
    if _event_crossed(guards, direction, g_old, t, y_new):
        for r in range(y.shape[0]):
            y_last[0, r] = y[r]
            y_last[1, r] = y_new[r]
        return EVENT
    for r in range(y.shape[0]):
        y[r] = y_new[r]
    return FINISHED


@njit(**JIT_LOOP)
def _run_euler(advance, load, bundle, data, s0, y, h, n_steps, stride, rec, record_last, guards,
               direction, g_old, y_last, work):
    """Semi-implicit Euler steps s0, s0 + 1, ... (step s from t = s h) from y (advanced in
    place), at most n_steps, recording the state at the start of every stride-th step into rec
    (and the state it ends with, when on a stride, with ``record_last``) and checking the events
    ``guards`` (compiled functions, ``events.GUARD_SIGNATURE``; ``direction`` and their last
    values ``g_old``) after each step; work[0] takes each new state.
    Returns (steps taken, status): fewer steps when the state stopped being finite (DIVERGED) or
    an event's g changed sign in the last step taken (EVENT, its end states in y_last).
    y_last[1] holds the final state."""
    y_new = work[0]
    s_end = s0 + n_steps
    # the final state is recorded by one more step whose result is dropped: the loop's own stage
    # at its one call site, so that no further compiled copy of the pipeline or of the call is
    # needed
    for s in range(s0, s_end + (record_last and s_end % stride == 0)):
        call_compiled(_euler_advance, advance, bundle, data, s * h, y, h, y_new, rec,
                      _sample(s, stride), load)
        if s == s_end:
            break
        status = _accept(y, y_new, (s + 1) * h, guards, direction, g_old, y_last)
        if status != FINISHED:
            return s - s0 + (status == EVENT), status
    for r in range(y.shape[0]):   # a loop: a slice assignment compiles its shape message (2 s)
        y_last[1, r] = y[r]
    return n_steps, FINISHED


@njit(**JIT_LOOP)
def _run_rk4(advance, bundle, data, s0, y, h, n_steps, stride, rec, record_last, guards,
             direction, g_old, y_last, work):
    """As _run_euler, with classical Runge-Kutta steps (work: the new state, the four stage
    derivatives and the stage state)."""
    y_new, k1, k2, k3, k4, tmp = work[0], work[1], work[2], work[3], work[4], work[5]
    s_end = s0 + n_steps
    for s in range(s0, s_end + (record_last and s_end % stride == 0)):   # as in _run_euler
        call_compiled(_rk4_advance, advance, bundle, data, s * h, y, h, k1, k2, k3, k4, tmp,
                      y_new, rec, _sample(s, stride))
        if s == s_end:
            break
        status = _accept(y, y_new, (s + 1) * h, guards, direction, g_old, y_last)
        if status != FINISHED:
            return s - s0 + (status == EVENT), status
    for r in range(y.shape[0]):   # as in _run_euler
        y_last[1, r] = y[r]
    return n_steps, FINISHED


def run_euler(bundle, data, s0, y0, h, n_steps, stride, rec, record_last, guards, direction,
              g_old, y_last):
    """Semi-implicit Euler steps from y0 (``_run_euler``), each through the compiled
    ``_euler_advance`` and ``pipeline.loads`` called by address (``jit.call_compiled``: their
    code is not compiled again into their callers)."""
    advance, load = _euler_entries(bundle, data, rec)
    y = np.array(y0, dtype=np.float64)
    return _run_euler(advance, load, bundle, data, s0, y, h, n_steps, stride, rec, record_last,
                      guards, direction, g_old, y_last, np.empty((1, len(y))))


def run_rk4(bundle, data, s0, y0, h, n_steps, stride, rec, record_last, guards, direction,
            g_old, y_last):
    """Classical Runge-Kutta steps from y0 (``_run_rk4``), as ``run_euler``."""
    y = np.array(y0, dtype=np.float64)
    return _run_rk4(_rk4_entry(bundle, data, rec), bundle, data, s0, y, h,
                    n_steps, stride, rec, record_last, guards, direction, g_old, y_last,
                    np.empty((6, len(y))))


@njit(**JIT_LOOP)
def _relax_euler(advance, load, bundle, data, rec, y, h, n_steps, chunk, stride, states, kinetic,
                 peaks, guards, direction, g_old, y_last, y_new):
    """Kinetic-damped semi-implicit Euler steps from y at rest (``relax_euler``; y advanced in
    place): each step through ``_euler_advance`` (unrecorded: ``rec`` is there for its types),
    the state at the start of every stride-th step and its kinetic energy (J) kept in ``states``
    and ``kinetic`` (one row per sample), and after every ``chunk`` steps the peak check and
    restart; ``peaks`` takes the samples restarted from. ``guards`` (``(events.never,)``),
    ``direction``, ``g_old``, ``y_last`` are ``_accept``'s. Returns (restarts, the largest
    kinetic energy since the last restart as of the last chunk, steps done before the chunk
    that diverged (else n_steps), FINISHED or DIVERGED)."""
    nq, nv = data.q_unit.shape[0], data.vdot.shape[0]
    inertia = bundle.tree.inertia
    done, first, restarts, energy = 0, 0, 0, 0.0   # first: the sample of the last restart
    while done < n_steps:
        for s in range(done, done + chunk):
            call_compiled(_euler_advance, advance, bundle, data, s * h, y, h, y_new, rec,
                          nonliteral(-1), load)
            if s % stride == 0:     # the state the step started from, evaluated at its start
                k = s // stride
                for r in range(y.shape[0]):
                    states[k, r] = y[r]
                kinetic[k] = kinetic_energy(inertia, data.v)
            if _accept(y, y_new, (s + 1) * h, guards, direction, g_old, y_last) == DIVERGED:
                return restarts, energy, done, DIVERGED
        done += chunk
        last = done // stride
        peak = first + np.argmax(kinetic[first:last])
        energy = kinetic[peak]
        if peak < last - 1:            # past a peak: restart there from rest
            peaks[restarts] = peak
            for r in range(y.shape[0]):
                y[r] = states[peak, r]
            for r in range(nq, nq + nv):
                y[r] = 0.0
            first = last
            restarts += 1
        # else still gaining energy: go on from the chunk's end, y
    return restarts, energy, n_steps, FINISHED


def relax_euler(bundle, data, y, h, n_steps, chunk, stride, rec, states, kinetic, peaks):
    """Dynamic relaxation with kinetic damping (the settling: ``scenario.settle``): ``n_steps``
    semi-implicit Euler steps of ``h`` from y at rest (float64, advanced in place: the end
    state left there) in chunks of ``chunk`` steps; after each chunk, if the largest kinetic
    energy sampled (every ``stride``-th step) since the last restart lies before the chunk's
    last sample (a peak passed), the motion restarts from the state at that peak, at rest.
    One compiled call (``_relax_euler``): driven chunk by chunk through ``run_euler``, each
    chunk paid the loop's typing and dispatch and each sample a full record. ``rec``: a
    recording of the run's types (``pipeline.make_recording``, one sample: nothing is recorded
    there); ``states`` (n_steps // stride, len(y)), ``kinetic`` (n_steps // stride,) J: the
    samples; ``peaks`` (n_steps // chunk,) int: the samples restarted from. Returns (restarts,
    the largest kinetic energy (J) since the last restart as of the last chunk, steps done
    before the chunk that diverged (else n_steps), FINISHED or DIVERGED)."""
    from occupant.integrate.events import never
    advance, load = _euler_entries(bundle, data, rec)
    return _relax_euler(advance, load, bundle, data, rec, y, h, n_steps, chunk, stride, states,
                        kinetic, peaks, (never,), np.zeros(1), np.ones(1),
                        np.zeros((2, len(y))), np.empty(len(y)))


def _for_the_last_types(entries):
    """``entries(bundle, data, rec)``, kept for the numba types of the last (bundle, data, rec)
    it was asked for: the loop's runs of a scenario (each fitting of the belts, the settling, the
    run, in chunks) take records of the same types, and finding the entries costs ~1 ms each
    time. The records themselves are compared first (typing the three, though ``byref`` keeps
    their types, costs ~60 us); numba's types are interned: equal types are one object while one
    is kept."""
    last = [(), (), None]   # records, their types, entries

    def cached(bundle, data, rec):
        records = (bundle, data, rec)
        if not _same(last[0], records):
            types_ = tuple(typeof(r) for r in records)
            if not _same(last[1], types_):
                last[1:] = [types_, entries(bundle, data, rec)]
            last[0] = records
        return last[2]
    return cached


def _same(kept, given):
    return len(kept) == len(given) and all(a is b for a, b in zip(kept, given))


ENTRY = typeof((0, 0))   # numba type of a ``compiled_entry`` (address, key)


def _advance_types(advance, n_vectors, bundle, data, rec, *more):
    """(stage, argument types) of a step stage (bundle, data, t, y, h, the stage's ``n_vectors``
    further state vectors, rec, k, and the types ``more``) as the loops pass them."""
    vector = types.float64[::1]
    return advance, (typeof(bundle), typeof(data), types.float64, vector, types.float64,
                     *(vector,) * n_vectors, typeof(rec), types.int64, *more)


def stage_types(loop, bundle, data, rec):
    """[(stage, argument types)] of the stages the compiled ``loop`` (run_euler, relax_euler
    or run_rk4) calls by address, in the order of its entries: what a run compiles before its loop
    (``integrate.precompile`` compiles them ahead, in parallel)."""
    if loop is run_rk4:
        return [_advance_types(_rk4_advance, 6, bundle, data, rec)]
    vector = types.float64[::1]
    return [_advance_types(_euler_advance, 1, bundle, data, rec, ENTRY),
            (loads, (typeof(bundle), typeof(data), types.float64, vector, vector, vector))]


def loop_types(loop, bundle, data, rec):
    """(compiled loop, argument types) of ``loop`` (run_euler, relax_euler or run_rk4) as a run
    without events (or the settling) calls it (its guards ``(events.never,)``)."""
    from occupant.integrate.events import never
    vector, matrix = types.float64[::1], types.float64[:, ::1]
    if loop is relax_euler:
        return _relax_euler, (ENTRY, ENTRY, typeof(bundle), typeof(data), typeof(rec), vector,
                              types.float64, types.int64, types.int64, types.int64, matrix,
                              vector, types.int64[::1], typeof((never,)), vector, vector, matrix,
                              vector)
    compiled, entries = (_run_euler, (ENTRY, ENTRY)) if loop is run_euler else (_run_rk4, (ENTRY,))
    return compiled, (*entries, typeof(bundle), typeof(data), types.int64, vector, types.float64,
                      types.int64, types.int64, typeof(rec), types.boolean, typeof((never,)),
                      vector, vector, matrix, matrix)


@_for_the_last_types
def _euler_entries(bundle, data, rec):
    """The entries of ``_euler_advance`` and of the ``pipeline.loads`` it calls."""
    return tuple(compiled_entry(stage, *argtypes)
                 for stage, argtypes in stage_types(run_euler, bundle, data, rec))


@_for_the_last_types
def _rk4_entry(bundle, data, rec):
    """The entry of ``_rk4_advance``."""
    (stage, argtypes), = stage_types(run_rk4, bundle, data, rec)
    return compiled_entry(stage, *argtypes)


def outputs_at_rest(model, q, z):
    """The producers' outputs at t = 0 at (q, v = 0, z), through ``run_euler`` (zero steps, the
    state recorded): the run's own compiled loop, so that a run needs no further compiled copy
    of the pipeline (``pipeline.evaluate`` would cost ~15 s of compilation on first use)."""
    from occupant.integrate.events import never
    y = np.concatenate([np.asarray(q, dtype=float), np.zeros(model.nv), np.asarray(z, dtype=float)])
    bundle, data, rec = _at_rest_records(model)
    run_euler(bundle, data, 0, y, 1.0, 0, 1, rec, True, (never,),
              np.zeros(1), np.ones(1), np.zeros((2, len(y))))
    return rec.outputs[0].copy()


_AT_REST = [None]   # (model, bundle, Data, Recording, their arrays as made) of outputs_at_rest


def _at_rest_records(model):
    """``model.bundle()``, a Data and a one-sample Recording, their arrays as ``make_data`` and
    ``make_recording`` make them: the same three records at each call while the model and its
    bundle hold the same (a belt fit calls ``outputs_at_rest`` five times, and new records cost
    their numba typing and layout, ``byref``, ~1.5 ms a call)."""
    from occupant.integrate.pipeline import make_recording
    bundle, kept = model.bundle(), _AT_REST[0]
    if kept is None or kept[0] is not model or not _equivalent(kept[1], bundle):
        data, rec = model.make_data(), make_recording(model, 1)
        made = [[a.copy() if isinstance(a, np.ndarray) and a.flags.writeable else None for a in r]
                for r in (data, rec)]   # (None: not an array, or one the loop cannot write)
        kept = _AT_REST[0] = (model, bundle, data, rec, made)
    _, bundle, data, rec, made = kept
    for record, arrays in zip((data, rec), made):
        for a, a0 in zip(record, arrays):
            if a0 is not None:
                np.copyto(a, a0)
    return bundle, data, rec


def _equivalent(kept, bundle):
    """The bundle ``kept`` holds the blocks of ``bundle`` and equal arrays and numbers."""
    for a, b in zip(kept, bundle):
        if a is b:
            continue
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            if a.dtype != b.dtype or not np.array_equal(a, b):
                return False
        elif isinstance(a, tuple) or isinstance(b, tuple) or a != b:
            return False
    return len(kept) == len(bundle)
