# SPDX-License-Identifier: LGPL-2.1-or-later
"""The meshes the field's figures are computed on (metrics/field_figures.py), and the
figures of one scoring."""

from cadbench_wb.app.model import meshing
from cadbench_wb.metrics import field_figures

# Chamfer points lie on the surface: a tessellation whose chords stay within 1e-3 of the
# diagonal moves them by far less than 8,192 points' spacing (about 1 % of the part).
CHAMFER_DEFLECTION_REL = 1e-3


def field_figures_of(reference_shape, candidate_shape) -> dict:
    """chamferDistance and voxelIoU64 of the candidate as delivered (never aligned)."""
    chamfer, voxel = [], []
    for shape in (reference_shape, candidate_shape):
        coarse = field_figures.VOXEL_TESSELLATION
        voxel.append(meshing.mesh_of(shape, coarse))
        # BenchCAD's tessellation serves the Chamfer points too where it is the finer one
        # (parts of more than 50 mm): one tessellation instead of two.
        fine = max(CHAMFER_DEFLECTION_REL * shape.BoundBox.DiagonalLength, 1e-6)
        chamfer.append(voxel[-1] if coarse <= fine else meshing.mesh_of(shape, fine))
    return field_figures.figures(tuple(chamfer), tuple(voxel))
