"""Compilation options of every numba kernel (design.md section 7).

Cached to disk; floating-point contraction and reassociation allowed (fused multiply-adds and
vectorised reductions), but not the assumption that no NaN or infinity occurs, since the
integrators detect divergence by them; division follows numpy's error model (no Python checks)."""
JIT = dict(cache=True, fastmath={"contract", "reassoc", "nsz", "arcp"}, error_model="numpy")

# For the small stages of the step: inlined at the call site, so that no call boundary passes the
# model's tuples of arrays (each array passed costs reference counting).
JIT_INLINE = dict(JIT, inline="always")
