"""Derivation record for dummies/hybrid3_{95m,50m,05f}.toml (run: python dummies/tools/derive_hybrid3.py).

This script is the documented method by which the three Hybrid III files were produced; it is not
imported by the package. Every base number below carries its source tag as in
the project brief's shared/reference/hybrid3-segment-data.md ("H3SD"):
  [C] primary source (CFR, NHTSA), [S] open secondary model (OpenRadioss ModelExchange rigid
  articulated HIII 95th, commit 86dbea3, read through H3SD section 1.4 and 2.3), [D] derived here,
  [U] unverified commonly quoted value, [E] engineering estimate with no source (says so).

Method (Mertz, Irwin, Melvin, SAE 890756 built the 5F and 95M from the 50M by geometric scaling;
we run the same idea the other way because the only complete open data set is the 95M):
  1. 95M geometry, inertias and joint curves from the open rigid model, converted to our frame
     (x forward, y left, z up; standing reference posture with legs and arms hanging vertically,
     torso kept in the dummy's seated design shape) and lumped into the 15-segment ATB layout [D].
  2. 50M: all lengths x lambda = 1.753 / 1.88 (stature ratio, [C] NHTSA / [U] 95M stature);
     segment masses from the commonly quoted 50M table [U], scaled by 78.2 / 77.77 so that the
     total is the published 78.2 kg [C]; inertias I = I_95 (m / m_95) lambda^2; joint moments x
     lambda^3 and damping x lambda^4 (equal density and modulus: mass ~ L^3, time ~ L).
  3. 5F: from the 50M, separate length factors by body region (as Mertz did by region):
     head/neck/torso lambda_s = sitting-height ratio 0.787/0.884, arms lambda_h = stature ratio
     1.501/1.753, legs lambda_l = (stature - sitting height) ratio; masses from NHTSA 5F [C].
  4. The head contact ellipsoid's vertical semi-axis of the 50M is chosen so that the erect sitting
     height (head vertex above the lowest point of the pelvis ellipsoid) equals the published
     0.884 m [C] -- a fitted value, marked as such in the file.
  5. 50M and 5F: the flexion/extension characteristics of the two neck joints are tuned to the
     49 CFR 572.33 / 572.133 pendulum tests (TUNED_50M, TUNED_05F below, fitted by
     dummies/tools/tune_neck.py; corridors [C]); each
     tuned value says so in the file and gives the value it replaced.
"""
import importlib.util
import math
import pathlib

import numpy as np
from scipy.spatial.transform import Rotation

HERE = pathlib.Path(__file__).resolve().parent.parent
S95 = "[S] OpenRadioss ModelExchange RG_Articulated_Hybrid_III_95TH (via H3SD 1.4)"

# The foot as two ellipsoids, a heel and a forefoot (sole and ball), apart (the foot shell alone,
# one ellipsoid over the whole foot, put the foot's floor contact 13-14 mm ahead of the ankle:
# scenarios/HISTORY.md, feetload, heelfoot and footsplit). From the open FE 95M's foot [S:
# OpenRadioss ModelExchange Safety/Hybrid_III_95th_RG_Articulated/
# RG_Articulated_Hybrid_III_95TH_0000.rad, CC BY-NC 4.0, facts only: the nodes of part 15000017
# LEFT FEET (565 nodes of its shell mesh) relative to the ankle spring 15005178's node 15005211,
# deck X rearward, Y right, Z up, turned 53.0 deg about y so that the knee-ankle line (knee spring
# 15005176's node 15005210) is vertical, as the foot shell]: the mesh's rearmost point lies 57.7
# mm behind the ankle at 54.3 mm below it; under the heel its lowest points lie 94-96 mm below the
# ankle from 30 mm behind to 10 mm ahead, 88 / 82 / 75 mm below at 40 / 50 / 55 mm behind; the
# sole rises to 87-91 mm below at 20-80 mm ahead (the arch), drops to 106 mm below under the ball
# (140-170 mm ahead) and ends 230 mm ahead: 288 mm long. Cut at the arch, 35 mm ahead of the
# ankle: each part an ellipsoid fitted to its nodes (least squares of the nodes' distance to the
# surface along the line to the centre, its lowest point on the part's lowest node, the heel's
# front and the forefoot's rear at most / at least at the cut, so a plane parts them) [D]:
# - heel (162 nodes behind the cut): centre 10.0 mm behind, 49.8 below; semi-axes 45.0 / 47.7 /
#   45.8 mm; from 54.9 behind to 35.0 ahead, lowest 95.6 below; rms 6.8 mm (the ellipsoid of
#   heelfoot, through the rearmost point and the heel's bottom: 9.6 mm)
# - forefoot (403 nodes ahead): centre 130.6 mm ahead, 66.4 below, pitched 11.1 deg toe down;
#   semi-axes 97.2 / 53.3 / 35.7 mm; from 35.0 to 226.2 ahead, lowest 106.1 below; rms 11.2 mm
#   (the dorsum's rise to the ankle is what it misses, up to 46 mm; the one foot shell against
#   all 565 nodes: 17.4 mm).
# Both on the ankle's line as the foot shell was (the mesh lies 20-22 mm outboard of the ankle
# node). The forefoot keeps the name foot_shell (what the scenarios pair and the posture's ball
# point names); the heel carries the posture's heel point (occupant/human/posture.py). The fit is
# dummies/tools/fit_foot.py's (written down at branch fivefheel: it gives these figures again to
# 0.4 mm, rms 6.9 / 11.2 mm).
HEEL_CENTER = (-0.0100, 0.0, -0.0498)
HEEL_SEMI = (0.0450, 0.0477, 0.0458)
FOREFOOT_CENTER = (0.1306, 0.0, -0.0664)
FOREFOOT_SEMI = (0.0972, 0.0533, 0.0357)
FOREFOOT_PITCH_DEG = 11.1
HEEL_SRC = ("[D] the open FE 95M's heel (OpenRadioss ModelExchange, CC BY-NC; part 15000017 LEFT "
            "FEET's nodes behind the arch, fitted: derive_hybrid3.py HEEL_CENTER)")
FOREFOOT_SRC = ("[D] the open FE 95M's forefoot, sole and ball (OpenRadioss ModelExchange, CC BY-NC; "
                "part 15000017 LEFT FEET's nodes ahead of the arch, fitted: derive_hybrid3.py "
                "FOREFOOT_CENTER)")
# The 5F's heel and forefoot, her own (not the 95M's scaled), fitted the same way
# (dummies/tools/fit_foot.py) to her shoe [S: OpenRadioss ModelExchange Safety/
# Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts only:
# part 15000032 H305_PART_LEFT_SHOE, 57 bricks in one layer over the foot skin 15000031; its 64
# nodes not shared with the skin are the shoe's outside; about the ankle spring 15005374's node
# 15004034, the knee spring 15005372's node 15004033 straight above it]: the shoe spans 41.1 mm
# behind the ankle to 202.5 ahead (244 mm), 101 mm wide, and has a heel: its tread lies 94-95 mm
# below the ankle from 40 mm behind to 10 ahead (92.6 at 24.5 ahead, its front), the sole 80-82
# below at 45-81 mm ahead (the shank), 77-79 under the ball (111-160 ahead), 60-67 at the toe
# (173-203 ahead); her deck's tibia leans 25.7 deg from its vertical. Cut at 30 mm ahead, between
# the heel's front and the shank's first node (the 95M's 35 mm x her foot's length over his, 30):
# - heel (21 nodes): centre 8.3 mm behind, 44.6 below; semi-axes 38.3 / 52.3 / 50.1 mm; from 46.6
#   behind to 30.0 ahead, lowest 94.7 below; rms 12.2 mm (the heel's square corners, 40 behind
#   and 25 ahead, are what it misses: up to 24 mm)
# - forefoot (43 nodes): centre 113.0 mm ahead, 35.3 below, pitched 5.2 deg toe down; semi-axes
#   83.3 / 60.8 / 46.5 mm; from 30.0 to 196.1 ahead, lowest 82.2 below; rms 13.6 mm (its bottom
#   0.5-3.6 mm below the sole under the ball, 140-160 ahead). Her one foot shell (the 95M's
#   scaled) against the 64 nodes: rms 23.8 mm, its lowest point 82.0 mm below the ankle, 12.7 mm
#   above her shoe's heel.
# Both on the ankle's line (the shoe's nodes centre 1-3 mm outboard of it).
HEEL_05F = dict(center=(-0.0083, 0.0, -0.0446), semi=(0.0383, 0.0523, 0.0501))   # m [D]
FOREFOOT_05F = dict(center=(0.1130, 0.0, -0.0353), semi=(0.0833, 0.0608, 0.0465),
                    pitch_deg=5.2)                                                    # m [D]
FOOT_05F_SRC = ("[D] the open FE 5F's shoe (OpenRadioss ModelExchange, commit 86dbea3, CC BY-NC; "
                "part 15000032 LEFT_SHOE's outside nodes {}, fitted: derive_hybrid3.py {})")
# Her foot's mass, centre and inertia, her own (not the NHTSA lower leg + foot split in the 95M's
# proportion, 0.896 kg, with the 95M deck's CG and moments scaled in his foot frame), summed from
# the same deck (dummies/tools/fe_mass.py; its element and rigid-body masses give the whole deck
# 49.28 kg, NHTSA's 49.0 [C]): the foot rigid body 15000021 H305_RBODY_RG_LEFT_FOOT_INT (0.57 kg
# added on its main node 15003794, 52.9 mm ahead of and 31.3 below the ankle; its secondary nodes
# the ankle's visual trusses with the ankle springs' foot node 15004004 and 20 inner nodes of the
# foot skin) with the foot skin (part 15000031, 24 bricks, 659 cm^3 at 0.4 g/cm^3: 0.264 kg) and
# the shoe (part 15000032, 57 bricks, 613 cm^3 at 0.5 g/cm^3: 0.306 kg) it carries, and half the
# two ankle springs' 0.01 kg each [S: OpenRadioss ModelExchange Safety/Hybrid_III_05th_Percentile/
# Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts only]: 1.150 kg [D], its centre
# 62.5 mm ahead of the ankle, 37.3 below, 1.9 outboard, in fit_foot's foot frame (the knee-ankle
# line vertical, as the heel and forefoot above); principal moments about it 0.000966 (along the
# foot), 0.003124 (pitch), 0.002938 (yaw) kg m^2, their axes within 2.1 deg of the frame's
# (ignored) [D]. The deck's 36 joint springs each carry 250 kg mm^2 of nodal rotational inertia
# alike (a figure for the solver, not the foot's matter): the foot's share, 0.00025 kg m^2 on each
# axis, is left out. 49 CFR 572.131 gives no segment masses (it defines the dummy by its drawings,
# parts list and PADI) [S]; NHTSA's 5F page gives the lower leg + foot, 4.06 kg a side [C], where
# the deck's lower leg (its three lower-leg rigid bodies with the leg skin, 3.170 kg) and foot
# make 4.320: the foot keeps the deck's mass and the lower leg takes NHTSA's remainder (3.164 ->
# 2.910 kg), so her total stays 49.0 kg.
FOOT_05F_MASS = dict(mass=1.150, com=(0.0625, 0.0019, -0.0373), inertia=(0.000966, 0.003124, 0.002938))
FOOT_05F_MASS_SRC = ("[D] the open FE 5F's foot (OpenRadioss ModelExchange, commit 86dbea3, CC BY-NC): "
                     "rigid body 15000021 with the foot skin 15000031 and shoe 15000032, summed by "
                     "dummies/tools/fe_mass.py (derive_hybrid3.py FOOT_05F_MASS")
# Her lower leg's centre and moments, her own too (not the 95M rigid model's lumped tibia scaled
# by her leg-length ratio: centre 147.1 mm below the knee on the knee-ankle line, moments 0.0359 /
# 0.0359 / 0.00556 kg m^2), summed the same way (dummies/tools/fe_mass.py --segment lower_leg)
# from what moves with her tibia between the knee and ankle joint springs [S: same deck and
# commit]: her three lower-leg rigid bodies 15000015 / 15000016 / 15000017 (0.7 / 1.29 / 0.6 kg
# added on their main nodes, within 8 mm of the tibia's axis), their tibia bone shells (part
# 15000029) and the leg skin over them (part 15000027, 152 bricks: 0.430 kg on its own nodes),
# with the tibia halves of the knee and ankle springs: 3.170 kg, its centre 158.7 mm below the
# knee (46.5 % of her 341.5 mm shank), 4.9 mm ahead of the knee-ankle line, 0.2 mm outboard, in
# the lower leg's frame (the foot's axes about the knee); principal moments about it 0.031064
# (about x), 0.031009 (about y), 0.000601 (about the shank's axis) kg m^2, the long axis 2.2 deg
# off the knee-ankle line (ignored) [D]. No published 5F lower-leg centre or inertia was found (49
# CFR 572 subpart O gives none; NHTSA's 5F page only the lower leg + foot weight, 4.06 kg a side
# [C]). Her lower leg's mass stays NHTSA's remainder (4.06 - 1.150 = 2.910 kg; the deck's leg and
# foot make 4.320), so her moments take the deck's times 2.910 / 3.170 (the deck's radii of
# gyration) [D]. Her transverse moments are the deck's; her axial moment is NOT: the deck puts
# 2.59 of its 3.17 kg as point masses within 8 mm of the tibia's axis with no inertia of their own
# (its rigid bodies' J cards are 0), so only the skin turns about the axis (radius of gyration 14
# mm in a leg about 100 mm across): the axial moment stays the 95M's scaled [D] (his deck's tibia
# bodies carry their own J [S]). Her transverse figure misses those bodies' own transverse moments
# too: in the 95M deck they are 0.0194 of the 0.1149 kg m^2 his three rigid bodies make (17 %), so
# hers may be up to about that much low.
LOWER_LEG_05F_MASS = dict(mass=3.1701, com=(0.00485, 0.00021, -0.15872),
                          inertia_transverse=(0.031064, 0.031009), inertia_axial_deck=0.000601)
LOWER_LEG_05F_MASS_SRC = ("[D] the open FE 5F's lower leg (OpenRadioss ModelExchange, commit 86dbea3, CC "
                          "BY-NC): rigid bodies 15000015 / 15000016 / 15000017 with the tibia bone "
                          "shells 15000029 and leg skin 15000027, summed by dummies/tools/fe_mass.py "
                          "(derive_hybrid3.py LOWER_LEG_05F_MASS")

# The shoulders' outboard ends and backs, one ellipsoid each side on the upper torso (issue 11
# section 4, scenarios/HISTORY.md shoulderheld). The thorax ellipsoid (the shell's half-extents) is
# a dome: over the shoulders it falls away outboard faster than the dummy does. From the open 95M's
# upper-torso shell [S: OpenRadioss ModelExchange Safety/Hybrid_III_95th_RG_Articulated/
# RG_Articulated_Hybrid_III_95TH_0000.rad, CC BY-NC 4.0, facts only: the nodes of part 15000002
# UPPER TORSO (305 nodes of its shell mesh) relative to the upper spine joint spring 15000029's
# node 15005195 (W), deck X rearward, Y right, Z up; its left shoulder joint spring 15000024's node
# 15005201 lies at (35.9, 206.3, 213.0) mm from W in our axes, as the file's shoulder]: the 71
# nodes outboard of the neck (part 15000001 reaches 47.2 mm from the midline) and over 200 mm above
# W. The shell's top, mm above W (its highest node within 12.5 mm of each y, x within 40 mm of
# 20 ahead of W) / the thorax ellipsoid's: 300 / 327 at 100 mm out, 283 / 300 at 150, 265 / 253
# at 200, 250 / 208 at 225; the outboard end at 236.1 mm out (node 15001521, 246.8 mm up) where the
# thorax ellipsoid ends at 236. 20 of the 71 nodes lie outside the thorax ellipsoid and nearer
# this one: the shoulder's end outboard of 190 mm and its back (x -62 to -18 mm, 108 to 175 mm out,
# 217 to 268 mm up), the thorax ellipsoid 18.9 mm rms off them (mean 16.2 outside). Fitted [D]:
# the least-squares ellipsoid (the distance along the line to each ellipsoid's centre) for which
# the union with the thorax ellipsoid, the nearer surface at each node, lies nearest the 71 nodes:
# rms 15.5 mm against the thorax alone's 18.1; on its 20 nodes 6.3 mm rms, mean 0.3, at most 12.1
# (tests/human/test_shoulder_shells.py). What it cannot mend: inboard of 150 mm the thorax's dome
# stands 7-56 mm above the shell's top (the shell's 298-313 mm at 80-100 mm out); the shipped
# belt spans over the shoulder from the D-ring to the chest's front, touching neither (scenarios/
# README.md, shoulderheld). Not on the 5F while her thorax is the box (THORAX_CENTER below).
SHOULDER_CENTER = (0.0220, 0.1138, 0.2304)   # m, the left; the right its mirror image
SHOULDER_SEMI = (0.0836, 0.1185, 0.0531)
# The 5F's too once the fitted thorax ships (THORAX_FROM_SHELL below: her FE vest calls for them).
SHOULDER_KINDS = ("95m", "50m")
SHOULDER_SRC = ("[D] the open FE 95M's upper-torso shell over the shoulder (OpenRadioss "
                "ModelExchange, CC BY-NC; part 15000002's nodes outboard of the neck, fitted with the "
                "thorax: derive_hybrid3.py SHOULDER_CENTER)")

