# SPDX-License-Identifier: LGPL-2.1-or-later
"""The long-lived scoring child of a campaign: imports FreeCAD once, then scores job after job.

``python -m cadbench_wb.campaign.worker_process STAGE.txt``: reads one JSON job per line on
stdin and answers one JSON line per job on the message channel (the stdout it was started
with). FreeCAD and OpenCASCADE print to the C-level stdout, so that descriptor is moved to
the log before anything is imported and messages go through a private duplicate of it.
Each job runs through cadbench_wb.runtime.worker.run, which writes the stage name before every
step: when this process dies, the parent reads the stage and knows whose fault it was.
"""

import json
import os
import sys

from cadbench_wb.runtime import child_limits, worker
from cadbench_wb.runtime.freecad_env import import_freecad


def _die_with_parent() -> None:
    """Linux: be killed when the parent dies (a kill -9 of the campaign leaves no orphans
    scoring on); set here rather than in a preexec_fn, which is unsafe in threaded parents."""
    if child_limits.die_with_parent() and os.getppid() == 1:
        os._exit(0)


def _preload() -> None:
    """FreeCAD and the metric stages, imported once for every job this worker will score.
    A stage that cannot load fails here, loudly, before the first job (never a metric
    quietly missing from the verdicts)."""
    import_freecad()
    worker.exact_child_forked()  # before the stages' imports start threads
    from cadbench_wb.app import scoring  # noqa: PLC0415 - FreeCAD-only

    scoring.stage_functions()


def _fault_for(job: dict) -> str:
    """Test hook: CADBENCH_FAULT_FILE names a file holding 'KIND:STAGE NAME_PART'; the fault
    (see worker._injected_fault) hits only candidates whose file name contains NAME_PART.
    Read per job, so a test can change it between attempts."""
    path = os.environ.get("CADBENCH_FAULT_FILE")
    if not path:
        return os.environ.get("CADBENCH_FAULT", "")
    try:
        with open(path) as handle:
            fault, _, name_part = handle.read().strip().partition(" ")
    except OSError:
        return ""
    return fault if name_part and name_part in os.path.basename(job.get("candidate", "")) else ""


def main(argv: list[str]) -> int:
    (stage_path,) = argv
    messages = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    _die_with_parent()

    def send(message: dict) -> None:
        messages.write(json.dumps(message) + "\n")
        messages.flush()

    try:
        _preload()
    except Exception as exc:  # the parent reports it as one line
        send({"fatal": f"{type(exc).__name__}: {exc}"})
        return 1
    send({"ready": os.getpid()})
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        os.environ["CADBENCH_FAULT"] = _fault_for(job)
        send({"outcome": worker.run(job, stage_path)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
