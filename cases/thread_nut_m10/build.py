# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hex nut M10 (16 across flats x 8.4) with a modeled M10 x 1.5 internal thread, and its
thread candidates.

The thread is FreeCAD's own: a PartDesign::Hole through the nut with Threaded and
ModelThread on (cadbench_wb/app/cases/thread_models.py).
"""

from cadbench_wb.app.cases import samples, thread_models
from cadbench_wb.runtime.freecad_env import import_freecad

import_freecad()


def build(out_dir, case_dir):
    import os  # noqa: PLC0415

    reference = thread_models.nut()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_step(samples.moved(reference), out_dir, "candidates/right_thread_moved.step")
    samples.write_step(
        samples.moved(thread_models.nut("M10x1.25", fine=True)),
        out_dir,
        "candidates/wrong_pitch_m10x1_25.step",
    )
    samples.write_step(
        samples.moved(thread_models.nut(left=True)), out_dir, "candidates/left_handed.step"
    )
    thread_models.save_cosmetic_nut(os.path.join(out_dir, "candidates", "cosmetic_only.FCStd"))
    samples.write_step(
        samples.moved(thread_models.nut(threaded=False)), out_dir, "candidates/no_thread.step"
    )