# The thorax ellipsoid (issue 11 section 4, branch thoraxfit), fitted to the same shell [S: the
# deck and part above; its 305 nodes relative to W in our axes]. Before: the shell's half-extents
# incl. the shoulders, centre (55, 0, 149) mm, semi-axes (143, 236, 196) [D]: a dome over the
# shoulders standing 6-26 mm above the shell's top from 40 to 150 mm out (the highest node within
# 12.5 mm of each y and 40 mm of x = 20 ahead of W, against the union's highest point over the
# same x: 300 / 327 at 100 mm out), 236 mm wide a side where the chest's sides stand 164-185 mm
# out (z 0 to 200 mm). Fitted [D]: the unpitched ellipsoid on the midline whose union with the
# shoulder shells above (kept), the nearer surface at each node (the distance along the line to
# each centre), lies nearest the shell's 270 nodes above W, held within the shell's box fore-aft
# and below (its front at or behind the foremost node, 209.3 mm ahead of W; its back at or ahead
# of the rearmost, 82.6 mm behind; its bottom at or above the lowest, 60.2 mm below: the seat
# back, belt, airbag and wheel meet those faces, and the 35 nodes at or below W are the open rim
# where the shell meets the lower torso, which an ellipsoid cannot follow). The back and bottom
# bind. On the 270 nodes rms 15.1 mm, mean +4.2 (before 21.4, -7.7); the 142 nodes outboard of
# the neck and over 200 mm above W 12.5 (15.5); all 305 21.0 (26.0). The union's top less the
# shell's: -13 to +2 mm from 40 to 200 mm out (at the shell's highest nodes 67-158 mm out, the
# union's highest point at their y: -7.3 to +2.9; the box +12 to +25). Fitted free but for its
# bottom (and the shoulder shells with it) its back would stand 27 mm behind the shell's (25 on
# the 50M: its seat back bears 249 N at the start of US NCAP, 88 with the box): not taken. The 5F's FE vest (OpenRadioss ModelExchange Hybrid_III_05TH_0000.rad, commit 86dbea3:
# part 15000011 H305_PART_CHEST_VEST, 421 nodes, in her pelvis frame about her W) against her
# thorax, the 95M's scaled and kept in her body (KEPT_IN_BODY_05F): on its 370 nodes above W rms
# 23.2 mm before, 16.3 with this thorax and the shoulder shells (18.3 without: her shoulders then
# fall 23-61 mm below the vest's top 125-150 mm out, so she takes them with it); the union's
# highest point less the vest's highest nodes -4.9 to +5.9 mm from the midline to 142 mm out
# (the box +1 to +25) [D].
# (tests/human/test_thorax_fit.py)
THORAX_CENTER = (0.06228, 0.0, 0.13435)   # m, from W
THORAX_SEMI = (0.14484, 0.19813, 0.19458)
THORAX_SRC = ("[D] the open FE 95M's upper-torso shell (OpenRadioss ModelExchange, CC BY-NC; part "
              "15000002's nodes above W, least squares within its box: derive_hybrid3.py "
              "THORAX_CENTER)")
# Measured, NOT shipped (scenarios/HISTORY.md, thoraxfit): with it the belt still first meets the
# thorax in front of the neck's base and US NCAP's HIC15 and femurs move away from the test.
# True ships it: the dummies take THORAX_CENTER / THORAX_SEMI and the 5F the shoulder shells
# (then regenerate them, hand-turn the pedestrian's thorax centre with derive_pedestrian.py, and
# re-measure what tests/human/test_thorax_fit.py and scenarios/HISTORY.md thoraxfit list).
THORAX_FROM_SHELL = False
# The shipped thorax while THORAX_FROM_SHELL is False: the shell's half-extents.
THORAX_BOX = dict(center=(0.055, 0.0, 0.149), semi=(0.143, 0.236, 0.196),
                  src="[D] half-extents of the 95M upper-torso shell incl. shoulders")
THORAX = (dict(center=THORAX_CENTER, semi=THORAX_SEMI, src=THORAX_SRC) if THORAX_FROM_SHELL
          else THORAX_BOX)
if THORAX_FROM_SHELL:
    SHOULDER_KINDS += ("05f",)

# The pelvis's flesh (its contact with the seat, the seat back, the door and the bags; the surface
# a belt through the pelvis is judged against, occupant.scenario.defects). Shipped: the 95M pelvis
# shell's half-extents as read from H3SD 1.4.4 (PELVIS_BOX; the fore-aft and vertical assignment
# assumed). Against the shell itself [S: OpenRadioss ModelExchange Safety/Hybrid_III_95th_RG_
# Articulated/RG_Articulated_Hybrid_III_95TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts only:
# part 15000004 PELVIS, 642 facets, from the H-point midway between the hip joint nodes 15005209 /
# 15005213, deck X rearward, Y right, Z up: x = -X, y = -Y; the farthest crossing of 3000 evenly
# spread rays from (-30, 0, 0) mm with the facets, 2313 hitting, the rest leaving through the
# waist and thigh openings]: the shell spans x -164.6..115.6 and z -102.6..181.6 mm (half-extents
# 140 / 142 mm, not 177 / 164) and PELVIS_BOX lies 22.9 mm rms off those crossings (the shell
# 11.3 mm inside it on average), its front 158-167 mm ahead of the H-point at the midline 30-100 mm up where the
# shell's is 112-113. PELVIS_FROM_SHELL: the least-squares ellipsoid (the distance along the line
# to its centre) through those crossings, centre x and z and the fore-aft and vertical semi-axes
# free, the lateral kept at the shell's half-width (its crossings reach 208.6 mm out): rms 16.8
# mm, at most 63.0, mean +1.0; front 131-117 mm ahead at the midline 30-100 mm up [D from S].
# On the 50M (x lambda) the open FE 50M's sled example lays its lap belt on the skin 73-95 mm
# ahead of the H-point at the midline, 98-146 mm up [S: OpenRadioss ModelExchange Safety/
# Hybrid_III_50th_Percentile/example_h350_sled_belt_0000.inc, part 5000000 "lap", facts only]:
# its nodes over the pelvis lie up to 44.8 mm inside PELVIS_BOX (mean 21.6) and 16.3 inside
# this one (mean 4.2) (tests/human/test_dummies.py
# test_reference_hybrid3_50m_pelvis_flesh_under_the_fe_lap_belt, a strict xfail while False).
# Measured, NOT shipped (scenarios/HISTORY.md, lapflesh): the belt lines go shallower, but the
# smaller flesh settles the 50M's pelvis 6 mm lower and 2 mm further back (US NCAP's H-point at
# 0 ms) and moves its legs' loads: US NCAP's femurs 1.39 / 1.08 ->
# 1.13 / 0.86 kN and its knee-bag femur peak 1.99 kN against NHTSA 11391's 2.62, its right heel
# and forefoot off their supports in the settling. True ships it (then regenerate the files,
# hand-turn the pedestrian's flesh centre with derive_pedestrian.py, re-measure what lapflesh
# lists; head_semi_z keeps the seat the head was fitted against, PELVIS_BOX's, and the human's
# lap ellipsoid its scaling, restraints.LAP_BELT_PELVIS's flesh_depth 0.165 m).
PELVIS_FROM_SHELL = False
PELVIS_BOX = dict(center=(-0.009, 0.0, 0.046), semi=(0.177, 0.209, 0.164),
                  src="[D] half-extents of the 95M pelvis shell (H3SD 1.4.4); lateral axis known, "
                      "fore-aft/vertical assignment of 0.177/0.164 assumed")
PELVIS_SHELL = dict(center=(-0.01641, 0.0, 0.03659), semi=(0.14711, 0.209, 0.14817),
                    src="[D] least-squares ellipsoid through the open FE 95M's pelvis shell, part "
                        "15000004 (OpenRadioss ModelExchange, commit 86dbea3, CC BY-NC; "
                        "derive_hybrid3.py PELVIS_FROM_SHELL: rms 16.8 mm), its half-width the "
                        "shell's; was the shell's half-extents (H3SD 1.4.4), its front 45-50 mm "
                        "ahead of the shell's")
PELVIS_FLESH = PELVIS_SHELL if PELVIS_FROM_SHELL else PELVIS_BOX

# ---------------------------------------------------------------------------------------------
# 95M base data in our frame (m, kg, kg m^2). Positions relative to the parent segment origin
# (= the segment's proximal joint centre). Conversions from H3SD 1.4.1-1.4.4 [D]; see comments.
# ---------------------------------------------------------------------------------------------
BASE = [
    dict(name="pelvis", parent=None, region="torso", mass=27.17,
         mass_src="[S] pelvis rigid body 27.17 kg",
         com=(-0.013, 0.0, 0.019), com_src="[S] pelvis CG, H-point frame",
         inertia=(0.380, 0.133, 0.300), axes=(0.0, -9.0, 0.0),
         inertia_src="[S] principal moments; axes pitched 9 deg nose-up in the deck",
         joint=dict(name="root", kind="free", location=(0.0, 0.0, 0.0),
                    src="origin at the H-point (mid hip-joint centres); free joint to the base B0"),
         ellipsoids=[dict(name="pelvis_flesh", orient=(0.0, 0.0, 0.0), **PELVIS_FLESH)]),
    dict(name="lumbar", parent="pelvis", region="torso", mass=2.267,
         mass_src="[S] lumbar spine rigid body 2.267 kg",
         com=(-0.027, 0.0, 0.089), com_src="[D] lumbar CG relative to the P joint",
         inertia=(0.0044, 0.0044, 0.0022), axes=(0.0, 0.0, 0.0),
         inertia_src="[S] (column tilt of 31 deg ignored: transverse moments are equal)",
         joint=dict(name="lumbar_pelvis", kind="spherical", location=(-0.088, 0.0, 0.060),
                    src="[S] joint P (lumbar-pelvis) from the H-point"),
         ellipsoids=[dict(name="abdomen", center=(0.060, 0.0, 0.080),
                          semi=(0.110, 0.150, 0.090), orient=(0.0, 0.0, 0.0),
                          src="[E] estimate: abdomen insert spanning the gap between pelvis and "
                              "thorax ellipsoids; the open model has no abdomen shell")]),
    dict(name="upper_torso", parent="lumbar", region="torso", mass=20.5,
         mass_src="[S] upper torso rigid body 20.5 kg (the sternum plate is its own segment)",
         com=(0.044, 0.0, 0.130), com_src="[D] upper-torso CG (-0.071, 0, 0.356) from the H-point "
                                          "[S] relative to the W joint (-0.115, 0, 0.226) [S]",
         inertia=(0.4661, 0.3417, 0.2870), axes=(0.0, -9.0, 0.0),
         inertia_src="[S] upper-torso rigid body principal moments (H3SD 1.4.1); chest frame "
                     "pitched 9 deg nose-up",
         joint=dict(name="thorax_lumbar", kind="spherical", location=(-0.027, 0.0, 0.166),
                    src="[D] joint W (chest-lumbar) relative to P"),
         ellipsoids=[dict(name="thorax", center=THORAX["center"], semi=THORAX["semi"],
                          orient=(0.0, 0.0, 0.0), src=THORAX["src"])] + [
             dict(name=f"{side}_shoulder_shell", orient=(0.0, 0.0, 0.0), semi=SHOULDER_SEMI,
                  center=(SHOULDER_CENTER[0], sgn * SHOULDER_CENTER[1], SHOULDER_CENTER[2]),
                  src=SHOULDER_SRC, kinds=SHOULDER_KINDS)
             for side, sgn in (("left", 1.0), ("right", -1.0))]),
    # The deformable chest (issue 11 section 6), as the open model builds it: a sternum plate on
    # the chest's compliance springs, sliding along the chest x axis; its deflection is the chest
    # deflection channel. Location: the plate's CG, on the front of the thorax shell.
    dict(name="sternum", parent="upper_torso", region="torso", mass=1.0,
         mass_src="[S] sternum plate rigid body 1.0 kg",
         com=(0.0, 0.0, 0.0), com_src="[D] the sternum plate CG is the joint origin",
         inertia=(0.010, 0.010, 0.010), axes=(0.0, 0.0, 0.0),
         inertia_src="[S] sternum plate rigid body",
         joint=dict(name="chest", kind="prismatic", location=(0.206, 0.0, 0.177), axis=(1.0, 0.0, 0.0),
                    src="[D] sternum plate CG (0.091, 0, 0.403) from the H-point [S] relative to W "
                        "(-0.115, 0, 0.226) [S]; slides along the chest x axis (compression "
                        "negative)"),
         ellipsoids=[dict(name="sternum_pad", center=(0.005, 0.0, 0.0),
                          semi=(0.025, 0.097, 0.083), orient=(0.0, 0.0, 0.0),
                          src="[D] the chest jacket over the sternum plate (95M sizes): 25 mm "
                              "thick [E], its front 38 mm ahead of the thorax shell's box "
                              "(contact face of the thorax pendulum probe) [E]; its y-z outline, "
                              "the share of an airbag's patch the sternum carries "
                              "(occupant.restraints.airbag), is the open model's sternum contact "
                              "surface, 194 mm wide and 166 mm high [S: its sternum plate rigid "
                              "body carries a shell patch 169 mm wide and 124 mm high node to "
                              "node, ringed by contact-skin elements with nodes on both bodies, "
                              "26 mm wide at the sides, 54 mm below, 30 mm above; half of each "
                              "ring taken, where a uniform pressure loads the plate by half]; the"
                              " open model centres it 33 mm below the plate's CG, here it stays "
                              "centred on the plate, where the pendulum aims (the 50M in US NCAP:"
                              " 36.5 mm offset, 36.4 centred). Before, 214 mm wide and high [E]: "
                              "50M chest deflection 38.8 mm in US NCAP, 32.0 in the unbelted "
                              "FMVSS 208 sled (now 36.4, 22.0)")]),
    dict(name="neck", parent="upper_torso", region="torso", mass=1.53,
         mass_src="[S] neck rigid body",
         com=(0.013, 0.0, 0.049), com_src="[D] neck CG relative to NP",
         inertia=(0.0030, 0.0030, 0.00125), axes=(0.0, 16.0, 0.0),
         inertia_src="[S] neck frame 16 deg nose-down",
         joint=dict(name="lower_neck", kind="spherical", location=(0.068, 0.0, 0.296),
                    src="[D] joint NP (neck-chest, C7/T1) relative to W"),
         ellipsoids=[dict(name="neck_shell", center=(0.017, 0.0, 0.072),
                          semi=(0.047, 0.048, 0.072), orient=(0.0, 0.0, 0.0),
                          src="[D] half-extents of the 95M neck shell")]),
    dict(name="head", parent="neck", region="torso", mass=4.84,
         mass_src="[S] head rigid body",
         com=(0.053, 0.0, 0.057), com_src="[D] head CG relative to the occipital condyle (HP)",
         inertia=(0.0189, 0.0284, 0.0261), axes=(0.0, 15.0, 0.0),
         inertia_src="[S] upper-neck frame 15 deg nose-down",
         joint=dict(name="upper_neck", kind="spherical", location=(0.041, 0.0, 0.143),
                    src="[D] joint HP (occipital condyle) relative to NP"),
         ellipsoids=[dict(name="head_shell", center=(0.044, 0.0, 0.057),
                          semi=(0.101, 0.085, None), orient=(0.0, 0.0, 0.0),
                          src="[D] fore-aft/lateral half-extents of the 95M head shell; vertical "
                              "semi-axis FITTED to the 50M erect sitting height 0.884 m [C]"),
                     # the head shell, sized along the head's axes, leaves the open 95M head
                     # shell's chin 33-38 mm outside it (scenarios/HISTORY.md, branch chinpad)
                     dict(name="chin", center=(0.0969, 0.0, -0.0499),
                          semi=(0.0248, 0.0430, 0.0184), orient=(0.0, 0.0, 0.0),
                          src="[D] the chin and jaw of the 95M head shell [S]: least-squares "
                              "ellipsoid through its 14 nodes more than 95 mm below and 40 mm "
                              "ahead of the head shell's centre (residuals 5.1 mm at most), its "
                              "bottom at the lowest node, its half-width capped at the jaw's "
                              "43 mm"),
                     # and the back of the head 25-45 mm outside it, horizontally, from the neck
                     # opening up to the crown (scenarios/HISTORY.md, branch occiput)
                     dict(name="occiput", center=(-0.0085, 0.0, 0.0775),
                          semi=(0.0823, 0.0877, 0.0875), orient=(0.0, 0.0, 0.0),
                          src="[D] the back of the 95M head shell [S]: least-squares ellipsoid "
                              "through its 63 nodes more than 40 mm behind the head shell's "
                              "centre (residuals 5.2 mm at most, 2.4 rms), its top at the head "
                              "shell's (the sitting height that is fitted to), its surface within "
                              "6.6 mm outside the shell above the neck opening")]),
    dict(name="upper_arm", parent="upper_torso", mirror=True, region="arm", mass=2.70,
         mass_src="[S] upper arm rigid body",
         com=(0.0, 0.0, -0.116), com_src="[D] 0.116 m from the shoulder centre along the humerus",
         inertia=(0.0180, 0.0180, 0.00248), axes=(0.0, 0.0, 0.0), inertia_src="[S] z along limb",
         joint=dict(name="shoulder", kind="spherical", location=(0.036, 0.206, 0.213),
                    src="[D] shoulder centre relative to W (deck right side mirrored to left)"),
         ellipsoids=[dict(name="upper_arm_shell", center=(0.0, 0.0, -0.113),
                          semi=(0.055, 0.047, 0.126), orient=(0.0, 0.0, 0.0),
                          src="[D] 95M upper-arm shell half-extents, centre projected on the limb")]),
    dict(name="lower_arm", parent="upper_arm", mirror=True, region="arm", mass=2.84,
         mass_src="[D] forearm mean of L/R 2.56/2.00 = 2.28 kg + hand 0.56 kg [S]",
         com=(0.0, 0.0, -0.1975), com_src="[D] lumped forearm + hand CG from the elbow",
         inertia=(0.0692, 0.0692, 0.0051), axes=(0.0, 0.0, 0.0),
         inertia_src="[D] forearm + hand lumped by parallel axes",
         joint=dict(name="elbow", kind="revolute", axis=(0.0, -1.0, 0.0),
                    location=(0.0, 0.0, -0.232),
                    src="[D] shoulder-elbow length 0.232 m; axis -y so that flexion is positive"),
         ellipsoids=[dict(name="forearm_shell", center=(0.0, 0.0, -0.157),
                          semi=(0.051, 0.049, 0.153), orient=(0.0, 0.0, 0.0),
                          src="[D] 95M lower-arm shell"),
                     dict(name="hand_shell", center=(0.0, 0.0, -0.385),
                          semi=(0.066, 0.043, 0.087), orient=(0.0, 0.0, 0.0),
                          src="[D] 95M hand shell, 0.084 m beyond the wrist (elbow-wrist 0.301 m)")]),
    dict(name="upper_leg", parent="pelvis", mirror=True, region="leg", mass=8.10,
         mass_src="[D] femur 4.6 + knee block 3.5 kg [S]",
         com=(0.0, 0.0, -0.308), com_src="[D] lumped CG projected on the hip-knee line",
         inertia=(0.102, 0.102, 0.0167), axes=(0.0, 0.0, 0.0), inertia_src="[D] lumped",
         joint=dict(name="hip", kind="spherical", location=(0.0, 0.088, 0.0),
                    src="[S] hip spacing 0.176 m"),
         # the 95M upper-leg shell's box spans 0.124-0.504 m from the hip (centre 0.314, half
         # 0.190 along the femur, H3SD 1.4.4): femur and knee block, past the knee centre
         # (0.441) by 0.063. The thigh shell takes the box from its proximal end to the knee
         # centre and the knee pad the knee around it, as the parametric human's thigh shell
         # ends at its knee (occupant/human/builder.py): spanning the whole box, the thigh
         # shell's end lay inside the knee pad and a surface at the knee met it twice (seen:
         # thigh end and knee pad 6.9 kN each on the pedestrian's struck knee)
         ellipsoids=[dict(name="thigh_shell", center=(0.0, 0.0, -(0.124 + 0.441) / 2),
                          semi=(0.099, 0.088, (0.441 - 0.124) / 2), orient=(0.0, 0.0, 0.0),
                          src="[D] 95M upper-leg shell, from its proximal end to the knee "
                              "centre (the knee pad takes the knee)"),
                     dict(name="knee_pad", center=(0.0, 0.0, -0.441), semi=(0.055, 0.060, 0.063),
                          orient=(0.0, 0.0, 0.0),
                          src="[E] the knee (knee block and flesh) around the knee centre, its "
                              "distal pole at the 95M upper-leg shell's end (0.504 m); contact "
                              "face of the knee impact probe")]),
    dict(name="lower_leg", parent="upper_leg", mirror=True, region="leg", mass=5.47,
         mass_src="[D] tibia parts 1.70 + 2.68 + 1.09 kg [S]",
         com=(0.0, 0.0, -0.192), com_src="[D] lumped CG projected on the knee-ankle line",
         inertia=(0.115, 0.115, 0.0178), axes=(0.0, 0.0, 0.0), inertia_src="[D] lumped",
         joint=dict(name="knee", kind="revolute", axis=(0.0, 1.0, 0.0),
                    location=(0.0, 0.0, -0.441),
                    src="[D] hip-knee length 0.441 m; axis +y so that flexion is positive"),
         ellipsoids=[dict(name="shank_shell", center=(0.0, 0.0, -0.2125),
                          semi=(0.074, 0.066, 0.224), orient=(0.0, 0.0, 0.0),
                          src="[D] 95M lower-leg shell")]),
    dict(name="foot", parent="lower_leg", mirror=True, region="leg", mass=1.55,
         mass_src="[S] foot rigid body",
         com=(0.050, 0.0, -0.034),
         com_src="[D] deck CG relative to the ankle, tibia rotated 52.9 deg to vertical",
         inertia=(0.00106, 0.00872, 0.00944), axes=(0.0, 0.0, 0.0),
         inertia_src="[S] x toward the toes",
         joint=dict(name="ankle", kind="spherical", location=(0.0, 0.0, -0.435),
                    src="[D] knee-ankle length 0.435 m"),
         ellipsoids=[dict(name="foot_shell", center=FOREFOOT_CENTER, semi=FOREFOOT_SEMI,
                          orient=(0.0, FOREFOOT_PITCH_DEG, 0.0), src=FOREFOOT_SRC),
                     dict(name="heel", center=HEEL_CENTER, semi=HEEL_SEMI, orient=(0.0, 0.0, 0.0),
                          src=HEEL_SRC)]),
]

