"""Body/joint graph to regularly numbered tree: inboard array, incidence matrix S, path matrix T.

Source: seed 004 (lecture notes "多体系统动力学 - 拓扑结构的描述", after Roberson and Wittenburg).
Symbols follow the seed: B0 is the base (the body whose motion is known, here the vehicle frame),
B1..Bn the bodies, H1..Hn the tree joints (hinges), i+ the inboard array, i- the outboard bodies,
S0 and S the incidence matrix, T the path matrix, E the identity.

Regular numbering (seed 004, "树系统的规则标号方法")
    * every tree joint points away from B0 (its inboard body is nearer to B0);
    * every body's number is larger than its inboard body's number;
    * every body carries the number of its inboard joint: joint k connects i+(k) to body k.

How the tree is chosen and numbered here (deterministic):
    breadth-first search from B0, one level at a time. For each level the joints are scanned in the
    order the user gave them; a joint with one end in the current level and the other end not yet
    reached becomes the tree joint of that other end. The bodies found for a level are numbered in
    the order the user listed the bodies. Joints that are not tree joints close loops: they are the
    cut joints, listed in the order the user gave them.

A system with no joint to B0 at all (rootless, "无根系统") is connected to B0 through a virtual 6-DOF
joint to its root: the first body in the user's body order that is not the outboard end of any
joint (the first body if every body is some joint's outboard end, which only happens with loops).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Topology", "TopologyError", "build_topology"]

_BASE = None  # the base B0 in joint tuples and in the graph
_MAX_LISTED = 30  # names listed in an error message before "... (N more)"


class TopologyError(ValueError):
    """A body/joint description that does not form a valid multibody system."""


@dataclass(frozen=True, eq=False)
class Topology:
    """Regularly numbered tree of a multibody system (seed 004).

    ``n`` bodies are numbered 1..n, the base B0 is 0. Tree joint k is the inboard joint of body k.
    Equality is identity (the fields hold NumPy arrays); compare fields to compare topologies.

    Sign convention (that of seed 004, stated for the tree direction, i.e. every tree joint pointing
    away from B0; ``joint_reversed`` says where the user's joint pointed the other way):

    * ``S[i-1, j-1] = +1`` if body i is the inboard end (start) of joint j, ``-1`` if body i is its
      outboard end (end), 0 otherwise; ``S0[j-1] = +1`` if B0 is the start of joint j, else 0.
      With regular numbering S is upper triangular with -1 on the diagonal, and S0 has +1 exactly
      at the joints that leave B0.
    * ``T[j-1, i-1] = -1`` if joint j lies on the path from body i to B0, 0 otherwise (the seed's
      +1 case, a joint pointing towards B0, cannot occur in tree direction).
    * Then ``T @ S == S @ T == E`` and ``S0 @ T == -[1, ..., 1]``; for angular velocities
      ``omega_i = omega_0 - sum_j T[j-1, i-1] * Omega_j``.

    Fields (body k is stored at index k-1 unless said otherwise):
        body_order: body names in regular numbering.
        joint_order: tree joint names; joint k is the inboard joint of body k. Includes
            ``virtual_root_joint`` when there is one.
        joint_reversed: True where the user gave joint k as (outboard, inboard) relative to the
            tree direction; the caller must invert that joint's placement.
        inboard: (n,) int, i+(k), values 0..n-1 with 0 = B0; ``inboard[k-1] < k``.
        parent: (n,) int, 0-based parent index for the runtime (``inboard - 1``, -1 for B0).
        outboard: i-(k), the numbers of the bodies directly outboard of body k, in increasing
            order; index 0 is B0, so its length is n + 1.
        S0: (n,) int, incidence row of B0.
        S: (n, n) int, incidence matrix, rows bodies 1..n, columns joints 1..n.
        T: (n, n) int, path matrix, rows joints 1..n, columns bodies 1..n.
        virtual_root_joint: name of the virtual 6-DOF joint from B0 to the root of a rootless
            system (it is joint 1), or None.
        cut_joints: joints left out of the spanning tree (one per independent loop), in the order
            the user gave them.
    """

    body_order: tuple[str, ...]
    joint_order: tuple[str, ...]
    joint_reversed: tuple[bool, ...]
    inboard: np.ndarray  # (n,) int, i+(k) at [k-1], 0 = B0
    parent: np.ndarray  # (n,) int, 0-based parent, -1 = B0
    outboard: tuple[tuple[int, ...], ...]  # (n+1,) i-(k), index 0 = B0
    S0: np.ndarray  # (n,) int
    S: np.ndarray  # (n, n) int, [body, joint]
    T: np.ndarray  # (n, n) int, [joint, body]
    virtual_root_joint: str | None
    cut_joints: tuple[str, ...]
    _body_number: dict[str, int] = field(init=False, repr=False)
    _joint_number: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_body_number", {b: k + 1 for k, b in enumerate(self.body_order)})
        object.__setattr__(self, "_joint_number", {j: k + 1 for k, j in enumerate(self.joint_order)})
        for name in ("inboard", "parent", "S0", "S", "T"):
            getattr(self, name).flags.writeable = False

    @property
    def n(self) -> int:
        """Number of bodies (without B0), equal to the number of tree joints."""
        return len(self.body_order)

    def body_number(self, name: str) -> int:
        """Regular number (1..n) of the body called ``name``."""
        try:
            return self._body_number[name]
        except (KeyError, TypeError):
            raise TopologyError(
                f"unknown body {name!r} (known bodies: {_names(self.body_order)})"
            ) from None

    def joint_number(self, name: str) -> int:
        """Regular number (1..n) of the tree joint called ``name`` (cut joints have none)."""
        try:
            return self._joint_number[name]
        except (KeyError, TypeError):
            extra = f"; {name!r} is a cut joint" if name in self.cut_joints else ""
            raise TopologyError(
                f"unknown tree joint {name!r}{extra} (tree joints: {_names(self.joint_order)})"
            ) from None

    def path(self, body: str) -> list[str]:
        """Names of the tree joints on the path from B0 to ``body``, B0 side first."""
        k = self.body_number(body)
        joints = []
        while k:
            joints.append(self.joint_order[k - 1])
            k = int(self.inboard[k - 1])
        return joints[::-1]

    def is_ancestor(self, a: str | None, b: str) -> bool:
        """True if body ``a`` lies strictly inboard of body ``b`` (on b's path to B0).

        ``a=None`` stands for B0, which is an ancestor of every body. A body is not its own
        ancestor.
        """
        target = 0 if a is None else self.body_number(a)
        k = int(self.inboard[self.body_number(b) - 1])
        while k > target:
            k = int(self.inboard[k - 1])
        return k == target


def build_topology(
    bodies: Sequence[str],
    joints: Sequence[tuple[str, str | None, str]],
) -> Topology:
    """Build the regularly numbered topology of a system of bodies and joints.

    Args:
        bodies: body names, each once.
        joints: ``(joint_name, inboard_body, outboard_body)``; ``inboard_body`` None means the base
            B0. A joint may be given in either direction; the tree direction (away from B0) decides
            and ``Topology.joint_reversed`` flags the joints given the other way round.

    Several joints to B0 are allowed (a forest on the base). A system without any joint to B0 is
    attached to B0 by a virtual 6-DOF joint named ``f"{root}_virtual_free"``. Joints that close
    loops become cut joints. See the module docstring for how numbering and tree are chosen.

    Raises:
        TopologyError: empty body list, malformed or duplicate names, a joint connecting a body to
            itself, a joint naming an unknown body, bodies not connected to B0 in a system that
            has joints to B0, or several separate groups of bodies without a joint to B0.
    """
    body_list = _check_bodies(bodies)
    joint_list = _check_joints(joints, body_list)
    position = {b: i for i, b in enumerate(body_list)}

    # Undirected adjacency in the user's joint order; graph node None is B0.
    neighbours: dict[str | None, list[str | None]] = {b: [] for b in body_list}
    neighbours[_BASE] = []
    for _, a, b in joint_list:
        neighbours[a].append(b)
        neighbours[b].append(a)

    virtual_root_joint = None
    if any(a is _BASE for _, a, _ in joint_list):
        reached = _reach(neighbours, _BASE)
        lost = [b for b in body_list if b not in reached]
        if lost:
            raise TopologyError(
                f"bodies not connected to the base B0: {_names(lost)}. Every body must be reached "
                "from B0 through joints; add a joint linking them to the rest of the system, or "
                "one from the base (inboard body None)."
            )
    else:
        components = _components(neighbours, body_list)
        roots = [_root_of(comp, joint_list) for comp in components]
        if len(components) > 1:
            groups = "; ".join(
                f"{root!r} (bodies {_names(comp)})" for root, comp in zip(roots, components)
            )
            raise TopologyError(
                f"{len(components)} separate groups of bodies have no joint to the base B0, "
                f"candidate roots: {groups}. Only one group may float freely (it gets a virtual "
                "6-DOF joint to B0); join the groups by joints, or give each a joint from the base "
                "(inboard body None)."
            )
        root = roots[0]
        taken = {j for j, _, _ in joint_list}
        virtual_root_joint = f"{root}_virtual_free"
        suffix = 1
        while virtual_root_joint in taken:
            virtual_root_joint = f"{root}_virtual_free_{suffix}"
            suffix += 1

    all_joints = list(joint_list)
    if virtual_root_joint is not None:
        all_joints.insert(0, (virtual_root_joint, _BASE, root))

    # Level-by-level breadth-first search from B0 (see module docstring).
    visited: set[str | None] = {_BASE}
    level: list[str | None] = [_BASE]
    tree_joint: dict[str, tuple[str, str | None, bool]] = {}  # body -> (joint, inboard, reversed)
    order: list[str] = []
    while level:
        in_level = set(level)
        found: list[str] = []
        for name, a, b in all_joints:
            if a in in_level and b not in visited:
                child, inner, reversed_ = b, a, False
            elif b in in_level and a not in visited:
                child, inner, reversed_ = a, b, True
            else:
                continue
            visited.add(child)
            tree_joint[child] = (name, inner, reversed_)
            found.append(child)
        found.sort(key=position.__getitem__)
        order.extend(found)
        level = found

    n = len(order)
    assert n == len(body_list), "connectivity was checked above"
    number: dict[str | None, int] = {b: k + 1 for k, b in enumerate(order)}
    number[_BASE] = 0

    inboard = np.array([number[tree_joint[b][1]] for b in order], dtype=np.int64)
    assert all(inboard[k] < k + 1 for k in range(n)), "regular numbering"
    used = {tree_joint[b][0] for b in order}

    outboard_lists: list[list[int]] = [[] for _ in range(n + 1)]
    for k in range(1, n + 1):
        outboard_lists[inboard[k - 1]].append(k)

    S0 = np.zeros(n, dtype=np.int64)
    S = np.zeros((n, n), dtype=np.int64)
    T = np.zeros((n, n), dtype=np.int64)
    for k in range(1, n + 1):
        S[k - 1, k - 1] = -1  # body k is the end of joint k
        p = inboard[k - 1]
        if p == 0:
            S0[k - 1] = 1  # B0 is the start of joint k
        else:
            S[p - 1, k - 1] = 1  # body p is the start of joint k
        j = k
        while j:  # joints on the path from body k to B0
            T[j - 1, k - 1] = -1
            j = inboard[j - 1]

    return Topology(
        body_order=tuple(order),
        joint_order=tuple(tree_joint[b][0] for b in order),
        joint_reversed=tuple(tree_joint[b][2] for b in order),
        inboard=inboard,
        parent=inboard - 1,
        outboard=tuple(tuple(o) for o in outboard_lists),
        S0=S0,
        S=S,
        T=T,
        virtual_root_joint=virtual_root_joint,
        cut_joints=tuple(name for name, _, _ in joint_list if name not in used),
    )


def _check_bodies(bodies: Sequence[str]) -> list[str]:
    if isinstance(bodies, str) or not isinstance(bodies, Sequence):
        raise TopologyError(
            f"bodies must be a list of body names, got {type(bodies).__name__} {bodies!r}"
        )
    body_list = list(bodies)
    if not body_list:
        raise TopologyError("the body list is empty; a system needs at least one body")
    bad = [f"{b!r} at position {i}" for i, b in enumerate(body_list) if not _is_name(b)]
    if bad:
        raise TopologyError(f"body names must be non-empty strings, got {', '.join(bad)}")
    duplicates = _duplicates(body_list)
    if duplicates:
        raise TopologyError(f"duplicate body names: {_names(duplicates)}; each body must be unique")
    return body_list


def _check_joints(
    joints: Sequence[tuple[str, str | None, str]], body_list: list[str]
) -> list[tuple[str, str | None, str]]:
    if isinstance(joints, str) or not isinstance(joints, Sequence):
        raise TopologyError(
            "joints must be a list of (joint_name, inboard_body or None, outboard_body), got "
            f"{type(joints).__name__} {joints!r}"
        )
    joint_list = []
    for i, joint in enumerate(joints):
        if isinstance(joint, str) or not isinstance(joint, Sequence) or len(joint) != 3:
            raise TopologyError(
                f"joint at position {i} must be (joint_name, inboard_body or None, outboard_body), "
                f"got {joint!r}"
            )
        name, a, b = joint
        if not _is_name(name):
            raise TopologyError(
                f"joint at position {i}: the joint name must be a non-empty string, got {name!r}"
            )
        if not (a is None or _is_name(a)):
            raise TopologyError(
                f"joint {name!r}: inboard body must be a body name or None for the base B0, "
                f"got {a!r}"
            )
        if b is None:
            raise TopologyError(
                f"joint {name!r}: outboard body is None; the base B0 can only be the inboard body "
                "(write the joint as (name, None, body))"
            )
        if not _is_name(b):
            raise TopologyError(
                f"joint {name!r}: outboard body must be a body name, got {b!r}"
            )
        joint_list.append((name, a, b))

    duplicates = _duplicates([name for name, _, _ in joint_list])
    if duplicates:
        raise TopologyError(
            f"duplicate joint names: {_names(duplicates)}; each joint must be unique"
        )
    to_itself = [f"{name!r} (body {a!r})" for name, a, b in joint_list if a == b]
    if to_itself:
        raise TopologyError(
            "joints connecting a body to itself: "
            + ", ".join(to_itself)
            + "; a joint must connect two different bodies, or a body and the base (None)"
        )
    known = set(body_list)
    unknown = [
        f"joint {name!r} names unknown body {end!r}"
        for name, a, b in joint_list
        for end in (a, b)
        if end is not None and end not in known
    ]
    if unknown:
        raise TopologyError(
            "; ".join(unknown)
            + f" (known bodies: {_names(body_list)}; use None as inboard body for the base B0)"
        )
    return joint_list


def _is_name(x: object) -> bool:
    return isinstance(x, str) and x != ""


def _duplicates(names: list[str]) -> list[str]:
    seen: set[str] = set()
    repeated: list[str] = []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return repeated


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(repr(x) for x in names[:_MAX_LISTED])
    if len(names) > _MAX_LISTED:
        shown += f", ... ({len(names) - _MAX_LISTED} more)"
    return shown


def _reach(neighbours: dict[str | None, list[str | None]], start: str | None) -> set[str | None]:
    seen = {start}
    stack = [start]
    while stack:
        for other in neighbours[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def _components(
    neighbours: dict[str | None, list[str | None]], body_list: list[str]
) -> list[list[str]]:
    """Connected groups of bodies (no joint to B0 exists), each in the user's body order."""
    label: dict[str, int] = {}
    components: list[list[str]] = []
    for body in body_list:
        if body in label:
            continue
        members = _reach(neighbours, body)
        for m in members:
            label[m] = len(components)
        components.append([b for b in body_list if b in members])
    return components


def _root_of(component: list[str], joint_list: list[tuple[str, str | None, str]]) -> str:
    """First body of the group that is no joint's outboard end, else the group's first body."""
    outboard_ends = {b for _, _, b in joint_list}
    for body in component:
        if body not in outboard_ends:
            return body
    return component[0]
