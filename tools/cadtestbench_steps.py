# SPDX-License-Identifier: LGPL-2.1-or-later
"""STEP exports of the CADTestBench predictions in tests/data/cadtestbench, for the tests
that score them without running CadQuery (tests/app/test_alignment_cadtestbench.py).

Run with the CadQuery environment's Python (never the project's .venv, which has FreeCAD
and no CadQuery):

    .venv-code/bin/python tools/cadtestbench_steps.py     # `make setup-code` makes it

Each script (`<model>/<id>.py`) is run as its authors would (runpy, no sandbox, no cadbench:
the scripts are the committed, checksummed copies) and its `final_result` is written by
CadQuery's own exporter to `step/<model>/<id>.step`, which is what CADTestBench's evaluator
scores and what `cadbench score REF SCRIPT.py` executes in its sandbox. The files are
rewritten in place; `sha256sum -c SHA256SUMS` there checks the scripts they come from.
"""

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "tests", "data", "cadtestbench")
MODELS = ("GPT-5.2", "Claude-4.6-Sonnet")
PARTS = ("00000633", "00001490", "00004154", "00004495")


def main() -> int:
    import cadquery as cq  # only in the CadQuery environment

    for model in MODELS:
        folder = os.path.join(DATA, "step", model)
        os.makedirs(folder, exist_ok=True)
        for part in PARTS:
            namespace = runpy.run_path(os.path.join(DATA, model, f"{part}.py"))
            target = os.path.join(folder, f"{part}.step")
            cq.exporters.export(namespace["final_result"], target)
            print(f"{model}/{part}: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
