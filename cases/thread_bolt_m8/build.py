# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hex bolt M8 x 30 with a modeled M8 x 1.25 thread, and its thread candidates.

The bolt (cadbench_wb/app/cases/thread_models.py): shank Ø8 from the tip (z = 0) to z = 30,
hex head 13 across flats x 5.3, tip chamfer 0.8 x 45°, thread 22 long cut by a PartDesign
SubtractiveHelix of the ISO 68-1 basic profile running out through the tip.
"""

from cadbench_wb.app.cases import samples, thread_models
from cadbench_wb.runtime.freecad_env import import_freecad

import_freecad()


def build(out_dir, case_dir):
    import os  # noqa: PLC0415

    reference = thread_models.bolt()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_step(samples.moved(reference), out_dir, "candidates/right_thread_moved.step")
    samples.write_step(
        samples.moved(thread_models.bolt(pitch=1.0)), out_dir, "candidates/wrong_pitch_m8x1.step"
    )
    samples.write_step(
        samples.moved(thread_models.bolt(left=True)), out_dir, "candidates/left_handed.step"
    )
    thread_models.save_cosmetic_bolt(os.path.join(out_dir, "candidates", "cosmetic_only.FCStd"))
    samples.write_step(
        samples.moved(thread_models.bolt(threaded=False)), out_dir, "candidates/no_thread.step"
    )
