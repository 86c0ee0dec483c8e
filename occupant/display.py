"""How a criterion's value and a unit are written for people: the one formatting the run's
printed summary, ``occupant compare``, criteria.csv's unit column and the report share.

Stored unit strings (channels, results.h5, ISO-MME through occupant.io.isomme's own unit codes)
keep their spelling; only what is shown goes through ``unit_text``."""

#: units written differently where shown: a moment as SAE J211-1 and the protocols' tables write
#: it ("N m"), not as the channels store it ("N*m")
UNIT_TEXT = {"N*m": "N m", "Nm": "N m"}


def unit_text(unit):
    """The displayed spelling of ``unit`` (itself unless UNIT_TEXT names it)."""
    return UNIT_TEXT.get(unit, unit)


def count_text(n, noun):
    """``n`` and ``noun``, plural unless n is 1: "1 variant", "2 variants" (a sweep of one
    variant printed "1 variants", "1 rows"; usercheck10, usercheck11). Regular nouns only."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def unjudged_heading(rows):
    """What heads a criteria table that no regulation judges (the run's ``regulation`` empty):
    "values only" when no row has a limit; when some do (a parametric human in a regulated
    scenario: the dummy's limits shown for reference) the heading said "no regulation named:
    values only" above a file that names one and a table of limits (usercheck8)."""
    if any(r.get("limit") is not None for r in rows):
        return "not judged: limits shown for reference, see the notes"
    return "no regulation named: values only"


def value_text(value, unit):
    """A criterion's value (or limit) in ``unit`` as the summary prints it: forces in whole
    newtons; dimensionless figures to three significant digits below 10 (three decimals below
    0.001, never an exponent), whole above; speeds (VC, rebound, head impact speed) to two
    decimals (VC's Euro NCAP scale runs 0.5 to 1.0 m/s); others to one decimal. "-" for None;
    no "-0"."""
    if value is None:
        return "-"
    value = float(value)
    if unit == "-":
        if abs(value) >= 10:
            return f"{round(value, 0) + 0.0:.0f}"
        return f"{value:.3g}" if abs(value) >= 1e-3 else f"{round(value, 3) + 0.0:.3f}"
    if unit == "N":
        return f"{round(value, 0) + 0.0:.0f}"
    if unit == "m/s":
        return f"{round(value, 2) + 0.0:.2f}"
    return f"{round(value, 1) + 0.0:.1f}"


def distinct_labels(labels, folders=None):
    """Column and legend labels of compared runs, ``labels`` made distinct: where runs share one
    (two run folders of one scenario named alike, ``a/run`` and ``b/run``), each that is a run
    folder (``folders[i]``, else None) is labelled with as many of its path's last parts as tell
    them apart; any still alike (the same folder twice, a scenario named as a folder) gets
    ``_2``, ``_3``... after it, in order."""
    from pathlib import Path
    folders = list(folders) if folders is not None else [None] * len(labels)
    out = list(labels)
    for label in dict.fromkeys(labels):
        same = [i for i, x in enumerate(labels) if x == label and folders[i] is not None]
        if labels.count(label) < 2 or len(same) < 2:
            continue
        parts = [Path(folders[i]).resolve().parts for i in same]
        for n in range(2, max(len(p) for p in parts) + 1):
            tails = ["/".join(p[-n:]) for p in parts]
            if len(set(tails)) == len(tails):
                for i, tail in zip(same, tails):
                    out[i] = tail
                break
    used = set()
    for i, label in enumerate(out):
        k, candidate = 1, label
        while candidate in used:
            k += 1
            candidate = f"{label}_{k}"
        used.add(candidate)
        out[i] = candidate
    return out