# 50M segment masses [U] (H3SD 1.2; commonly quoted user-manual values), lower torso and lower
# leg + foot split in the 95M proportions [D]
M50_U = dict(head=4.54, neck=1.54, upper_torso=17.19, lower_torso=23.04, upper_arm=2.00,
             lower_arm=2.30, upper_leg=5.99, lower_leg_foot=5.44)
M05_C = dict(head=3.73, neck=0.91, upper_torso=12.02, lower_torso=13.24, upper_arm=1.18,
             lower_arm=1.18, upper_leg=3.13, lower_leg_foot=4.06)  # NHTSA 5F page [C] (per side [D])

# Joint resistance (95M deck curves [S], H3SD 2.3; ranges and stops as noted)
NECK_OC = [(-57.3, -130.0), (-22.9, -26.0), (-5.7, -6.0), (0.0, 0.0), (1.2, 3.0), (22.9, 73.0),
           (57.3, 320.0)]
NECK_TWIST = [(-57.3, -103.0), (-10.0, -28.0), (0.0, 0.0), (10.0, 28.0), (57.3, 103.0)]
NECK_NP = [(-57.3, -210.0), (-22.9, -25.0), (-5.7, -5.0), (0.0, 0.0), (5.7, 17.5), (22.9, 70.0),
           (85.9, 500.0)]
W_FLEX = [(-57.3, -1000.0), (-5.0, -40.0), (0.0, 0.0), (5.0, 40.0), (57.3, 1000.0)]
W_TWIST = [(-57.3, -126.0), (-5.0, -40.0), (0.0, 0.0), (5.0, 40.0), (57.3, 126.0)]
P_FLEX = [(-57.3, -1000.0), (-22.9, -210.0), (0.0, 0.0), (22.9, 210.0), (57.3, 1000.0)]
P_TWIST = [(-57.3, -126.0), (-10.0, -40.0), (0.0, 0.0), (10.0, 40.0), (57.3, 126.0)]

# Chest compliance [S] (H3SD 2.3): five parallel springs between the sternum plate and the
# spine box, together 2.5 kN at 40 mm and 6.25 kN at 80 mm of compression, a stop near 100 mm
# (1350 kN per spring), 80 N s/m each (400 N s/m together). Scaled to the 50M/5F as forces x L^2,
# deflections x L, damping x L^2 (equal modulus and density) [D]. Factors of CHEST_FIT (fitted to
# the 50M's 572.34 thorax pendulum peak force, sternum deflection and hysteresis by
# dummies/tools/tune_chest.py; the 5F and 95M get the same factors [D]) multiply the spring table
# and the damping; absorption is the spring's loading/unloading hysteresis (the deck has none),
# unloading to the origin (``recovers``): the ribs are spring steel with bonded damping material
# and the chest returns after a test, so its hysteresis leaves no permanent set (an unloading
# line to a permanent set had the belted 50M's sternum stay ~30 mm in after the belt unloaded).
CHEST_SPRING = [(-0.080, -6250.0), (-0.040, -2500.0), (0.0, 0.0)]  # (m, N), compression negative
CHEST_DAMPING = 400.0   # N s/m
CHEST_LOWER = -0.090    # m [D] the deck's stop rises from 80 mm (1.25 kN per spring) to 100 mm
CHEST_UPPER = 0.002     # m [E] the plate rests against the ribs: no travel forward of its seat
CHEST_STOP_K = 5.0e8    # N/m^2 [E] quadratic stop: 50 kN at 10 mm beyond the range
CHEST_STOP_C = 2.5e5    # N s/m^2 [E] stop damping per m of penetration
CHEST_FIT = dict(stiffness=1.159, damping=0.3236, absorption=0.6492)

RESIST = {
    "upper_neck": [
        dict(dof="x", table=NECK_OC, damping=90.0,
             src="[S] OC lateral bending: same curve as flexion in the deck; damping 90 N m s/rad [S]"),
        dict(dof="y", table=NECK_OC, damping=90.0,
             src="[S] OC flexion(+)/extension(-) curve, sign of flexion assumed (stiffer branch)"),
        dict(dof="z", table=NECK_TWIST, damping=90.0, src="[S] OC torsion"),
    ],
    "lower_neck": [
        dict(dof="x", stiffness=1000.0, damping=0.5, src="[S] NP lateral: linear 1000 N m/rad"),
        dict(dof="y", table=NECK_NP, damping=0.5, src="[S] NP flexion(+)/extension(-)"),
        dict(dof="z", table=NECK_TWIST, damping=2.58, src="[S] NP torsion"),
    ],
    "thorax_lumbar": [
        dict(dof="x", stiffness=1000.0, damping=90.0, src="[S] W lateral"),
        dict(dof="y", table=W_FLEX, damping=3.0, src="[S] W flexion/extension"),
        dict(dof="z", table=W_TWIST, damping=90.0, src="[S] W torsion"),
    ],
    "lumbar_pelvis": [
        dict(dof="x", stiffness=1000.0, damping=30.0, src="[S] P lateral"),
        dict(dof="y", table=P_FLEX, damping=3.0, src="[S] P flexion/extension"),
        dict(dof="z", table=P_TWIST, damping=30.0, src="[S] P torsion"),
    ],
    # limb joints: constant-torque joints set to 1.5 g (middle of the 1-2 g setting, [C] 49 CFR
    # 572.116(h) wording; Foster et al. SAE 770938 [C]); the loader turns friction_g into N m from
    # the model's own distal mass and CG distance. Ranges of motion: ROM below; stops: stop_design.
    "shoulder": [
        dict(dof="x", friction_g=1.5, damping=4.0,
             src="abduction (+ for the left arm)"),
        dict(dof="y", friction_g=1.5, damping=1.5, src="flexion is negative y (arm forward)"),
        dict(dof="z", stiffness=800.0, damping=4.0, src="[S] shoulder twist linear 800 N m/rad"),
    ],
    "elbow": [dict(friction_g=1.5, damping=1.5, src="flexion positive")],
    "hip": [
        dict(dof="x", friction_g=1.5, src="abduction (+ left)"),
        dict(dof="y", friction_g=1.5, src="flexion is negative y; the deck's referenced hip curve "
                                          "is nearly locked, its unreferenced alternative "
                                          "(-92..86 deg) is nearly free [S]"),
        dict(dof="z", friction_g=1.5, src="twist"),
    ],
    "knee": [dict(friction_g=1.5, damping=1.0, src="deck leaves knee flexion free [S]")],
    "ankle": [
        dict(dof="x", friction_g=1.5, src="inversion/eversion"),
        dict(dof="y", friction_g=1.5, src="dorsiflexion is negative y; the 95M deck leaves it "
                                          "free [S: its /FUNCT/15000008 LEFT_ANKLE_FUN_RY, "
                                          "0.001 N m at 1 rad]; the 5F has her own (OWN_RESIST)"),
        dict(dof="z", friction_g=1.5, src="twist"),
    ],
}

# Range of motion (deg) of every dof, (lower, upper, source), for the left side (the loader
# mirrors x and z for the right). Where the Hybrid III has a figure it is used; elsewhere the
# human range from occupant/human/data/joint_rom.toml ("HROM", [U] clinical tables, sources
# there), as ATB and MADYMO dummy databases bound every joint. Neck y: the dummy neck must
# rotate as far as the Part 572 pendulum tests take it, so its stops sit beyond the largest
# excursion of each joint in the four 50M/5F pendulum runs (measured with
# dummies/tools/neck_excursions.py: OC -73.7/+58.6 deg, C7/T1 -52.7/+46.3 deg, over the necks
# before and after the 5F refit of issue 10) with at least 10 deg to spare [D]; the rubber neck
# has no hard stop of its own, its table stiffens. (The C7/T1 extension stop first sat at -50
# deg; the refitted 5F neck reached -52.7 there, so it was moved and the 5F refitted again.)
# Neck x (lateral bending) and z (twist): no range of the Hybrid III neck in lateral bending or
# torsion was found (the dummy's rubber-and-aluminium column has no hard stop there either; the
# Hybrid III 3YO necks were measured "significantly stiffer in lateral bending" than the Q3's
# and comparable in torsion, Crandall, Matthews, Bass & Bolton 1999, abstract [U], no figures);
# the human half-ranges of 22.5 / 35 deg [U] stood there before and, under the side barrier's
# lateral whip (scenarios/side_barrier.toml), their stop springs took 1.2 kN m of lateral
# bending and 1.5 kN m of twist at the C7/T1 joint, loads no rubber column carries. The stops
# now sit at the end of the open model's tabulated lateral and twist curves, +-57.3 deg (1 rad,
# H3SD 2.3 [S]), so the source's curves alone carry the neck within the range they describe [D].
NECK_SOURCE_END = (-57.3, 57.3, "[D] the end of the open model's tabulated curve (H3SD 2.3, "
                                "+-57.3 deg); no Hybrid III lateral or twist range found")
HROM_PATH = HERE.parent / "occupant" / "human" / "data" / "joint_rom.toml"
DUMMY_ROM = {
    ("upper_neck", "y"): (-85.0, 70.0, "[D] beyond the 572.33/572.133 pendulum excursion "
                                       "(-73.7/+58.6 deg) by >= 10 deg"),
    ("lower_neck", "y"): (-65.0, 60.0, "[D] beyond the 572.33/572.133 pendulum excursion "
                                       "(-52.7/+46.3 deg) by >= 10 deg"),
    ("upper_neck", "x"): NECK_SOURCE_END,
    ("lower_neck", "x"): NECK_SOURCE_END,
    ("upper_neck", "z"): NECK_SOURCE_END,
    ("lower_neck", "z"): NECK_SOURCE_END,
    ("shoulder", "x"): (-30.0, 140.0, "upper 140 deg from the deck free zone (-2..141) [S]; "
                                      "lower -30 [E] (human adduction across the body)"),
    ("shoulder", "y"): (-170.0, 60.0, "free width 230 deg as the deck's -91..141 [S], split as "
                                      "human flexion 170 / extension 60 [U HROM rom-exrx]"),
    ("elbow", None): (0.0, 105.0, "[D] deck free zone -35..+70 deg about its 35 deg rest flexion "
                                  "-> 0..105 deg [S]"),
    ("hip", "x"): (-20.0, 45.0, "abduction 45 [U HROM rom-hindawi]; adduction 20 [E] (the "
                                "thighs meet)"),
    ("hip", "y"): (-120.0, 30.0, "flexion 120 (human 110-130) [U HROM]; extension 30 [E]"),
    ("knee", None): (-3.0, 135.0, "flexion 135 (human 130-150) [U HROM]; -3 deg hyperextension "
                                  "[E]"),
    ("ankle", "x"): (-15.0, 15.0, "[E] narrower than the human inversion/eversion 35/25: the "
                                  "dummy's ankle rubber bumper (NHTSA 5F page [C], no angle)"),
    ("ankle", "y"): (-45.0, 45.0, "dorsiflexion 45 [S: SAE J2949:2015 foreword: the 1986 rule's "
                                  "ankle had about 30 deg, NHTSA's 1996 final rule (61 FR 67953, "
                                  "drawings 78051-600/-601/-611) allows 45 deg dorsiflexion, with a "
                                  "rubber bumper; SAE J2856 (EA-23 1998): feet with a 45 deg range "
                                  "of motion rather than 30; the 95M's taken as the 50M's [E]]; "
                                  "plantar flexion 45 [E]"),
    ("ankle", "z"): (-15.0, 15.0, "[E] as the human table"),
    ("shoulder", "z"): (-80.0, 80.0, "[E] symmetric 80: the human internal 70-90 / external "
                                     "90 [U HROM rom-exrx] rounded to one figure"),
}
# the two lumbar joints take half of the human trunk's range each (the human's per-level split,
# occupant/human/data/joint_rom.toml, is not the dummy's)
DUMMY_ROM.update({
    (joint, dof): (lo, hi, f"[E] half of the human trunk's {what} [U HROM {source}] (the "
                           "human's per-level split is not the dummy's)")
    for joint in ("thorax_lumbar", "lumbar_pelvis")
    for dof, lo, hi, what, source in (
        ("x", -17.5, 17.5, "lateral bending 35 deg", "rom-lumbar"),
        ("y", -15.0, 37.5, "extension 30 / flexion 75 deg", "rom-lumbar"),
        ("z", -22.5, 22.5, "axial rotation 45 deg", "rom-ama"))})


# The 5F's ankle pitch from her own deck [C: OpenRadioss ModelExchange 86dbea3, Safety/
# Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, CC BY-NC 4.0, facts only; kg-mm-ms-kN, so
# moments in kN mm = N m and damping in kN mm ms/rad = 1e-3 N m s/rad]: the left ankle joint
# spring /SPRING/15005374 (part 15000048 H305_PART_JOINT_LEFT_ANKLE) between the shank's node
# 15004034 (N1) and the foot's 15004004 (N2) takes /PROP/SPR_GENE/15000049, a /PROP/TYPE8 general
# spring in the moving skew 15000001 (origin the foot node; its Y axis from 15004004 to 15004025,
# the deck's +Y, the dummy's right). Its rotation-in-Y row: K 500, C 1000, A/B/D 0, function
# 15000008 H305_FUNCT_LEFT_ANKLE_FUN_VY, H 0 (elastic), theta_min/max 0 (none), F/E/Ascale 0 (the
# scale factors' default, 1.0: Radioss reference, /PROP/TYPE8 [S]); the right ankle's
# 15000050 / 15000009 the same. The parallel positioning springs (H305_PROP_LEFT_ANKLE_POSIT,
# functions 15000073-75) are zero everywhere. A Radioss spring's rotation is N2's relative to N1
# from the start, so the law's zero is the deck's initial foot against its shank, which is this
# file's reference foot (fit_foot.py turns the deck's foot with its shank to the knee-ankle line
# vertical, keeping the angle between them) [D]. Signs [D]: a positive rotation of the foot about
# the deck's +Y (right) lifts its toes (the deck's X is rearward): dorsiflexion; this file's y is
# the dummy's left, dorsiflexion negative y; so this file's law is M(q) = -f(-q).
ANKLE_PITCH_05F_DECK = ((-1.52, -1000.0), (-0.52, -5.6), (-0.23, 0.0), (0.0, 0.0), (0.23, 0.0),
                        (1.0, 6.78), (2.0, 500.0))  # (rad, N m) [C] /FUNCT/15000008, deck's sign
ANKLE_DAMPING_05F_DECK = 1000.0  # kN mm ms/rad [C] C of the same row -> 1.0 N m s/rad
ANKLE_05F_CARD = ("her FE deck's ankle spring [C: OpenRadioss ModelExchange 86dbea3, "
                  "Hybrid_III_05TH_0000.rad, /PROP/SPR_GENE/15000049 ry row, /FUNCT/15000008]")


