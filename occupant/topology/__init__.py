"""Topology of a multibody system: regular numbering, inboard array, incidence and path matrices.

Source: seed 004 (lecture notes on multibody topology after Roberson and Wittenburg):
regular numbering, the inboard array i+, the incidence matrix S with its row S0 for the base B0,
the path matrix T and the identities T S = S T = E, S0 T = -[1, ..., 1].

Entry point: :func:`build_topology`, which returns a frozen :class:`Topology`.
"""

from occupant.topology.topology import Topology, TopologyError, build_topology

__all__ = ["Topology", "TopologyError", "build_topology"]
