"""Compile the marker forces (``MarkerForce``) to the MarkerForceBlock of the bundle: each
marker's frame in its link's frame (J fixed in B0 when the element has no marker_j), the
matrices of the linear law, the stacked time tables and the tabulated springs."""
import numpy as np

from occupant.model.bundle import (MarkerForceBlock, MARKER_FORCE_LINE, MARKER_FORCE_LINEAR,
                                   MARKER_FORCE_OUTPUTS, freeze_block)


def marker_force_block(asm, marker_index, marker_body, body_link, marker_R, marker_p, outputs):
    elements = list(asm.marker_forces.values())
    cols = {k: [] for k in MarkerForceBlock._fields}
    rows, springs = [], []
    for e in elements:
        for side, marker in (("i", e.marker_i), ("j", e.marker_j)):
            if marker is None:
                cols[f"link_{side}"].append(-1)
                cols[f"R_{side}"].append(e.rotation_j)
                cols[f"p_{side}"].append(e.position_j)
            else:
                m = marker_index[marker]
                cols[f"link_{side}"].append(body_link[marker_body[m]])
                cols[f"R_{side}"].append(marker_R[m])
                cols[f"p_{side}"].append(marker_p[m])
        cols["law"].append(MARKER_FORCE_LINE if e.kind == "single_component" else MARKER_FORCE_LINEAR)
        for key in ("stiffness", "damping", "reference", "preload"):
            cols[key].append(getattr(e, key))
        if e.table is None:
            cols["table_start"].append(-1)
            cols["table_len"].append(0)
        else:
            cols["table_start"].append(sum(len(r) for r in rows))
            cols["table_len"].append(len(e.table))
            padded = np.zeros((len(e.table), 7))
            padded[:, :e.table.shape[1]] = e.table
            rows.append(padded)
        cols["table_cols"].append(e.table_columns)
        starts, lens = np.full(6, -1), np.zeros(6, int)
        for c, table in enumerate(e.springs):
            if table is not None:
                starts[c], lens[c] = sum(len(r) for r in springs), len(table)
                springs.append(table)
        cols["spring_start"].append(starts)
        cols["spring_len"].append(lens)
    for key in ("link_i", "link_j", "law", "table_start", "table_len", "table_cols",
                "spring_start", "spring_len"):
        cols[key] = np.array(cols[key], dtype=np.int64)
    for key, shape in (("R_i", (3, 3)), ("R_j", (3, 3)), ("p_i", (3,)), ("p_j", (3,)),
                       ("stiffness", (6, 6)), ("damping", (6, 6)), ("reference", (6,)),
                       ("preload", (6,))):
        cols[key] = np.array(cols[key], dtype=float).reshape((-1,) + shape)
    cols["tables"] = np.concatenate(rows) if rows else np.zeros((0, 7))
    cols["springs"] = np.concatenate(springs) if springs else np.zeros((0, 2))
    cols["spring_start"] = cols["spring_start"].reshape(-1, 6)
    cols["spring_len"] = cols["spring_len"].reshape(-1, 6)
    cols["out_start"] = outputs.reserve(asm.marker_forces, MARKER_FORCE_OUTPUTS)
    return freeze_block(MarkerForceBlock, cols)