# The 50M's ankle inversion/eversion and twist from his own deck [C: OpenRadioss ModelExchange,
# Safety/Hybrid_III_50th_Percentile/SET_Modelling/Hybrid_III_50TH_0000.rad (SISW 2026, CC BY-NC
# 4.0, facts only; stored version eeffdd7, read by offset through the file index: the git snapshot
# lacks its blob), kg-mm-ms-kN, so moments in kN mm = N m]: the left ankle is the spherical joint
# spring /SPRING/15059112 (part 15000171 H350_PART_LEFT_ANKLE_SPHERICAL_JOINT) from the shank's
# node 15040184 (N1; the /DUMMY /ASSEMBLY 19 H350_Left_Lower_Leg's joint 20) to the foot's 15040188
# (N2), /PROP/SPR_GENE/15000171 H350_PROP_LEFT_ANKLE_SPHERICAL_JOINT in the moving skew 15000030
# H350_SKEW_LEFT_ANKLE_SPHERICAL_JOINT_CID_A (nodes 15040184 / 15040185 / 15040186, Dir X). Its
# three rotation rows: K 1e6, C 0 (no damping), H 0 (elastic), theta_min/max 0 (none), F/E/Ascale 0
# (the defaults, 1), functions 15000021 / 15000022 / 15000023 H350_FUNCT_LEFT_ANKLE_SPHERICAL_RX /
# _RY / _RZ (rotation of N2 against N1 in rad -> N m). The right ankle (15059113, property
# 15000172, skew 15000032, functions 15000024-26) has the same rows to 1e-10 rad. In parallel, the
# friction spring /PROP/SPR_GENE/15000190 H350_PROP_LEFT_ANKLE_SPHERICAL_FRIC (same nodes and skew,
# H 1, functions 15000050-52) yields at 0.9 N m about each axis: Coulomb friction of 0.9 N m, near
# the 1.00 N m this file's Part 572 limb setting (1.5 g) gives his ankle, which is kept. The deck's
# /DUMMY /ASSEMBLY positioning ranges of that joint (-22.9..22.9, -64.9..20.9, -22.9..22.9 deg) are
# the same free zones, the pitch one counted from a positioning zero 24.0 deg of dorsiflexion from
# the deck's initial foot (its CID_A and CID_B skews' X axes lie 24.0 deg apart at the start).
# Axes [D] (tests/human/test_dummies.py test_reference_hybrid3_50m_ankle_is_his_decks_spring): in
# the foot frame of the dummy files (fit_foot.foot_frame: the knee-ankle line vertical, the knee
# the joint spring 15059126's node 15040264), the skew's Y is the file's -y within 5.0 deg, its X
# runs down the shank within 9.0 deg (twist, the file's -z) and its Z rearward within 10.3 deg
# (inversion/eversion, the file's -x). RX and RZ are the same odd function, so each maps onto the
# file's z and x as M(q) = -f(-q) = f(q): no moment within 22.9 deg (0.4 rad) either way, then 5000
# N m/rad to 500 N m at 28.6 deg; being symmetric, they need no zero but the foot's straight one.
# Taken: ANKLE_50M_RZ_DECK for x, ANKLE_50M_RX_DECK for z (OWN_RESIST), no damping, the stops at the
# tables' ends.
# Not taken, the pitch (RY, /FUNCT/15000022: (-0.8651, -800), (-0.7142, 0), (-0.6807, 0), (0.0349,
# 0), (0.7505, 0), (0.7840, 0), (0.9349, 800) rad / N m; a positive rotation of the foot about the
# deck's +Y, to the dummy's right, lifts its toes: free from 40.9 deg of plantar flexion to 44.9 of
# dorsiflexion from the deck's initial foot, then 5302 N m/rad): its zero, the deck's initial foot,
# is not this file's reference foot (the 95M deck's): about the ankle in the foot frame, the 50M
# deck's heel's rearmost node read (15022238, 78.6 mm behind and 32.1 mm below) lies 22.2 deg
# below the horizontal, the 95M foot's (part 15000017) 43.5 deg, and the foremost read (15022330,
# 156.4 ahead, 124.5 below) 38.5 deg against the 95M's 18.4: his deck's foot starts about 20 deg
# more plantar-flexed (a few hundred of its foot nodes read, 15022234-15022458, no part fitted).
# Counted from this file's reference foot, the deck's law would free dorsiflexion to about 24 deg
# (its positioning zero lies within about 3 deg of that reference), against the 45 deg of SAE
# J2949 [S] the pitch stop keeps (DUMMY_ROM); which neutral SAE's 45 is counted from was not found.
# The deck's knee-ankle length is 413.7 mm (nodes 15040264 / 15040184), this file's 405.6 mm (the
# 95M's scaled), not changed here.
ANKLE_50M_RX_DECK = ((-0.499999999996844, -500.0), (-0.399999999996844, 0.0),
                     (3.15641957016055e-12, 0.0), (0.40000000000316, 0.0),
                     (0.500000000003156, 500.0))  # (rad, N m) [C] /FUNCT/15000021, deck's sign
ANKLE_50M_RZ_DECK = ((-0.499999999968144, -500.0), (-0.399999999968144, 0.0),
                     (3.18554072009647e-11, 0.0), (0.400000000031859, 0.0),
                     (0.500000000031856, 500.0))  # [C] /FUNCT/15000023
ANKLE_50M_CARD = ("his FE deck's ankle spring [C: OpenRadioss ModelExchange, SET_Modelling/"
                  "Hybrid_III_50TH_0000.rad, /PROP/SPR_GENE/15000171, /FUNCT/{}]")


def mirrored_law(rows):
    """(deg, N m) rows of a deck's (rad, N m) function f about an axis opposite to this file's:
    M(q) = -f(-q) [D]."""
    return tuple((0.0 - math.degrees(x), 0.0 - t) for x, t in reversed(rows))


def ankle_pitch_05f():
    """(deg, N m) rows of the 5F's ankle pitch law in this file's sign (plantar flexion +y):
    M(q) = -f(-q) of the deck's function f (ANKLE_PITCH_05F_DECK) [D]."""
    return mirrored_law(ANKLE_PITCH_05F_DECK)


def table_ends(rows, src):
    """(lower, upper, source) of a range of motion at the ends of a (deg, N m) table."""
    return rows[0][0], rows[-1][0], src


def ankle_deck(dof, rows, sign, card, what, damping=None, stops=None):
    """OWN_RESIST entry of an ankle dof from a deck's function rows (rad, N m) about a deck axis
    along ``sign`` (+-1) times this file's: M(q) = sign f(sign q) [D]. The stops at the table's
    ends (the decks have no theta_min/max) unless ``stops`` (lower, upper, source) are given."""
    table = (tuple((math.degrees(x), t) for x, t in rows) if sign > 0 else mirrored_law(rows))
    return (dict(dof=dof, table=table, friction_g=1.5, **({"damping": damping} if damping else {}),
                 src=f"[D] {card} as M(q) = {'f(q)' if sign > 0 else '-f(-q)'}, zero the straight "
                     f"foot; {what}; friction the Part 572 limb setting"),
            stops or table_ends(table, "[D] the ends of the deck's tabulated ankle law (the deck "
                                       "has no theta_min/max), so the deck's law alone carries "
                                       "the ankle within the range it describes"))


def ankle_50m(dof, rows, name, funct, what):
    """OWN_RESIST entry of the 50M's ankle dof from his deck's function rows (rad, N m; ``name``
    the constant that holds them, for the file's comment): the deck's axis is opposite to the
    file's."""
    return ankle_deck(dof, rows, -1, ANKLE_50M_CARD.format(funct),
                      f"derive_hybrid3.py {name}; {what}; no damping (C 0) [C]; the deck's "
                      "friction 0.9 N m; his deck's pitch row is not taken (its zero, "
                      "derive_hybrid3.py)")


# The 5F's ankle inversion/eversion and twist from her deck (the card of ANKLE_PITCH_05F_DECK's
# comment, /PROP/SPR_GENE/15000049): its rotation rows about the skew's X and Z take /FUNCT/
# 15000029 H305_FUNCT_LEFT_ANKLE_FUN_VX and 15000030 _FUN_VZ (the right ankle's 15000050: 15000031
# / 15000032, the same rows), each K 500, C 1000 kN mm ms/rad (1.0 N m s/rad), H 0, no theta_min/
# max: both (-0.01, -8), (0, 0), (0.01, 8) rad / N m, so 800 N m/rad from the straight foot, and
# beyond the rows as Radioss extrapolates a function (its end slopes) and as this file's tables do
# (occupant/forces/joint_resistance.py table_load): a near-lock, 209 N m at 15 deg. (Her deck's
# shoulder twist takes the same three rows.) Axes [D] (tests/human/test_dummies.py
# test_reference_hybrid3_05f_ankle_roll_and_twist_are_her_decks_spring): /SKEW/MOV 15000001 (nodes
# 15004004, 15004024, 15004025, Dir X) in the files' foot frame: X is the file's +x within 3.1 deg
# (inversion/eversion), Z the file's -z within 3.1 (twist). The rows being odd, M(q) = f(q) on
# both. Stops: the deck has none and its law has no end, so the [E] +-15 deg (DUMMY_ROM) stay.
ANKLE_XZ_05F_DECK = ((-0.01, -8.0), (0.0, 0.0), (0.01, 8.0))  # (rad, N m) [C] /FUNCT/15000029, 30
ANKLE_XZ_05F_CARD = ("her FE deck's ankle spring [C: OpenRadioss ModelExchange 86dbea3, "
                     "Hybrid_III_05TH_0000.rad, /PROP/SPR_GENE/15000049 {} row, /FUNCT/{}]")

# The 95M's ankle inversion/eversion and twist from his deck [C: OpenRadioss ModelExchange 86dbea3,
# Safety/Hybrid_III_95th_RG_Articulated/RG_Articulated_Hybrid_III_95TH_0000.rad, CC BY-NC 4.0,
# facts only; kg-mm-ms-kN]: the left ankle /SPRING/15005178 (part 15000022 JOINT_LEFT_ANKLE) from
# the shank's node 15005211 (N1) to the foot's 15005229 (N2), /PROP/SPR_GENE/15000022 "LEFT FOOT TO
# LOWER LEG" in the moving skew 15000004 (nodes 15005229, 15005324, 15005325; Dir blank, X): rows
# about X and Z /FUNCT/15000025 LEFT_ANKLE_FUN_CX ((-1, -800), (-0.09, -0.8), (0, 0), (0.09, 0.8),
# (1, 800) rad / N m: 8.9 N m/rad to 5.2 deg, then 878 N m/rad to 800 N m at 57.3) and 15000026
# LEFT_ANKLE_FUN_CZ (the same with 0.035 rad: 2.0 deg, then 829 N m/rad), H 0, no theta_min/max;
# the right ankle's (15000023, functions 15000027 / 15000028) the same. Each row has C 90000 kN
# mm ms/rad = 90 N m s/rad, not taken: the model's viscous lock, declined for its neck (TUNED_95M)
# and for the same card's pitch row (RESIST's ankle y, free); no damping. Axes [D] (tests/human/
# test_dummies.py test_reference_hybrid3_95m_ankle_roll_and_twist_are_his_decks_spring): in the
# files' foot frame (knee: spring 15005176's node 15005210) X is the file's +x within 1.4 deg, Z
# the file's -z; the rows being odd, M(q) = f(q). The stops at the tables' ends (+-57.3 deg).
ANKLE_95M_RX_DECK = ((-1.0, -800.0), (-0.09, -0.8), (0.0, 0.0), (0.09, 0.8),
                     (1.0, 800.0))  # (rad, N m) [C] /FUNCT/15000025
ANKLE_95M_RZ_DECK = ((-1.0, -800.0), (-0.035, -0.8), (0.0, 0.0), (0.035, 0.8),
                     (1.0, 800.0))  # (rad, N m) [C] /FUNCT/15000026
ANKLE_95M_CARD = ("his FE deck's ankle spring [C: OpenRadioss ModelExchange 86dbea3, "
                  "RG_Articulated_Hybrid_III_95TH_0000.rad, /PROP/SPR_GENE/15000022, /FUNCT/{}]")


# Resistances of a dummy's own, in place of the common ones (RESIST), not scaled: kind -> (joint,
# dof) -> (resistance, (lower, upper, range source)).
OWN_RESIST = {"50m": {
    ("ankle", "x"): ankle_50m("x", ANKLE_50M_RZ_DECK, "ANKLE_50M_RZ_DECK", 15000023,
                              "inversion/eversion about the deck's Z (rearward within 10.3 deg): no "
                              "moment within 22.9 deg, then 5000 N m/rad to 500 N m at 28.6"),
    ("ankle", "z"): ankle_50m("z", ANKLE_50M_RX_DECK, "ANKLE_50M_RX_DECK", 15000021,
                              "twist about the deck's X (down the shank within 9.0 deg): no moment "
                              "within 22.9 deg, then 5000 N m/rad to 500 N m at 28.6")},
    "95m": {
    ("ankle", "x"): ankle_deck("x", ANKLE_95M_RX_DECK, 1, ANKLE_95M_CARD.format(15000025),
                               "derive_hybrid3.py ANKLE_95M_RX_DECK; inversion/eversion about the "
                               "deck's X (forward within 1.4 deg): 0.8 N m at 5.2 deg, then 878 N "
                               "m/rad to 800 N m at 57.3; the deck's damping (90 N m s/rad, its "
                               "viscous lock) not taken"),
    ("ankle", "z"): ankle_deck("z", ANKLE_95M_RZ_DECK, -1, ANKLE_95M_CARD.format(15000026),
                               "derive_hybrid3.py ANKLE_95M_RZ_DECK; twist about the deck's Z "
                               "(down the shank): 0.8 N m at 2.0 deg, then 829 N m/rad to 800 N m "
                               "at 57.3; the deck's damping (90 N m s/rad, its viscous lock) not "
                               "taken")},
    "05f": {
    ("ankle", "x"): ankle_deck("x", ANKLE_XZ_05F_DECK, 1, ANKLE_XZ_05F_CARD.format("rx", 15000029),
                               "derive_hybrid3.py ANKLE_XZ_05F_DECK; inversion/eversion about the "
                               "deck's X (forward within 3.1 deg): 800 N m/rad from the straight "
                               "foot, extrapolated as Radioss does; damping 1.0 N m s/rad [C]",
                               damping=ANKLE_DAMPING_05F_DECK * 1e-3, stops=DUMMY_ROM[("ankle", "x")]),
    ("ankle", "z"): ankle_deck("z", ANKLE_XZ_05F_DECK, -1, ANKLE_XZ_05F_CARD.format("rz", 15000030),
                               "derive_hybrid3.py ANKLE_XZ_05F_DECK; twist about the deck's Z (down "
                               "the shank within 3.1 deg): 800 N m/rad from the straight foot, "
                               "extrapolated as Radioss does; damping 1.0 N m s/rad [C]",
                               damping=ANKLE_DAMPING_05F_DECK * 1e-3, stops=DUMMY_ROM[("ankle", "z")]),
    ("ankle", "y"): (
        dict(dof="y", table=ankle_pitch_05f(), damping=ANKLE_DAMPING_05F_DECK * 1e-3,
             friction_g=1.5,
             src=f"[D] {ANKLE_05F_CARD} as M(q) = -f(-q), q plantar flexion +y, zero at the deck's "
                 "initial foot (derive_hybrid3.py ANKLE_PITCH_05F_DECK); no moment within 13.2 deg "
                 "either way, 5.6 N m at 29.8 deg plantar flexion, then 994 N m/rad to 1000 N m at "
                 "87.1; 6.78 N m at 57.3 deg dorsiflexion, then 493 N m/rad to 500 N m at 114.6; "
                 "damping 1.0 N m s/rad [C] (1000 kN mm ms/rad); friction the Part 572 limb "
                 "setting"),
        (-math.degrees(2.0), math.degrees(1.52),
         "[D] the ends of her deck's tabulated ankle law (-2 / +1.52 rad; the deck has no "
         "theta_min/max), so her deck's law alone carries the ankle within the range it describes; "
         "the 50M's 45 deg dorsiflexion [S: SAE J2949] is not hers"))}}


def rom(joint, dof, kind=None):
    """(lower, upper, source) of a joint dof: the dummy's own figure or the human range."""
    if (joint, dof) in OWN_RESIST.get(kind, {}):
        return OWN_RESIST[kind][(joint, dof)][1]
    if (joint, dof) in DUMMY_ROM:
        return DUMMY_ROM[(joint, dof)]
    import tomllib
    with open(HROM_PATH, "rb") as fh:
        lo, hi = tomllib.load(fh)[joint][dof or "flexion"]
    return lo, hi, "human range [U] from occupant/human/data/joint_rom.toml (sources there)"


# Stops (ATB joint stops; quadratic spring k pen^2 beyond the range plus Hunt-Crossley damping c
# pen rate, occupant/forces/joint_resistance.py). Design [D/E]: a stop holds the segments distal to
# its joint under a design acceleration STOP_DESIGN_G (the distal mass m_d at the distance r_d of
# its centre of mass from the joint centre in the reference posture, both from the segments as the
# dummy's file ships them, shipped_mass_properties) within STOP_PENETRATION_DEG: k = m_d r_d a /
# pen^2. The design acceleration is a multiple of the 20 g demo sled pulse [E] because a swinging
# limb or torso arrives at its stop with the kinetic energy of its free travel, not only its static
# load. 250 g is the round figure with which the unrestrained 50M and 5F on the demo's sled (test
# tests/human/test_joint_stops.py, measured 3.9 and 4.8 deg at worst when the 250 g was chosen;
# 4.29 and 4.77 deg since the stops read the shipped segments, branch stopinertia) stay within the
# stated penetration at every stop: 150 g held the 50M (4.6 deg) but not the 5F (5.2 deg at the
# occipital condyle), 200 g left the 5F at 4.99 deg. The 95M is not held (7.2 deg at its C7/T1
# flexion stop): its untuned open-model neck locks the head-neck joint viscously (90 N m s/rad), so
# head and neck arrive at C7/T1 as one; a stiffer design only creeps (8.4, 7.7, 7.2 deg at 150,
# 200, 250 g), because the stop's damping is capped for the light neck segment. Damping (N m
# s/rad^2, load c pen rate): c = STOP_DAMPING_TIME k [E] -- at a closing rate w and penetration p
# the damping load is w tau / p times the spring's, so a stop hit at a few rad/s dissipates most of
# its arrival energy (rubber bump stops, soft tissue) -- but at most STOP_DAMPING_RATE I_own / 0.1
# rad, I_own the smaller of the own moments of inertia of the joint's two segments about the dof's
# axis through the joint centre (own_inertia, from the shipped CG, principal moments and principal
# axes): at the 0.1 rad penetration at which occupant.integrate.stability rates stops, the damping
# alone then gives that segment a rate of STOP_DAMPING_RATE, so that the light lumbar segment
# between the two torso stops does not drive RK4's stable step (bound 2.5/rate) below the 3.75e-5 s
# the open model's head-neck twist damping already sets [D].
STOP_PENETRATION_DEG = 5.0
STOP_DESIGN_G = 250.0
STOP_DAMPING_TIME = 0.05  # s
STOP_DAMPING_RATE = 5.0e3  # 1/s
STOP_RATING_PEN = 0.1     # rad, occupant.integrate.stability.STOP_PENETRATION


