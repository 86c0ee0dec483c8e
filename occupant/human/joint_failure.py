"""The failure moments of the parametric human's joints past their range ends
(data/joint_failure.toml, sources there; the neck's scaled to its size: ``size_factor``), by
joint resistance: a human joint driven past its range end with more than its failure moment is
a predicted injury, which the run reports as such (occupant.scenario.defects.joint_failures),
not as a numerical defect. A dummy's joints have none:
a dummy's joint past its stop stays a model defect."""
from dataclasses import dataclass

from occupant.human.data_folder import HumanDataError, data_path, read_data

FILE = "joint_failure.toml"
ENDS = ("lower", "upper")


@dataclass(frozen=True)
class FailureLevel:
    motion: str      # the anatomical motion the range end limits: "eversion", ...
    moment: float    # N m, the failure moment
    source: str      # as the run's note names it
    angle: float = None   # deg from the joint's zero, the failure angle where published
    range_end: float = None   # rad, the range end of data/joint_rom.toml it is driven past: the
    #                           reading of a joint whose resistance has no stop there (the neck's
    #                           ligamentous branch), whose element's range is then unbounded
    scale: float = 1.0   # the size factor ``moment`` carries (``size_factor``): the file's
    #                      moment is the reference subject's


def failure_levels(model):
    """{joint resistance name: {"lower" | "upper": FailureLevel}} of a model: a parametric
    human's, as its builder read them (``read_levels``, from the data folder it was built from:
    a run folder's copy when run again); {} for any other model."""
    return getattr(getattr(model, "source", None), "joint_failure_levels", {})


def size_factor(rule, ratio):
    """The factor a failure moment of data/joint_failure.toml's size rule ``rule`` (its [size]
    table: {"exponent": n}) takes for a body whose measure is ``ratio`` times the reference
    subject's: ratio ** n (the neck's: its circumference's ratio cubed, Mertz et al. 2003)."""
    return float(ratio) ** float(rule["exponent"])


def read_levels(joint_resistance_names, ranges=None, size_ratios=None):
    """{joint resistance name: {"lower" | "upper": FailureLevel}} of the human's joint resistances
    whose range end has a failure moment in data/joint_failure.toml (the left side's ends; a right
    joint's x and z ends swap, as its ranges do: builder.MIRRORED). ``ranges``: {(joint name,
    coordinate key): (lower, upper) rad}, the human's ranges of motion (builder.joint_ranges),
    each level's ``range_end`` (the right side's already mirrored there). ``size_ratios``:
    {size rule name ("neck"): the body's measure over the reference subject's} (builder: the
    neck's circumference over the 50th male's); a level whose row names a ``size`` rule has its
    moment scaled by ``size_factor`` (none given: the reference subject's, factor 1)."""
    from occupant.human.builder import MIRRORED
    table = read_data(FILE)
    rules = table.get("size", {})
    levels = {}
    for name in joint_resistance_names:
        side, _, rest = name.partition("_")
        if side not in ("left", "right"):
            side, rest = "", name
        joint, _, key = rest.rpartition("_")
        found = {}
        for file_end, row in table.get(joint, {}).get(key, {}).items():
            end = file_end
            if side == "right" and key in MIRRORED:
                end = ENDS[1 - ENDS.index(end)]
            angle = row.get("angle")
            span = (ranges or {}).get((name[:-len(key) - 1], key))
            rule = row.get("size")
            if rule is not None and rule not in rules:
                raise HumanDataError(data_path(FILE), f"{joint}.{key}.{file_end}.size",
                                     f"unknown size rule {rule!r}", ", ".join(sorted(rules)))
            scale = (1.0 if rule is None or size_ratios is None
                     else size_factor(rules[rule], size_ratios[rule]))
            source = row["source"]
            if scale != 1.0:     # the note says what the level was scaled by
                source += f"; x {scale:.3f}, {rules[rule]['source']}"
            found[end] = FailureLevel(row["motion"], float(row["moment"]) * scale, source,
                                      None if angle is None else float(angle),
                                      None if span is None else float(span[ENDS.index(end)]),
                                      scale)
        if found:
            levels[name] = found
    return levels
