"""File input and output: model files, results files, ISO-MME and URDF/MJCF export."""
from occupant.io.mjcf import export_mjcf
from occupant.io.urdf import export_urdf