# 50M neck flexion/extension (y) characteristics tuned to the 49 CFR 572.33 pendulum test [C] by
# dummies/tools/tune_neck.py (dead-zone least squares on the twelve corridor figures, from the
# earlier fit on the pendulum without its swing; see scenarios/certification/README.md). Factors multiply the 50M-scaled table branches
# (end: one more on the extension end row, flexion_end on the flexion end row); damping replaces
# the scaled open-model value; friction (Coulomb, N m) is added.
TUNED_50M = {
    ("upper_neck", "y"): dict(damping=1.261, flexion=1.772, extension=0.9794, end=0.4657,
                              flexion_end=2.224, friction=2.194),
    ("lower_neck", "y"): dict(damping=0.8671, flexion=0.5335, extension=2.555, end=0.4657,
                              flexion_end=2.224, friction=0.2478),
}
# Refitted for issue 10 after the head CG moved from 49 to 22.9 mm ahead of the condyle (open FE
# 50M, OVERRIDE_50M): one dead-zone polish from the previous fit (tune_neck.py hybrid3_50m
# --start tuned, 22 evaluations, 82 s), all twelve 572.33 figures inside (largest |residual|
# 0.93). The previous fit (head CG 49 mm): upper neck damping 0.5861, flexion 1.821, extension
# 1.176, friction 1.647; lower neck 0.4808, 0.5177, 3.984, 0.1313; end 0.4314, flexion_end 2.215.
# 5F the same way to the 49 CFR 572.133 pendulum test [C] (python dummies/tools/tune_neck.py
# hybrid3_05f). One more factor, end (both joints): the extension branch's end row (-57.3 deg) is
# multiplied by it on top of the branch factor; without it no fit of the six factors reached the
# extension corridors (tune_neck.py). Refitted for issue 10 (340 s, 39 evaluations, every figure
# at its corridor middle) after the head CG moved from 44 to 21 mm ahead of the condyle (open FE
# 5F, OVERRIDE_05F) and with the neck stops in place (DUMMY_ROM; a first refit with the C7/T1
# extension stop at -50 deg leaned on that stop, so the stop was moved beyond the excursion and the
# fit repeated). Both extension branches stay progressive (end x 0.69 on branches x 0.96 OC and
# x 2.23 C7/T1; it was end x 1.95 with the 95M-scaled head CG).
# Refitted again (stop 45) for her neck as built from her FE deck's joint springs (SPINE_05F: the
# neck-chest to head-neck joint 134.0 mm, 10.5 mm longer): the issue-10 fit (upper neck damping
# 0.1831, flexion 0.487, extension 0.9585; lower neck 0.3481, 1.374, 2.234; end 0.688) rotated
# her head 88.2 deg in flexion (77-91) with 81.6 N m (69-83). The fit from START (tune_neck.py
# hybrid3_05f: six numbers, the lower neck's damping held at 1.0 [E], see its docstring; 9
# evaluations, 69 s) puts every one of the six figures at its corridor middle. Both extension
# branches stay progressive (end x 0.905 on branches x 0.690 OC and x 2.02 C7/T1).
TUNED_05F = {
    ("upper_neck", "y"): dict(damping=0.144, flexion=0.5438, extension=0.6902, end=0.905),
    ("lower_neck", "y"): dict(damping=1.0, flexion=1.165, extension=2.024, end=0.905),
}
# 95M: no Part 572 subpart, so no pendulum corridor. Its open-model neck locked the head-neck
# joint viscously (90 N m s/rad), so head and neck struck the C7/T1 flexion stop as one body and
# passed it by 7.2 deg on the demo's sled (the stop design holds 5 deg). The 95M takes the 50M's
# tuned neck instead, scaled as Mertz, Irwin, Melvin (SAE 890756) built the 95M from the 50M:
# branch factors on the open model's 95M curves as they stand (that is the tuned 50M moments x
# (1.88/1.753)^3), damping x L^4, friction x L^3 [D].
LAM_95_50 = 1.88 / 1.753
TUNED_95M = {key: dict(val, damping=val["damping"] * LAM_95_50 ** 4,
                       **({"friction": val["friction"] * LAM_95_50 ** 3} if "friction" in val else {}))
             for key, val in TUNED_50M.items()}
TUNED = {"50m": (TUNED_50M, "tuned to the 49 CFR 572.33 pendulum test"),
         "05f": (TUNED_05F, "tuned to the 49 CFR 572.133 pendulum test"),
         "95m": (TUNED_95M, "the 50M's 572.33 tuning scaled to the 95M (Mertz scaling, SAE 890756) [D]")}


def tuned_table(table, ms, tuned):
    """(deg, N m) rows of a scaled table with the tuned branch factors (and the end-row factors
    of the extension and flexion branches, if any) applied."""
    rows = []
    for k, (a, t) in enumerate(table):
        f = tuned["flexion"] if t > 0 else tuned["extension"]
        if k == 0 and t < 0:
            f *= tuned.get("end", 1.0)
        if k == len(table) - 1 and t > 0:
            f *= tuned.get("flexion_end", 1.0)
        rows.append(f"[{fmt(a, 4)}, {fmt(t * ms * f, 4)}]")
    return ", ".join(rows)


def tuned_factors(tuned):
    """Words for the comment on a tuned table."""
    words = (f"flexion (+) branch x {tuned['flexion']:.4g}, "
             f"extension (-) branch x {tuned['extension']:.4g}")
    if "end" in tuned:
        words += f", extension end row x {tuned['end']:.4g} more"
    if "flexion_end" in tuned:
        words += f", flexion end row x {tuned['flexion_end']:.4g} more"
    return words


def fmt(v, nd=5):
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(fmt(x, nd) for x in v) + "]"
    s = f"{float(v):.{nd}g}"
    if "e" not in s and "." not in s:
        s += ".0"
    return s


def region_factors(kind):
    """Length factor per region relative to the 95M base, and a description."""
    if kind == "95m":
        return {"torso": 1.0, "arm": 1.0, "leg": 1.0}, "95M base geometry"
    lam50 = 1.753 / 1.88
    if kind == "50m":
        return {"torso": lam50, "arm": lam50, "leg": lam50}, \
            "lambda = 1.753/1.88 = %.4f (stature ratio 50M [C] / 95M [U])" % lam50
    ls, lh, ll = 0.787 / 0.884, 1.501 / 1.753, (1.501 - 0.787) / (1.753 - 0.884)
    return {"torso": lam50 * ls, "arm": lam50 * lh, "leg": lam50 * ll}, \
        ("from the 50M: torso/head/neck x %.4f (sitting-height ratio [C]), arms x %.4f (stature "
         "ratio [C]), legs x %.4f (leg-length ratio [C]); 50M = 95M x %.4f" % (ls, lh, ll, lam50))


# 95M total: 223 lb = 101.2 kg [U] (Wikipedia 'Hybrid III', secondary; crash-domain-facts.md 1.1;
# no Part 572 subpart exists for the 95M and neither the Humanetics 95M page nor Mertz et al. SAE
# 890756 was readable). The open model's rigid bodies sum to 98.63 kg (its 31 joint springs carry
# 3.85 kg more, H3SD 1.4), so its segment masses are scaled to 101.2 kg as the 50M and 5F are to
# their published totals.
M95_TOTAL = 101.2
M95_TOTAL_SRC = "[U] 223 lb, Wikipedia 'Hybrid III' (secondary)"

# 5F mass properties from the open finite-element Hybrid III 5th female (OpenRadioss
# ModelExchange Hybrid_III_05th_Percentile deck, CC BY-NC 4.0; figures derived by summing its
# elements' and rigid bodies' masses, given to us in issue 10 section 3; only these derived
# figures are used) [S]. They replace the 95M-scaled values (which they show 29-39 % too large for
# the 5F's slimmer upper torso and forearm, and its head CG 2x too far forward). The masses stay
# NHTSA's [C]: the FE model's pelvis + lumbar (10.7 kg) is bounded differently from NHTSA's
# "lower torso" (13.24 kg, the weighed physical assembly); the difference is not resolved here.
FE05 = "[S] open FE HIII 5F (OpenRadioss ModelExchange, CC BY-NC; derived figure, issue 10 s. 3)"
OVERRIDE_05F = {
    "upper_torso": dict(inertia=(0.131, 0.098, 0.087),
                        src=f"{FE05}: principal moments 0.131/0.098/0.087, largest about x as in "
                            "the 95M (was 0.184/0.146/0.125 scaled from the 95M)"),
    "lower_arm": dict(inertia_transverse=0.0112,
                      src=f"{FE05}: lower arm + hand transverse 0.0112 (was 0.0183 scaled from the "
                          "95M); axial moment still scaled from the 95M [D]"),
    "lower_leg": dict(inertia_transverse=LOWER_LEG_05F_MASS["inertia_transverse"],
                      deck_mass=LOWER_LEG_05F_MASS["mass"],
                      src=f"{LOWER_LEG_05F_MASS_SRC}: x and y moments {LOWER_LEG_05F_MASS['inertia_transverse'][0]} "
                          f"/ {LOWER_LEG_05F_MASS['inertia_transverse'][1]} at its {LOWER_LEG_05F_MASS['mass']} "
                          "kg, times her mass over it; was the 95M's lumped tibia scaled, 0.0359); axial "
                          "moment the 95M's scaled [D] (the deck's, 0.0006, holds only its skin: its "
                          "tibia's masses are points within 8 mm of the axis)"),
    "foot": dict(inertia=FOOT_05F_MASS["inertia"],
                 src=f"{FOOT_05F_MASS_SRC}; the springs' nodal inertia left out; was the 95M's "
                     "scaled, 0.00036 / 0.00296 / 0.00321, in his foot frame)"),
    "head": dict(com_x=0.021,
                 src=f"{FE05}: head CG 15-27 mm ahead of the head-neck joint, middle 21 mm (was 44 "
                     "mm scaled from the 95M); height above the OC still scaled from the 95M [D]"),
}

# The 50M's landmarks on its pelvis, in its pelvis frame (origin the H-point). The anterior superior
# iliac spine (ASIS; the left, the right its mirror image): the pelvis bone's anterior-superior
# corner, where its iliac crest (124 mm above the H-point at 49-70 mm behind, 126 mm out) turns
# down into the wing's front edge, rim node 15000280 at (8.9, 108.4, 108.8) mm from the H-point
# [S: OpenRadioss ModelExchange Safety/Hybrid_III_50th_Percentile/SET_Modelling/
# Hybrid_III_50TH_0000.rad (SISW 2026, CC BY-NC 4.0, facts only), part 15000001
# H350_PART_LOW_TORSO_PELVIS_BONE_RG; H-point node 15040164 (joined to the /HPOINT node 15040160),
# midway between the hip joint nodes 15040168 / 15040176; deck X rearward, Y right, Z up, so
# x = -X, y = -Y: the deck's axes are the pelvis frame's (its /HPOINT card reads 0, 0, 0; its
# lumbar joint lies 34.3 deg above rearward of the H-point there as in this file)]. The lap
# belt's wrap crown stands at its height (occupant.scenario.restraints.lap_belt_pelvis), and the
# parametric human's lap-belt surface takes it scaled (the same function).
# The 95M: its open deck (RG_Articulated_Hybrid_III_95TH) is rigid and has the pelvis's flesh
# shell only (part 15000004 PELVIS), no bone, so its ASIS is the 50M's scaled by the 95M/50M
# length ratio 1/lambda (the rule every 50M length follows here, region_factors) [D].
# Checked again (branch dummyfit): none of the deck's 80 parts is a bone (15000003 LOWER TORSO
# and 15000004 PELVIS are shells, 15000072 a null contact shell, the rest head, neck, torso,
# limbs, joints and visual beams); its lumbar joint spring's node 15005193 reads (-88.4, 0,
# 60.4) mm from the H-point (nodes 15005209 / 15005213 midway) as this file's (-88, 0, 60), so
# the axes agree.
# The pelvis shell's front stands 50 mm ahead of the scaled ASIS at its height and breadth
# (59.5 mm ahead of the H-point; 109.5 at the midline) and its side 44 mm outboard of it; the
# open FE 5F's skin stands 21 mm ahead of her measured ASIS (26.1 against 4.7). So the scaled
# ASIS lies under 2.4 times her flesh depth: it may stand 20-30 mm too far back if his flesh
# there is hers scaled, which the rigid shell (a visual surface, 642 facets) cannot settle.
ASIS_50M = (0.0089, 0.1084, 0.1088)   # m, see above
ASIS_SRC_50M = ("[S] open FE HIII 50M (OpenRadioss ModelExchange, CC BY-NC): the pelvis bone's "
                "anterior-superior corner, node 15000280, from the H-point node 15040164 "
                "(derive_hybrid3.py ASIS_50M)")


def pelvis_markers(kind):
    """The [[segment.marker]] landmarks of the pelvis of dummy ``kind``."""
    if kind == "05f":
        return MARKERS_05F["pelvis"]
    if kind == "50m":
        return [dict(name="left_asis", position=ASIS_50M, src=ASIS_SRC_50M)]
    f = region_factors("95m")[0]["torso"] / region_factors("50m")[0]["torso"]
    return [dict(name="left_asis", position=tuple(f * x for x in ASIS_50M),
                 src=f"[D] the 50M's ASIS x {f:.4f} (95M/50M length ratio): the rigid open FE "
                     "95M has no pelvis bone (derive_hybrid3.py ASIS_50M)")]


# The 5F's landmarks on her own pelvis (not scaled from the 50M), in her pelvis frame (origin the
# H-point). The anterior superior iliac spine (ASIS; the left, the right its mirror image): the open
# FE 5F's pelvis bone's anterior-superior corner, where its iliac crest (82.6-89.9 mm above the
# H-point) turns down into the wing's front edge, rim node 15004103 (its wing's outer face, node
# 15004104, at (2.1, 107.9, 74.1) mm; the mirror node 15005174 at y -98.3) [S: OpenRadioss
# ModelExchange Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, CC BY-NC 4.0, facts
# only: part 15000039 H305_PART_PELVIS_BONE_RGBD; H-point node 15003990, midway between the hip
# joint nodes 15004032 / 15004035; axes those of the /HPOINT card's skew 15000031, its x forward
# and 9.8 deg above the deck's (Ry 9.8): the deck seats the dummy reclined by that much, so in the
# skew's axes her head-neck and neck-chest joints lie over the H-point as this file's (33 / 58 mm
# behind against 5 / 39; 128 / 130 mm behind in the deck's axes)]. The lap belt's wrap crown
# stands at its height (occupant.scenario.restraints.lap_belt_pelvis).
MARKERS_05F = {"pelvis": [dict(name="left_asis", position=(0.0047, 0.0983, 0.0762),
                               src="[S] open FE HIII 5F (OpenRadioss ModelExchange, CC BY-NC): "
                                   "the pelvis bone's anterior-superior corner, node 15004103, "
                                   "in the /HPOINT skew's axes (derive_hybrid3.py MARKERS_05F)")]}

# The 5F's hip joints, her own (not scaled from the 95M's 0.176 m by the leg-length ratio, which
# gave 0.1348 m): the open FE 5F's hip joint springs 15005370 ("Left HIP", node 15004032 at
# (-306.0, -685.83, 341.0) mm) and 15005371 (right, node 15004035 at (-306.0, -522.17, 341.0))
# lie 163.66 mm apart across the deck's Y, level and abreast, the H-point node 15003990 midway
# [S: OpenRadioss ModelExchange Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit
# 86dbea3, CC BY-NC 4.0, facts only]. Its knees (springs 15005372 / 15005373) and ankles (15005374
# / 15005375) stand at the same |Y| (the legs parallel), and the thigh skin (parts 15000023 /
# 15000024) spans 9.2-154.0 mm from the midline, centred 81.6 mm out. No primary figure (the
# Part 572 subpart O drawings, the 5F user's manual, SAE J2856) was found in the store; the NHTSA
# 5F page's stored excerpt ends before its external dimensions' hip rows.
# Her femur and shank, her own too (not the 95M's 0.441 / 0.435 m scaled by the leg-length ratio,
# 337.9 / 333.3 mm): the same deck's knee joint springs 15005372 / 15005373 (nodes 15004033 /
# 15004036 at (-647.05, -685.83 / -522.17, 366.26) mm) stand 341.99 mm from the hip nodes, and
# its ankle joint springs 15005374 / 15005375 (nodes 15004034 / 15004037 at (-795.23, -685.83 /
# -522.17, 58.60) mm) 341.48 mm from the knee nodes, both sides alike [S, same deck and commit].
# Seated in the deck her femur runs 5.6 deg below the /HPOINT skew's x axis and her shank 25.7
# deg ahead of the deck's vertical: only the lengths carry over (the posture is the scenario's).
# The shells that hang from the knee follow it (thigh_shell_05f, knee_pad_05f, the femur load
# cell, markers); the shank shell is stretched along the shank with it (shank_shell_05f).
JOINTS_05F = {"hip": dict(location=(0.0, 0.08183, 0.0),
                          src="[S] hip spacing 163.66 mm: open FE HIII 5F (OpenRadioss "
                              "ModelExchange, commit 86dbea3, CC BY-NC), hip joint springs "
                              "15005370 / 15005371 (derive_hybrid3.py JOINTS_05F; was the 95M's "
                              "0.176 m x the leg-length ratio, 134.8 mm)"),
              "knee": dict(location=(0.0, 0.0, -0.34199),
                           src="[S] hip-knee length 341.99 mm: open FE HIII 5F (OpenRadioss "
                               "ModelExchange, commit 86dbea3, CC BY-NC), hip and knee joint "
                               "springs 15005370 / 15005372 (derive_hybrid3.py JOINTS_05F; was "
                               "the 95M's 0.441 m x the leg-length ratio, 337.9 mm); axis +y so "
                               "that flexion is positive"),
              "ankle": dict(location=(0.0, 0.0, -0.34148),
                            src="[S] knee-ankle length 341.48 mm: open FE HIII 5F (OpenRadioss "
                                "ModelExchange, commit 86dbea3, CC BY-NC), knee and ankle joint "
                                "springs 15005372 / 15005374 (derive_hybrid3.py JOINTS_05F; was "
                                "the 95M's 0.435 m x the leg-length ratio, 333.3 mm)")}


