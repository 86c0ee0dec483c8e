"""Directions spread evenly over the unit sphere: the Fibonacci (golden-angle) lattice."""
import math

import numpy as np


def sphere_lattice(n, half=False):
    """(n, 3) unit vectors spread over the sphere (``half``: over the half with z > 0) on a
    Fibonacci lattice: z uniform in equal-area bands, the azimuth advancing by the golden angle
    pi (3 - sqrt 5) (equivalently pi (1 + sqrt 5)) from one point to the next."""
    i = np.arange(n) + 0.5
    z = i / n if half else 1.0 - 2.0 * i / n
    phi = math.pi * (1.0 + math.sqrt(5.0)) * i
    r = np.sqrt(1.0 - z * z)
    return np.column_stack([r * np.cos(phi), r * np.sin(phi), z])
