# SPDX-License-Identifier: LGPL-2.1-or-later
"""A case's generated files (its reference and candidates made by build.py), built when absent
by `cadbench case build` in a child process, so the calling process (the scoring parent, the
demo) never imports FreeCAD."""

import subprocess

from cadbench_wb.errors import CadbenchError
from cadbench_wb.runtime import runner


def ensure_built(case) -> None:
    """Build a case's absent generated files in a child process, so the calling process
    (the scoring parent) never imports FreeCAD."""
    if not case.build_script or not case.missing_files():
        return
    env = runner.child_environment()  # the package importable, the working folder not
    # runner's interpreter, not sys.executable: under freecadcmd that is freecadcmd itself.
    process = subprocess.run(
        [runner.python_for_children(), "-m", "cadbench_wb", "case", "build", case.path],
        capture_output=True,
        text=True,
        env=env,
    )
    if process.returncode != 0:
        lines = (process.stderr or process.stdout).strip().splitlines()
        raise CadbenchError(
            f"{case.id}: building the case failed: {lines[-1] if lines else 'no output'}",
            "case_build_failed",
        )