# Her spine, her own (not the 95M rigid model's scaled by her sitting-height ratio): the open FE
# 5F's spine joint springs, in her pelvis frame (the /HPOINT skew 15000031's axes from the H-point
# node 15003990, as MARKERS_05F), x forward and z up, mm [S: OpenRadioss ModelExchange
# Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts
# only; its SET_Modelling/ version has the same nodes]: lower spine 15005380 (node 15006157, the
# butyl lumbar column's bottom), upper spine 15005381 (node 15006159, its top), neck-chest
# 15005382 (node 15003992), head-neck 15005383 (node 15003993). The file had (-73.0, 49.8),
# (-95.5, 187.6), (-39.0, 433.3), (-5.0, 552.0): the FE spine lies 19-29 mm further back, its
# lumbar column 108.2 mm long against 140.0, its thorax (upper spine to neck-chest) 276.6 against
# 252.1, its neck 134.0 against 123.5.
SPINE_05F = {"lumbar_pelvis": (-102.55, 52.98), "thorax_lumbar": (-120.39, 159.66),
             "lower_neck": (-57.71, 429.00), "upper_neck": (-33.29, 560.76)}   # mm [S], see above
SPINE_05F_SRC = {"lumbar_pelvis": "lower spine joint spring 15005380",
                 "thorax_lumbar": "upper spine joint spring 15005381",
                 "lower_neck": "neck-chest joint spring 15005382",
                 "upper_neck": "head-neck joint spring 15005383"}
SPINE_05F_PARENT = {"thorax_lumbar": "lumbar_pelvis", "lower_neck": "thorax_lumbar",
                    "upper_neck": "lower_neck"}
for _j, (_x, _z) in SPINE_05F.items():
    _px, _pz = SPINE_05F.get(SPINE_05F_PARENT.get(_j), (0.0, 0.0))
    JOINTS_05F[_j] = dict(location=(round((_x - _px) / 1000.0, 5), 0.0, round((_z - _pz) / 1000.0, 5)),
                          src=f"[S] open FE HIII 5F (OpenRadioss ModelExchange, commit 86dbea3, CC "
                              f"BY-NC): its {SPINE_05F_SRC[_j]} at ({_x}, 0, {_z}) mm in her pelvis "
                              "frame (derive_hybrid3.py SPINE_05F)")
# Her lumbar spine's and thorax's bodies stay where they were in her body when their joints move
# to the FE's places (the abdomen and thorax ellipsoids, the upper torso's CG, the sternum and the
# shoulders: the outside shape does not move); her neck and head move with their joints (their
# ellipsoids and CGs keep their places from the neck-chest and head-neck joints): in the same
# axes the FE's neck (part 15000002, the vertebral rubber) spans x -90.9 to -3.1 mm, its centre
# 22 mm behind the file's neck shell's, and its head skin (part 15000001) x -106.8 to 92.0 mm, z
# up to 704.7 mm, where the file's head had -80.4 to 115.4 mm, 689.0 [S, same deck]: moved with
# the head-neck joint, -108.7 to 87.1, 697.8.
KEPT_IN_BODY_05F = ("lumbar", "upper_torso")
# Her lumbar's CG, her own: the volume centroid of the FE's butyl lumbar column (part 15000035,
# 189 nodes, 346.0 cm^3 at 1.4e-6 kg/mm^3, 0.484 kg), (-112.8, 0, 103.8) mm in her pelvis frame
# [D from S, same deck]; with its end plates (rigid bodies 15003986 / 15003985, 0.3 kg each at
# their main nodes) the lumbar's 1.08 kg centre lies within 0.6 mm of it. The file had the 95M's
# scaled, (-95.5, 0, 123.7) mm. Its mass stays NHTSA's lower torso split [C, D].
COM_05F = {"lumbar": dict(position=(-112.8, 0.0, 103.8),
                          src="[D] the volume centroid of the open FE HIII 5F's butyl lumbar column "
                              "(part 15000035; OpenRadioss ModelExchange, commit 86dbea3, CC BY-NC), "
                              "(-112.8, 0, 103.8) mm in her pelvis frame (derive_hybrid3.py COM_05F; "
                              "was the 95M's scaled, 19 mm higher and 17 mm further forward)"),
           # in the lower leg's own frame (about the knee), m
           "lower_leg": dict(local=LOWER_LEG_05F_MASS["com"],
                             src=f"{LOWER_LEG_05F_MASS_SRC}; was the 95M's lumped tibia scaled, (0, 0, "
                                 "-147.1) mm)"),
           # in the foot's own frame (about the ankle), m
           "foot": dict(local=FOOT_05F_MASS["com"],
                        src=f"{FOOT_05F_MASS_SRC}; was the 95M's scaled, (38.3, 0, -26.1) mm, in his "
                            "foot frame, his tibia turned 52.9 deg to vertical)")}


KEPT_NOTE = ("; kept in place in her body when her spine's joints moved to the open FE 5F's "
             "(derive_hybrid3.py KEPT_IN_BODY_05F)")


def _origin(name, location):
    """Origin of segment ``name`` in the pelvis frame (m): the sum of ``location(segment)``, its
    joint's place in its parent's frame, down the chain from the pelvis."""
    seg = {s["name"]: s for s in BASE}
    out = np.zeros(3)
    while seg[name]["parent"]:
        out = out + location(seg[name])
        name = seg[name]["parent"]
    return out


def segment_origin(kind, name, lam):
    """Origin of segment ``name`` in the pelvis frame (m) for dummy ``kind``."""
    return _origin(name, lambda s: joint_location(kind, s, lam)[0])


def body_shift(kind, name, lam):
    """What keeps segment ``name``'s body (its CG, its ellipsoids, its other children's joints)
    where the 95M's scaled frame had it in the body when its joint moved (KEPT_IN_BODY_05F): the
    old origin less the new one, m in its frame; zero for every other segment [D]."""
    if kind != "05f" or name not in KEPT_IN_BODY_05F:
        return np.zeros(3)
    scaled = _origin(name, lambda s: np.multiply(s["joint"]["location"], lam[s["region"]]))
    return scaled - segment_origin(kind, name, lam)


def joint_location(kind, seg, lam):
    """(location in the parent frame in m, source) of segment ``seg``'s joint for dummy ``kind``:
    the dummy's own figure where it has one (JOINTS_05F), else the 95M's scaled by the region's
    length factor in ``lam``, kept in place in the body where its parent's joint moved
    (body_shift)."""
    j = seg["joint"]
    own = {"05f": JOINTS_05F}.get(kind, {}).get(j["name"])
    if own is not None:
        return np.array(own["location"], dtype=float), own["src"]
    at = np.multiply(j["location"], lam[seg["region"]])
    shift = body_shift(kind, seg["parent"], lam) if seg["parent"] else np.zeros(3)
    return (at + shift, j["src"] + KEPT_NOTE) if shift.any() else (at, j["src"])


def com_location(kind, seg, lam):
    """(CG of segment ``seg`` in its frame in m, source) for dummy ``kind``: its own figure where it
    has one (COM_05F, given in the pelvis frame), else the 95M's scaled, kept in place in the
    body (body_shift)."""
    own = {"05f": COM_05F}.get(kind, {}).get(seg["name"])
    if own is not None and "local" in own:
        return np.array(own["local"], dtype=float), own["src"]
    if own is not None:
        return (np.array(own["position"]) / 1000.0 - segment_origin(kind, seg["name"], lam),
                own["src"])
    L = lam[seg["region"]]
    at = np.multiply(seg["com"], L)
    src = f"{seg['com_src']}; x {L:.4f}"
    shift = body_shift(kind, seg["name"], lam)
    return (at + shift, src + KEPT_NOTE) if shift.any() else (at, src)


# The 5F's lap belt pelvis (occupant.scenario.restraints.lap_belt_pelvis takes an occupant's own
# ``lap_belt_pelvis`` where its file has one): the 50M's LAP_BELT_PELVIS scaled to her pelvis
# flesh reached 151 mm ahead of her H-point and put her lap belt's wraps 87-106 mm ahead of it,
# where the open FE 5F's skin stands 25-35 mm ahead beside her ASIS. Its crown stays at her ASIS
# (MARKERS_05F, 76.2 mm up) and its vertical semi-axis the 50M's scaled, 71.2 mm [E]; its
# fore-aft centre and semi-axis and its half-width are fitted (least squares on x) to the front of
# her skin where the belt lies, 30-60 mm above the H-point and within 120 mm of the midline
# (91 points on a 10 x 5 mm grid, each the foremost crossing of a fore-aft line with the outer
# surfaces of parts 15000037 / 15000058 (pelvis skin, shell and solid), 15000038 (pelvis foam),
# 15000041 / 15000042 (abdomen skin and foam), in the /HPOINT skew's axes as MARKERS_05F): rms
# 11.4 mm, at most 26.6 mm off (both in the fitted band) [S: OpenRadioss ModelExchange
# Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts
# only]. That skin, ahead of the H-point, mm (skin / this ellipsoid): at the midline 73-74 / 79-67
# over 30-50 mm up; 100 mm out 48-30 / 55-33 (the ASIS 4.7 mm ahead there); 120 mm out 13-4 /
# 39-7. Above 60 mm the ellipsoid's front falls back to its crown while the skin stays within 10
# mm of its front to 80 mm up (73 -> 70 at the midline): the belt meets the skin's front lower
# down and the crown above the bone.
LAP_BELT_SEMI_Z_05F = 0.0712   # m [E] LAP_BELT_PELVIS's 0.08 x her scaled pelvis flesh's 0.1469 / 0.165

# The 5F's pelvis flesh (her pelvis's contact surface with the seat, the seat back and other
# bodies) and thigh shells, her own: the 95M's shells scaled to her reached 139 mm ahead of her
# H-point and 174 mm above it, and her thighs were 67.4 mm half-wide against the FE skin's 70.
# Each is fitted by least squares (the distance from the surface point to the ellipsoid along the
# line to its centre) to the outer surface of the open FE 5F's skin [S: OpenRadioss ModelExchange
# Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts
# only], in her pelvis frame (the /HPOINT skew's axes, origin the H-point node 15003990, as
# MARKERS_05F) and her femur's:
# - pelvis_flesh: the farthest crossing with the outer faces of parts 15000037 / 15000058 (pelvis
#   skin, shell and solid) of 3000 rays (evenly spread directions) from (-30, 0, 0) mm; 2271 hit
#   (the rest leave through the openings at the waist and the thighs). Centre x and z and the
#   three semi-axes free: rms 16.4 mm, at most 54.8, mean -0.2 (the scaled one: rms 28.2, mean
#   -12.1: 31 mm outside the skin above 60 mm up, 25 ahead of it). Her skin, mm from the H-point
#   (skin / this ellipsoid / the scaled one): front at the midline 0 / 30 / 60 mm up 72 / 73 / 74,
#   102 / 98 / 81, 134 / 139 / 138; back at the midline 30 mm up -140 / -149 / -154; bottom 50
#   mm out, 0 / 50 mm behind, -87 / -84, -90 / -90, -92 / -86 (lowest -93.6 / -96.8 / -97.9);
#   half-width 152 (greatest) / 166 / 174; top 98.4 (the solid skin's) / 105 / 174 (the abdomen
#   carries the front above it).
# - thigh_shell: the farthest crossing with the outer faces of part 15000023 (left thigh skin)
#   of rays square to the hip-knee line (hip spring node 15004032 to knee spring node 15004033,
#   342.0 mm) every 10 deg round it from 110 to 330 mm down the line (774 hit); its distal pole
#   on the knee centre as before (the knee pad takes the knee), its length, half-width,
#   half-thickness and its centre's offset square to the femur in the leg's plane fitted: rms
#   10.5 mm, at most 31.8, mean 0.2 (the scaled one, 95-338 mm down the line: rms 14.1, 41.9,
#   2.5). Her skin's section 150 / 200 / 250 / 300 mm down the line: 70.2 / 68.7 / 65.8 / 56.9
#   mm half-wide, from -68 / -58 / -47 / -35 mm (below the line) to 57 / 65 / 71 / 63 (the
#   ellipsoid: 71.3 / 74.6 / 69.1 / 52.1 half-wide, -60 / -63 / -58 / -43 to 68 / 71 / 66 / 51).
#   In the file her femur is 337.9 mm (the 95M's scaled): the shell is placed from its knee
#   centre.
THIGH_05F = dict(semi_along=0.1482, half_width=0.0747, half_thickness=0.0669, offset=0.0038)  # m [S]
PELVIS_FLESH_05F = dict(
    name="pelvis_flesh", center=(-0.0256, 0.0, 0.0040), semi=(0.1277, 0.1664, 0.1007),
    src="[S] least-squares ellipsoid through the outer surface of the open FE HIII 5F's pelvis "
        "skin, parts 15000037 / 15000058 (OpenRadioss ModelExchange, commit 86dbea3, CC BY-NC; "
        "derive_hybrid3.py PELVIS_FLESH_05F: rms 16.4 mm); was the 95M's pelvis shell scaled, "
        "its front 139 mm ahead of the H-point where her skin's is 72-74")
# The 5F's buttocks: her skin's underside is flat, 86-94 mm below her H-point from 60 mm behind it
# to its seam with the thighs 92 mm ahead and 40-110 mm out (lowest 93.5 mm at 80 mm ahead, 70
# mm out), where pelvis_flesh, one ellipsoid (its lowest 96.7 mm below at 26 mm behind), stands
# 8-95 mm above the skin 40-80 mm ahead and 40-110 mm out. A pair of ellipsoids, the left
# and its mirror image, fitted to that underside by dummies/tools/fit_buttock.py (the lowest
# crossing of a downward line with the faces of parts 15000037 / 15000058 on a 10 mm grid, x -60
# to 80 mm, y 0 to 140 mm, 224 points; least squares on z of the lower of the pair; front at most
# at the seam, 92 mm) [S: OpenRadioss ModelExchange Safety/Hybrid_III_05th_Percentile/
# Hybrid_III_05TH_0000.rad, commit 86dbea3, CC BY-NC 4.0, facts only; her pelvis frame as
# MARKERS_05F]: rms 5.5 mm, mean 0.0; 45 mm at most, where the skin rises between her thighs at
# the midline 70 mm ahead, outside the pair's footprints (pelvis_flesh on the same points: rms
# 29.4 mm, mean +12.6). The seat cushion bears on them (euro_ncap_full_width_50), pelvis_flesh still on
# the seat back, the door and the bags.
BUTTOCK_05F = dict(center=(-0.0185, 0.0738, -0.0667), semi=(0.1112, 0.0607, 0.0225), pitch_deg=6.9)  # m [S]
BUTTOCK_05F_SRC = ("[S] least-squares fit to the underside of the open FE HIII 5F's pelvis skin, parts "
                   "15000037 / 15000058, 60 mm behind to 80 mm ahead of the H-point (OpenRadioss "
                   "ModelExchange, commit 86dbea3, CC BY-NC; dummies/tools/fit_buttock.py, derive_hybrid3.py "
                   "BUTTOCK_05F: rms 5.5 mm, pelvis_flesh's 29.4); pitched {:.1f} deg front down; the {} "
                   "side's, the other its mirror image")
BUTTOCKS_05F = [dict(name=f"{side}_buttock", center=(BUTTOCK_05F["center"][0], sign * BUTTOCK_05F["center"][1],
                                                     BUTTOCK_05F["center"][2]),
                     semi=BUTTOCK_05F["semi"], orient=(0.0, BUTTOCK_05F["pitch_deg"], 0.0),
                     src=BUTTOCK_05F_SRC.format(BUTTOCK_05F["pitch_deg"], side))
                for side, sign in (("left", 1.0), ("right", -1.0))]
ELLIPSOIDS_05F = {"pelvis": [dict(
    name="lap_belt_pelvis", semi=(0.0772, 0.1428, LAP_BELT_SEMI_Z_05F),
    center=(0.0071, 0.0, MARKERS_05F["pelvis"][0]["position"][2] - LAP_BELT_SEMI_Z_05F),
    src="[S] the lap belt's wrap on her pelvis: its crown at her left_asis height, its front fitted "
        "to the open FE HIII 5F's skin 30-60 mm above the H-point (OpenRadioss ModelExchange, "
        "commit 86dbea3, CC BY-NC; derive_hybrid3.py ELLIPSOIDS_05F: rms 11.4 mm); vertical "
        "semi-axis the 50M's scaled [E] (was the 50M's LAP_BELT_PELVIS scaled to her, its front "
        "151 mm ahead of the H-point)"),
    PELVIS_FLESH_05F, *BUTTOCKS_05F]}


def thigh_shell_05f():
    """The 5F's own thigh shell (THIGH_05F) in her upper leg's frame, its distal pole on her
    own knee centre (JOINTS_05F)."""
    knee = -JOINTS_05F["knee"]["location"][2]
    t = THIGH_05F
    return dict(name="thigh_shell", center=(t["offset"], 0.0, -(knee - t["semi_along"])),
                semi=(t["half_thickness"], t["half_width"], t["semi_along"]),
                src="[S] least-squares ellipsoid through the outer surface of the open FE HIII "
                    "5F's thigh skin, part 15000023 (OpenRadioss ModelExchange, commit 86dbea3, "
                    "CC BY-NC; derive_hybrid3.py THIGH_05F: rms 10.5 mm), its distal pole on the "
                    "knee centre; was the 95M's upper-leg shell scaled, 67.4 mm half-wide "
                    "against her skin's 70")


def along_own_limb_05f(segment, name):
    """The 95M ellipsoid ``name`` of ``segment`` scaled to the 5F across her limb (the leg factor)
    and placed along it by her own joint: its centre and semi-axis along the limb (z) scaled by
    her own joint's distance over the 95M's (JOINTS_05F: the knee for the knee pad, whose centre
    is the knee centre; the ankle for the shank shell, which spans the shank) [D]."""
    base = next(s for s in BASE if s["name"] == segment)
    e = next(x for x in base["ellipsoids"] if x["name"] == name)
    L = region_factors("05f")[0]["leg"]
    if segment == "upper_leg":
        ratio = JOINTS_05F["knee"]["location"][2] / next(
            s for s in BASE if s["name"] == "lower_leg")["joint"]["location"][2]
        semi_z = e["semi"][2] * L   # the knee's own size: only its place follows the knee
    else:
        ratio = JOINTS_05F["ankle"]["location"][2] / next(
            s for s in BASE if s["name"] == "foot")["joint"]["location"][2]
        semi_z = e["semi"][2] * ratio
    return dict(name=name, center=(e["center"][0] * L, e["center"][1] * L, e["center"][2] * ratio),
                semi=(e["semi"][0] * L, e["semi"][1] * L, semi_z),
                src=e["src"] + f"; x {L:.4f} across, placed along her own "
                     + ("knee (derive_hybrid3.py JOINTS_05F)" if segment == "upper_leg" else
                        "shank: along it x her knee-ankle length over the 95M's "
                        "(derive_hybrid3.py JOINTS_05F)") + " [D]")


