"""Record: the largest excursion of each neck joint dof in the Part 572 neck pendulum runs of the
50M and 5F (python dummies/tools/neck_excursions.py). derive_hybrid3.py places the dummies' neck
flexion/extension stops (DUMMY_ROM) beyond these with room to spare, so that the stops do not
touch the certification figures; rerun after a neck retune and check that the margins hold."""
import numpy as np

from occupant import simulate
from occupant.human.certification import head_neck_model, pendulum_motion, read_scenario

SCENARIOS = ("hybrid3_50m_neck_flexion", "hybrid3_50m_neck_extension",
             "hybrid3_05f_neck_flexion", "hybrid3_05f_neck_extension")


def excursions(scenario, dt=1e-4):
    """{resistance element: (min deg, max deg, lower stop deg, upper stop deg)} of one run."""
    sc, _ = read_scenario(scenario)
    model = head_neck_model(sc["dummy"])
    res = simulate(model, sc["t_end"], dt=dt, base_motion=pendulum_motion(sc))
    el = model.joint_resistance
    out = {}
    for e, name in enumerate(model.joint_resistance_names):
        x = np.degrees(res.outputs[f"{name}.deflection"])   # the coordinate as the kernel read it
        out[name] = (x.min(), x.max(), np.degrees(el.lower[e]), np.degrees(el.upper[e]))
    return out


def main():
    for sc in SCENARIOS:
        print(sc)
        for name, (lo, hi, stop_lo, stop_hi) in excursions(sc).items():
            if name.endswith("_y"):
                print(f"  {name:14s} {lo:7.1f} .. {hi:6.1f} deg   stops {stop_lo:6.1f} .. {stop_hi:5.1f}"
                      f"   margins {lo - stop_lo:5.1f} / {stop_hi - hi:5.1f}")


if __name__ == "__main__":
    main()