def own_ellipsoids(kind, segment):
    """The ellipsoids dummy ``kind`` has of its own on ``segment`` (not scaled from the 95M)."""
    if kind != "05f":
        return []
    own = {"upper_leg": [thigh_shell_05f(), along_own_limb_05f("upper_leg", "knee_pad")],
           "lower_leg": [along_own_limb_05f("lower_leg", "shank_shell")],
           "foot": [dict(name="foot_shell", center=FOREFOOT_05F["center"], semi=FOREFOOT_05F["semi"],
                         orient=(0.0, FOREFOOT_05F["pitch_deg"], 0.0),
                         src=FOOT_05F_SRC.format("ahead of the arch", "FOREFOOT_05F")),
                    dict(name="heel", center=HEEL_05F["center"], semi=HEEL_05F["semi"],
                         src=FOOT_05F_SRC.format("behind the arch", "HEEL_05F"))]}
    return ELLIPSOIDS_05F.get(segment, []) + own.get(segment, [])


# The femur load cell's measuring point (the point its moments are taken about), as the distance
# d above the knee's pivot along the femur (the hip-knee line), one per deck [S: OpenRadioss
# ModelExchange, CC BY-NC 4.0, facts only; deck X rearward]: in each deck the femur load cell is
# a rigid spring between the femur and the knee, its two nodes at one point, and the knee is the
# revolute joint spring between the upper and lower leg.
# - 50M (Safety/Hybrid_III_50th_Percentile/SET_Modelling/Hybrid_III_50TH_0000.rad, read by offset
#   through the file index): /TH/SPRING "D0FEMRLE00H3FO" = spring 15059099 of part 15000104
#   H350_PART_LOAD_CELL_FEMUR_LEFT_RG, nodes 15040396 / 15040400 at (-406.37, 73.61, 162.95) mm;
#   the knee spring 15059126 (H350_PART_LEFT_LOWER_LEG_REVOLUTE_JOINT), nodes 15040264 / 15040268
#   at (-513.51, 73.61, 176.11); the hip spring 15059110, node 15040172 at (-120.0, 82.69,
#   120.0): 107.9 mm along the 397.6 mm hip-knee line, 3.2 mm off it; the right side the same.
# - 5F (Safety/Hybrid_III_05th_Percentile/Hybrid_III_05TH_0000.rad): /TH/SPRING "Left Femur" =
#   spring 15005364 (part 15000062 H305_PART_FEMUR_L_RIGID_SPR), nodes 15005551 / 15005552 at
#   (-547.26, -685.83, 352.75); "Left KNEE" spring 15005372, node 15004033 at (-647.05, -685.83,
#   366.26); "Left HIP" spring 15005370, node 15004032 at (-306.0, -685.83, 341.0): 100.5 mm
#   along the 342.0 mm line, 6.1 mm below it (the cell's skew 15000034 is 8.6 deg off the line).
# - 95M (Safety/Hybrid_III_95th_RG_Articulated/RG_Articulated_Hybrid_III_95TH_0000.rad):
#   "Left Femur" spring 15005168 (part 15000033 FEMUR_L RIGID SPR), node 15005258 at (-607.89,
#   -716.78, 391.51); "Left KNEE" spring 15005176, node 15005210 at (-723.86, -715.38, 409.87);
#   "Left HIP" spring 15005174, node 15005209 at (-289.0, -700.0, 341.0): 117.3 mm along the
#   440.6 mm line, 5.5 mm outboard of it (its skew 15000037 along the line).
# The few mm off the line differ in direction from deck to deck and are not carried: the cell's
# point is put on this file's femur axis, its axes the deck's cell axes (FEMUR_CELL_NODES). d is
# each deck's own (a distance in the knee's hardware, not scaled); the default femur cells read
# their moments there (occupant.sensors.defaults): in the femur's axes My = the knee's torque +
# d x the femur shear Fx, read along the cell's axes.
FEMUR_LOAD_CELL = {"50m": 0.1079, "05f": 0.1005, "95m": 0.1173}   # m, see above

# The femur load cell's own axes (the axes its forces and moments are read in), from each deck's
# cell skew (the /PROP/SPR_GENE of the cell's spring names it; /SKEW/MOV, Dir X: X along N1->N2,
# Z = X x N1N3, Y = Z x X [S: Radioss reference guide, /SKEW/MOV]): X runs along the femur towards
# the knee, Y to the right, Z down. Node coordinates in mm, deck X rearward, Y right, Z up [S:
# OpenRadioss ModelExchange, CC BY-NC 4.0, facts only]:
# - 50M (SET_Modelling/Hybrid_III_50TH_0000.rad): the left cell's spring property 15000107
#   H350_PROP_FEMUR_L_RIGID_SPR names skew 15000067 H350_SKEW_LEFT_UPPER_LOADCELL, nodes
#   15040396 / 15040399 / 15040398 (the right cell's, 15000068, is parallel to it).
# - 5F (Hybrid_III_05TH_0000.rad): property 15000062 H305_PROP_FEMUR_L_RIGID_SPR, skew 15000034
#   H305_FEMUR_L_RGID_SPR_1, nodes 15005551 / 15006423 / 15006424.
# - 95M (RG_Articulated_Hybrid_III_95TH_0000.rad): property 15000033 FEMUR_L RIGID SPR, skew
#   15000037 LEFT RG SPR SKEW, nodes 15005258 / 15005410 / 15005411: along the hip-knee line
#   within 0.01 deg (computed as below), so its cell keeps the femur's axes.
# The hip and knee nodes are FEMUR_LOAD_CELL's. In the file's femur frame (z from the knee to the
# hip, y to the left, x = y x z) the cell's axes (z = -X, y = -Y, x = y x z) are turned 3.6 deg
# about y and -1.3 deg about x for the 50M (its cell axis is 3.8 deg off the line: the deck's
# thighs splay 1.3 deg outward, its cell's axes stay in the deck's x-z plane) and -8.6 deg about
# y for the 5F: in the seated dummy the 50M's cell axis points 3.6 deg lower towards the knee than
# the hip-knee line, the 5F's 8.6 deg higher [D, from the [S] nodes].
FEMUR_CELL_NODES = {   # mm: hip, knee, skew N1, N2, N3
    "50m": ((-120.0, 82.69, 120.0), (-513.51465, 73.61343, 176.10913),
            (-406.36908, 73.60724, 162.95451), (-416.33817, 73.60720, 163.74071),
            (-406.36917, 83.60724, 162.95384)),
    "05f": ((-306.0, -685.83, 341.0), (-647.05428, -685.83001, 366.25906),
            (-547.26160, -685.83, 352.75322), (-549.21190, -685.83, 353.19632),
            (-547.26160, -683.83, 352.75322)),
}


def femur_cell_orientation_deg(kind):
    """The left femur load cell's axes in the upper leg's frame as x-y-z angles (deg; the
    convention of orientation_deg), from FEMUR_CELL_NODES; None where the cell's axes are the
    femur's."""
    if kind not in FEMUR_CELL_NODES:
        return None
    hip, knee, n1, n2, n3 = (np.asarray(v, float) for v in FEMUR_CELL_NODES[kind])

    def unit(v):
        return v / np.linalg.norm(v)
    z = unit(hip - knee)
    left = np.array([0.0, -1.0, 0.0])
    y = unit(left - (left @ z) * z)
    F = np.column_stack([np.cross(y, z), y, z])
    X = unit(n2 - n1)
    Z = unit(np.cross(X, n3 - n1))
    zc, yc = -X, -np.cross(Z, X)
    R = F.T @ np.column_stack([np.cross(yc, zc), yc, zc])   # = Rx(a) Ry(b) Rz(c)
    deg = np.degrees([math.atan2(-R[1, 2], R[2, 2]), math.asin(R[0, 2]),
                      math.atan2(-R[0, 1], R[0, 0])])
    return np.round(deg, 2) + 0.0   # to 0.01 deg, the nodes' precision (no -0.0)
FEMUR_LOAD_CELL_SRC = {
    "50m": "open FE HIII 50M, spring 15059099 (D0FEMRLE00H3FO) vs the knee joint spring 15059126",
    "05f": "open FE HIII 5F, spring 15005364 (Left Femur) vs the knee joint spring 15005372",
    "95m": "open FE HIII 95M, spring 15005168 (Left Femur) vs the knee joint spring 15005176"}


# The tibia load cells (49 CFR 572 subpart E's lower leg carries an upper tibia cell below the knee
# and a lower tibia cell above the ankle; ISO-MME TIBI, fine locations LE/RI and UP/LO, as NHTSA's
# 11TIBILEUPH3FOZ channels), from the open FE decks' /TH/SPRING cells (OpenRadioss ModelExchange,
# CC BY-NC 4.0, node coordinates read, nothing copied), in mm along the knee-ankle line (the
# knee and ankle joint springs' nodes) [S]:
# - 5F (Hybrid_III_05TH_0000.rad): "Left Upper Tibia" spring 15005366, node 15005555 at
#   (-704.17, -685.83, 297.38); "Left Lower Tibia" 15005368, node 15005559 at (-759.70, -685.83,
#   121.73); "Left KNEE" 15005372 at (-647.05, -685.83, 366.26), "Left ANKLE" 15005374 at
#   (-795.23, -685.83, 58.60): the upper cell 86.8 mm below the knee along the 341.5 mm line
#   (21.6 mm off it, ahead), the lower 72.3 mm above the ankle (4.6 mm off it).
# - 95M (RG_Articulated_Hybrid_III_95TH_0000.rad): "Left Upper Tibia" 15005170, node 15005262 at
#   (-822.98, -724.05, 365.53); "Left Lower Tibia" 15005172, node 15005266 at (-1004.78, -729.38,
#   194.12); "Left KNEE" 15005176 at (-723.86, -715.38, 409.87), "Left ANKLE" 15005178 at
#   (-1071.10, -725.91, 148.05): 106.0 mm below the knee along the 435.0 mm line (25.0 mm off it,
#   ahead), 80.6 mm above the ankle (6.3 mm off it).
# - 50M: its deck's file is not in the store's snapshot (the femur's figures were read before);
#   the two distances interpolated between the 5F's and the 95M's by the decks' knee-ankle
#   lengths at this file's 405.6 mm [D]: 100.0 below the knee, 78.0 above the ankle.
# The points are put on this file's knee-ankle axis (as the femur cell's; the upper cell's 22-25
# mm ahead of the line is the deck's tibia shaft ahead of the knee's pivot, not carried), the
# cells' axes the lower leg's [E: the decks' cell skews not read]. Distances are each deck's own
# (hardware, not scaled).
TIBIA_LOAD_CELLS = {"50m": (0.1000, 0.0780), "05f": (0.0868, 0.0723), "95m": (0.1060, 0.0806)}  # m: below the knee, above the ankle
TIBIA_LOAD_CELL_SRC = {
    "50m": "[D] interpolated by the knee-ankle length between the open FE HIII 5F's and 95M's cells",
    "05f": "[S] open FE HIII 5F, springs 15005366 / 15005368 (Left Upper / Lower Tibia) vs the knee and ankle joint springs",
    "95m": "[S] open FE HIII 95M, springs 15005170 / 15005172 (Left Upper / Lower Tibia) vs the knee and ankle joint springs"}


def markers(kind, seg, L):
    """The [[segment.marker]] landmarks of segment ``seg`` (BASE entry, length factor L)."""
    out = list(pelvis_markers(kind)) if seg["name"] == "pelvis" else []
    if seg["name"] == "upper_leg":
        lam = region_factors(kind)[0]
        knee = joint_location(kind, next(s for s in BASE if s["name"] == "lower_leg"), lam)[0]
        d = FEMUR_LOAD_CELL[kind]
        out.append(dict(name="femur_load_cell", position=knee + (0.0, 0.0, d),
                        orient=femur_cell_orientation_deg(kind),
                        src=f"[S] the femur load cell's measuring point, {1000 * d:.1f} mm above "
                            f"the knee's pivot on the hip-knee line ({FEMUR_LOAD_CELL_SRC[kind]}, "
                            "OpenRadioss ModelExchange, CC BY-NC; derive_hybrid3.py FEMUR_LOAD_CELL)"))
    if seg["name"] == "lower_leg":
        ankle = joint_location(kind, next(s for s in BASE if s["name"] == "foot"), region_factors(kind)[0])[0]
        below, above = TIBIA_LOAD_CELLS[kind]
        for name, z, what in (("upper_tibia_load_cell", -below, f"{1000 * below:.1f} mm below the knee's pivot"),
                              ("lower_tibia_load_cell", ankle[2] + above, f"{1000 * above:.1f} mm above the ankle's centre")):
            out.append(dict(name=name, position=(0.0, 0.0, z), orient=None,
                            src=f"the {name.split('_')[0]} tibia load cell's measuring point, {what} on "
                                f"the knee-ankle line ({TIBIA_LOAD_CELL_SRC[kind]}; derive_hybrid3.py TIBIA_LOAD_CELLS)"))
    return out


# 50M head CG relative to the occipital condyle (issue 10 section 3, "cite both"). No published
# Hybrid III 50M head CG or inertia was found (dummies/README.md lists the search). The open FE
# Hybrid III 50th (OpenRadioss ModelExchange Safety/Hybrid_III_50th_Percentile, SET_Modelling deck,
# (C) 2026 SISW, CC BY-NC 4.0; node coordinates read, nothing copied) puts its head accelerometer
# node (/ACCEL "D0HEAD0000H3AC0", the centre of the 5 mm accelerometer block; the Hybrid III's
# head accelerometers sit at the head CG) 22.9 mm ahead of and 47.4 mm above its occipital-condyle
# revolute joint (skew "OCCIPITAL_CONDYLE_REVOLUTE", deck X rearward, seated posture) [S]. The open
# FE 5F's element sums (OVERRIDE_05F: 21 mm, 15-27) scaled to the 50M by the sitting-height ratio
# give 23.6 mm, the same within 1 mm; the 95M rigid model's head body (54 mm, x 0.9324 = 49 mm, the
# value this replaces) is the outlier, and its own head accelerometer node sits 24 mm behind that
# body's CG. Fore-aft offset from the FE 50M [S]; the height above the OC stays 95M-scaled (53 mm;
# the FE 50M node is 47.4 mm, 11 % lower) [D]. The 50M neck was refitted for it (TUNED_50M).
FE50 = ("[S] open FE HIII 50M (OpenRadioss ModelExchange, CC BY-NC; head accelerometer node "
        "D0HEAD0000H3AC0 relative to the OC revolute joint, dummies/README.md)")

# 50M limbs' axial moments (about the limb's long axis) from GEBOD's sitting Hybrid III 50th male
# (dummies/tools/gebod_hybrid3.py: GEBOD.DAT rev. 20 May 2000, the body derived from Kaleps &
# Whitestone's measured Hybrid III, SAE 880638) [S]: its radius of gyration about the long axis
# at this file's mass [D]. The 95M rigid model's lumps scaled made them 1.35 (upper arm), 2.5
# (lower arm with hand) and 2.1 (lower leg) times GEBOD's at equal mass: radii of gyration of 28,
# 40 and 53 mm, where the forearm's flesh is about 80 mm across and the calf about 120 mm (a solid
# cylinder of it: 28 and 43 mm; the steel bones on the axis make it less). The deck's lower-leg
# bodies carry equal moments on all three axes (0.0030 / 0.015 / 0.0014 kg m^2, H3SD 1.4.1),
# which put the transverse figure on the axis too. The transverse moments stay: within 4 % of
# GEBOD's (upper arm, lower leg) or set by the forearm's length, which differs (GEBOD's elbow-
# wrist 247 mm, this file's 281; scenarios/HISTORY.md, branch gebodh3).
def _gebod():
    path = pathlib.Path(__file__).with_name("gebod_hybrid3.py")
    spec = importlib.util.spec_from_file_location("gebod_hybrid3", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEBOD = _gebod()
GEBOD_AXIAL = {ours: GEBOD.axial_radius_of_gyration(f"left_{ours}")
               for ours in ("upper_arm", "lower_arm", "lower_leg")}   # m


def _gebod_axial_src(name, was):
    k = GEBOD_AXIAL[name]
    return (f"[S] GEBOD sitting Hybrid III 50th (GEBOD.DAT rev. 20 May 2000; from Kaleps & "
            f"Whitestone SAE 880638; dummies/tools/gebod_hybrid3.py): axial radius of gyration "
            f"{k * 1e3:.1f} mm at this mass [D] (axial moment was {was}, the 95M's lumped scaled); "
            "transverse moments the 95M's scaled [D]")


OVERRIDE_50M = {
    "head": dict(com_x=0.0229,
                 src=f"{FE50}: head CG 22.9 mm ahead of the OC (was 49 mm scaled from the 95M "
                     "rigid model); height above the OC still scaled from the 95M [D]"),
    "upper_arm": dict(radius_axial=GEBOD_AXIAL["upper_arm"], src=_gebod_axial_src("upper_arm", 0.001606)),
    "lower_arm": dict(radius_axial=GEBOD_AXIAL["lower_arm"], src=_gebod_axial_src("lower_arm", 0.003611)),
    "lower_leg": dict(radius_axial=GEBOD_AXIAL["lower_leg"], src=_gebod_axial_src("lower_leg", 0.01206)),
}


def masses(kind):
    base = {s["name"]: s["mass"] for s in BASE}
    if kind == "95m":
        total = sum(v * (2 if s.get("mirror") else 1) for s in BASE for k, v in base.items()
                    if k == s["name"])
        f = M95_TOTAL / total
        return ({k: v * f for k, v in base.items()},
                {k: f"x {f:.4f} so the total is {M95_TOTAL} kg {M95_TOTAL_SRC}" for k in base})
    tab, tag = (M50_U, "[U] 50M table (H3SD 1.2)") if kind == "50m" else (M05_C, "[C] NHTSA 5F page")
    lt = base["pelvis"] + base["lumbar"]
    ll = base["lower_leg"] + base["foot"]
    m = dict(head=tab["head"], neck=tab["neck"], upper_torso=tab["upper_torso"],
             pelvis=tab["lower_torso"] * base["pelvis"] / lt,
             lumbar=tab["lower_torso"] * base["lumbar"] / lt,
             upper_arm=tab["upper_arm"], lower_arm=tab["lower_arm"], upper_leg=tab["upper_leg"],
             lower_leg=tab["lower_leg_foot"] * base["lower_leg"] / ll,
             foot=tab["lower_leg_foot"] * base["foot"] / ll)
    ut = base["upper_torso"] + base["sternum"]
    m["sternum"] = tab["upper_torso"] * base["sternum"] / ut
    m["upper_torso"] = tab["upper_torso"] * base["upper_torso"] / ut
    why = {k: tag for k in m}
    for k in ("upper_torso", "sternum"):
        why[k] = tag + " upper torso, split in the 95M upper torso/sternum plate proportion [D]"
    for k in ("pelvis", "lumbar"):
        why[k] = tag + " lower torso, split in the 95M pelvis/lumbar proportion [D]"
    for k in ("lower_leg", "foot"):
        why[k] = tag + " lower leg + foot, split in the 95M proportion [D]"
    if kind == "05f":   # her foot her deck's own, the lower leg NHTSA's remainder
        m["foot"] = FOOT_05F_MASS["mass"]
        m["lower_leg"] = tab["lower_leg_foot"] - m["foot"]
        why["foot"] = FOOT_05F_MASS_SRC + "; was NHTSA's lower leg + foot split in the 95M proportion)"
        why["lower_leg"] = (tag + f" lower leg + foot {tab['lower_leg_foot']} kg less her FE deck's foot "
                            "(derive_hybrid3.py FOOT_05F_MASS) [D]")
    total = sum(v * (2 if s.get("mirror") else 1) for s in BASE for k, v in m.items() if k == s["name"])
    published = 78.2 if kind == "50m" else 49.0
    f = published / total
    for k in m:
        m[k] *= f
        why[k] += f"; x {f:.4f} so the total is the published {published} kg [C]"
    return m, why


def distal_loads(kind, m, lam):
    """{joint name: (mass distal to the joint in kg, distance of its centre of mass from the joint
    centre in m)} in the reference posture, from the dummy's own masses ``m`` and the region
    length factors ``lam``; a limb chain is one side, the torso joints carry both arms [D]."""
    seg = {s["name"]: s for s in BASE}
    origin, cg = {}, {}
    for s in BASE:  # parents come first in BASE
        L = lam[s["region"]]
        o = joint_location(kind, s, lam)[0]
        origin[s["name"]] = o + (origin[s["parent"]] if s["parent"] else 0.0)
        cg[s["name"]] = origin[s["name"]] + shipped_mass_properties(kind, s, m, lam)[0]

    def subtree(name):
        out = [name]
        for s in BASE:
            if s["parent"] == name:
                out += subtree(s["name"])
        return out
    loads = {}
    for s in BASE:
        if not s["parent"]:
            continue
        parts = []
        for n in subtree(s["name"]):
            both = seg[n].get("mirror") and not s.get("mirror")  # arms below a torso joint
            parts.append((m[n], cg[n]))
            if both:
                parts.append((m[n], cg[n] * np.array([1.0, -1.0, 1.0])))
        md = sum(p[0] for p in parts)
        c = sum(p[0] * p[1] for p in parts) / md
        loads[s["joint"]["name"]] = (md, float(np.linalg.norm(c - origin[s["name"]])))
    return loads


def shipped_mass_properties(kind, s, m, lam):
    """(CG in m in the segment frame, its source, principal moments about it in kg m^2, their
    source) of segment ``s`` as the dummy's file ships them: the dummy's own figures where it has
    them (OVERRIDE_05F / OVERRIDE_50M, com_location's COM_05F), else the 95M's scaled by mass and
    L^2. The one source for the file (write) and for the stops' design (distal_loads,
    own_inertia) [D]."""
    over = {"05f": OVERRIDE_05F, "50m": OVERRIDE_50M}.get(kind, {}).get(s["name"], {})
    mass, L = m[s["name"]], lam[s["region"]]
    com, com_src = com_location(kind, s, lam)
    if "com_x" in over:
        com, com_src = np.array([over["com_x"], com[1], com[2]]), over["src"]
    inertia = np.multiply(s["inertia"], mass / s["mass"] * L ** 2)
    inertia_src = f"{s['inertia_src']}; x (m/m95) L^2 = {mass / s['mass'] * L ** 2:.4f}"
    if "inertia" in over:
        inertia, inertia_src = np.array(over["inertia"], dtype=float), over["src"]
    elif "inertia_transverse" in over:   # a deck's moments scale with the mass given them
        inertia[:2] = np.multiply(over["inertia_transverse"], mass / over.get("deck_mass", mass))
        inertia_src = over["src"]
    if "radius_axial" in over:   # a radius of gyration about the limb's axis, at this mass
        inertia[2] = mass * over["radius_axial"] ** 2
        inertia_src = over["src"]
    return com, com_src, inertia, inertia_src


def own_inertia(kind, s, m, lam, dof):
    """The smaller of the moments of inertia (kg m^2) of segment s alone and of its parent alone
    about the axis of one of s's joint dofs through the joint centre, from the mass properties the
    file ships (shipped_mass_properties; principal moments turned by principal_axes_deg, then
    the parallel-axis term) [D]; a ball joint's dofs turn about the segment axes (all parallel in
    the reference posture), a revolute joint about its axis. The stop acts between the two, so
    the lighter one sets how fast its damping acts."""
    seg = {b["name"]: b for b in BASE}
    axis = np.asarray(s["joint"].get("axis") or np.eye(3)[{"x": 0, "y": 1, "z": 2, None: 1}[dof]],
                      dtype=float)
    axis = axis / np.linalg.norm(axis)

    def about(b, offset):
        com, _, principal, _ = shipped_mass_properties(kind, b, m, lam)
        # the file's principal_axes_deg: R = Rx Ry Rz (occupant.human.description.rotation_xyz)
        R = Rotation.from_euler("XYZ", b["axes"], degrees=True).as_matrix()
        c = com - offset
        return float(axis @ (R @ np.diag(principal) @ R.T) @ axis
                     + m[b["name"]] * (c @ c - (c @ axis) ** 2))
    own = about(s, np.zeros(3))
    if s["parent"]:
        parent = seg[s["parent"]]
        own = min(own, about(parent, joint_location(kind, s, lam)[0]))
    return own


def head_semi_z():
    """Vertical head semi-axis (95M units) fitted to the 50M erect sitting height 0.884 m [C]."""
    lam = 1.753 / 1.88
    vertex_no_semi = 0.060 + 0.166 + 0.296 + 0.143 + 0.057      # H-point -> head ellipsoid centre
    seat = PELVIS_BOX["center"][2] - PELVIS_BOX["semi"][2]        # lowest pelvis-ellipsoid point
    return 0.884 / lam - (vertex_no_semi - seat)


def chest_resistance(L):
    """Lines of the sternum joint's resistance (m, N) for the length factor L [D]."""
    f = CHEST_FIT
    rows = ", ".join(f"[{fmt(d * L, 4)}, {fmt(F * L ** 2 * f['stiffness'], 4)}]" for d, F in CHEST_SPRING)
    fitted = f != dict(stiffness=1.0, damping=1.0, absorption=0.0)
    note = (f"; FITTED to the 50M's 49 CFR 572.34 thorax pendulum peak force, sternum deflection "
            f"and hysteresis (table x {f['stiffness']:.4g}, damping x {f['damping']:.4g}, absorption; "
            "dummies/tools/tune_chest.py): those are calibrations, the 5F's 572.134 test the check"
            if fitted else "")
    out = ["[[segment.joint.resistance]]",
           f"table = [{rows}]  # (m, N); [S] open model chest springs x L^2 force, x L deflection{note}",
           f"damping = {fmt(CHEST_DAMPING * L ** 2 * f['damping'], 4)}  # N s/m; [S] 5 x 80 N s/m x L^2"
           + (f" x {f['damping']:.4g} FITTED (see table)" if fitted else "")]
    if f["absorption"] > 0:
        out.append(f"absorption = {fmt(f['absorption'], 4)}  # loading/unloading hysteresis: fraction "
                   "of the loading work a cycle dissipates; FITTED (see table)")
        out.append("recovers = true  # unloads to the origin, no permanent set: elastic ribs with "
                   "damping material [E]")
    out += [f"lower = {fmt(CHEST_LOWER * L, 4)}  # m [D] the deck's stop between 80 and 100 mm",
            f"upper = {fmt(CHEST_UPPER * L, 4)}  # m [E] no travel forward of the plate's seat",
            f"stop_stiffness = {fmt(CHEST_STOP_K * L, 4)}  # N/m^2 [E] 50 kN at 10 mm past the stop (95M)",
            f"stop_damping = {fmt(CHEST_STOP_C * L, 4)}  # N s/m^2 [E]"]
    return out


def write(kind):
    lam, lam_desc = region_factors(kind)
    m, mwhy = masses(kind)
    name = {"95m": "hybrid3_95m", "50m": "hybrid3_50m", "05f": "hybrid3_05f"}[kind]
    title = {"95m": "Hybrid III 95th percentile male", "50m": "Hybrid III 50th percentile male "
             "(49 CFR 572 subpart E)", "05f": "Hybrid III 5th percentile female (49 CFR 572 subpart O)"}[kind]
    out = [f"# {title} in the ATB 15-segment layout. Generated by dummies/tools/derive_hybrid3.py,",
           "# which records the method; see dummies/README.md. Tags: [C] primary source, [S] open",
           "# secondary model, [D] derived, [U] unverified commonly quoted, [E] estimate without source.",
           "# Frame of every segment in the reference posture: x forward, y left, z up (parallel to the",
           "# pelvis); origin at the segment's proximal joint centre. Reference posture: torso in the",
           "# dummy's seated design shape, arms and legs hanging vertically. SI units; angles *_deg.",
           f"# Lengths: {lam_desc}.",
           f'kind = "dummy"', f'name = "{name}"', f'description = "{title}"']
    if kind == "50m":
        out += ["total_mass = 78.2        # kg [C] NHTSA HIII 5th female page, family table",
                "stature = 1.753          # m [C] same", "sitting_height = 0.884   # m [C] same"]
    elif kind == "05f":
        out += ["total_mass = 49.0        # kg [C] NHTSA HIII 5th female page",
                "stature = 1.501          # m [C] same", "sitting_height = 0.787   # m [C] same"]
    else:
        out += [f"total_mass = {M95_TOTAL}       # kg {M95_TOTAL_SRC}; the open model's rigid "
                "bodies (lower arms averaged) sum to 98.63 kg [D] and are scaled to it",
                "stature = 1.88           # m [U] Wikipedia 'Hybrid III' (secondary)"]
    moment = {r: 1.0 if kind == "95m" else lam[r] ** 3 for r in lam}
    semi_z_head = head_semi_z()
    distal = distal_loads(kind, m, lam)
    for s in BASE:
        L = lam[s["region"]]
        mass = m[s["name"]]
        out += ["", "[[segment]]", f'name = "{s["name"]}"']
        if s.get("mirror"):
            out.append("mirror = true            # given for the left side; the right is its mirror (y -> -y)")
        if s["parent"]:
            out.append(f'parent = "{s["parent"]}"')
        msrc = S95 + ": " + s["mass_src"] + "; " + mwhy[s["name"]] if kind == "95m" else mwhy[s["name"]]
        out.append(f"mass = {fmt(mass, 5)}  # kg; {msrc}")
        com, com_src, inertia, inertia_src = shipped_mass_properties(kind, s, m, lam)
        out.append(f"com = {fmt(com, 4)}  # m; {com_src}")
        out.append(f"principal_inertia = {fmt(inertia, 4)}  # kg m^2 about the com; {inertia_src}")
        if any(s["axes"]):
            out.append(f"principal_axes_deg = {fmt(s['axes'], 3)}  # x-y-z rotation of the principal "
                       "axes in the segment frame [S] (sign of the deck's pitch assumed)")
        j = s["joint"]
        location, location_src = joint_location(kind, s, lam)
        out += ["[segment.joint]", f'name = "{j["name"]}"', f'kind = "{j["kind"]}"',
                f"location = {fmt(location, 4)}  # m in the parent frame; {location_src}"]
        if "axis" in j:
            out.append(f"axis = {fmt(j['axis'], 3)}")
        if j["kind"] == "prismatic":
            out += chest_resistance(L)
        for r in RESIST.get(j["name"], []):
            own_r = OWN_RESIST.get(kind, {}).get((j["name"], r.get("dof")))
            r = own_r[0] if own_r else r
            out.append("[[segment.joint.resistance]]")
            if "dof" in r:
                out.append(f'dof = "{r["dof"]}"')
            ms, ld = (1.0, 1.0) if own_r else (moment[s["region"]], L)  # her own: not scaled
            tuned_set, tuned_note = TUNED.get(kind, ({}, ""))
            tuned = tuned_set.get((j["name"], r.get("dof")))
            if "table" in r:
                nd = 7 if own_r else 4  # her deck's radians in degrees to 1e-7
                rows = ", ".join(f"[{fmt(a, nd)}, {fmt(t * ms, 4)}]" for a, t in r["table"])
                if tuned:
                    was = rows
                    rows = tuned_table(r["table"], ms, tuned)
                    out.append(f"# {tuned_note}: {tuned_factors(tuned)} (was [{was}] from the 95M open "
                               f"model [S]{'' if kind == '95m' else ' scaled by lambda^3'})")
                out.append(f"table_deg = [{rows}]  # (deg, N m)")
            if "stiffness" in r:
                out.append(f"stiffness = {fmt(r['stiffness'] * ms, 4)}  # N m/rad")
            if "damping" in r:
                if tuned:
                    out.append(f"damping = {fmt(tuned['damping'], 4)}  # N m s/rad; {tuned_note} (was "
                               f"{fmt(r['damping'] * ms * ld, 4)} from the 95M open model [S]"
                               f"{'' if kind == '95m' else ' scaled by lambda^4'})")
                else:
                    out.append(f"damping = {fmt(r['damping'] * ms * ld, 4)}  # N m s/rad")
            if tuned and "friction" in tuned:
                out.append(f"friction = {fmt(tuned['friction'], 4)}  # N m, Coulomb; {tuned_note} "
                           "(was none in the 95M open model [S])")
            if "friction_g" in r:
                out.append(f"friction_g = {fmt(r['friction_g'], 3)}  # limb held at 1.5 g [C wording 572.116(h)]")
            lo, hi, rom_src = rom(j["name"], r.get("dof"), kind)
            m_d, r_d = distal[j["name"]]
            k_stop = m_d * r_d * STOP_DESIGN_G * 9.80665 / math.radians(STOP_PENETRATION_DEG) ** 2
            out.append(f"lower_deg = {fmt(lo, 4)}  # range of motion: {rom_src}")
            out.append(f"upper_deg = {fmt(hi, 4)}")
            out.append(f"stop_stiffness = {fmt(k_stop, 4)}  # N m/rad^2 [D] holds {m_d:.3g} kg at "
                       f"{r_d:.3g} m under {STOP_DESIGN_G:g} g within {STOP_PENETRATION_DEG:g} deg")
            i_own = own_inertia(kind, s, m, lam, r.get("dof"))
            c_cap = STOP_DAMPING_RATE * i_own / STOP_RATING_PEN
            if STOP_DAMPING_TIME * k_stop <= c_cap:
                out.append(f"stop_damping = {fmt(STOP_DAMPING_TIME * k_stop, 4)}  # N m s/rad^2 [E] "
                           f"{STOP_DAMPING_TIME:g} s x the stop stiffness")
            else:
                out.append(f"stop_damping = {fmt(c_cap, 4)}  # N m s/rad^2 [D] capped at "
                           f"{STOP_DAMPING_RATE:g}/s x {i_own:.3g} kg m^2 (lighter segment) / "
                           f"{STOP_RATING_PEN:g} rad (stability; {STOP_DAMPING_TIME:g} s x k would "
                           f"be {STOP_DAMPING_TIME * k_stop:.3g})")
            scale_note = "" if kind == "95m" or own_r else f"; moments x {ms:.4f} (L^3), damping x L^4"
            out.append(f"# source: {r['src']}{scale_note}")
        # the dummy's own ellipsoids replace the scaled ones of the same name, the rest follow
        # (the own ones are given in the segment's frame; the scaled ones are kept in place in the
        # body where the segment's joint moved, body_shift)
        own = {e["name"]: e for e in own_ellipsoids(kind, s["name"])}
        shift = body_shift(kind, s["name"], lam)
        ells = [(own.pop(e["name"]), 1.0, np.zeros(3)) if e["name"] in own else (e, L, shift)
                for e in s["ellipsoids"] if kind in e.get("kinds", (kind,))]
        for e, scale, moved in ells + [(e, 1.0, np.zeros(3)) for e in own.values()]:
            semi = list(e["semi"])
            if semi[2] is None:
                semi[2] = semi_z_head
            centre = np.multiply(e['center'], scale) + moved
            kept = KEPT_NOTE if moved.any() else ""
            out += ["[[segment.ellipsoid]]", f'name = "{e["name"]}"',
                    f"center = {fmt(centre, 4)}  # m{kept}",
                    f"semi_axes = {fmt(np.multiply(semi, scale), 4)}  # m; {e['src']}"]
            if any(e.get("orient", (0.0, 0.0, 0.0))):
                out.append(f"orientation_deg = {fmt(e['orient'], 3)}")
        for mk in markers(kind, s, L):
            out += ["[[segment.marker]]", f'name = "{mk["name"]}"',
                    f"position = {fmt(mk['position'], 4)}  # m; {mk['src']}"]
            if mk.get("orient") is not None:
                out.append(f"orientation_deg = {fmt(mk['orient'], 3)}  # x-y-z; [D] the cell's own "
                           "axes, its deck's skew (derive_hybrid3.py FEMUR_CELL_NODES)")
    path = HERE / f"{name}.toml"
    path.write_text("\n".join(out) + "\n")
    return path


if __name__ == "__main__":
    for k in ("95m", "50m", "05f"):
        print(write(k))
