# SPDX-License-Identifier: LGPL-2.1-or-later
"""A code submission in the scoring child: the model file to score, the failure to report,
and the result told that its candidate was a script (its "code" section)."""

import os

from cadbench_wb.errors import DeliveryFailure


def scored_file(job) -> tuple[str, DeliveryFailure | None]:
    """(the file to score, the delivery failure to report instead) of a job: the job's own
    candidate, or for a code submission the model its script made, or the script's failure."""
    code = job.code
    if not code or job.control_stage:
        return job.candidate, None
    if code.get("model"):
        return code["model"], None
    return job.candidate, DeliveryFailure(code["status"], code["detail"])


def with_code(result: dict, job) -> dict:
    """The result of a code submission: its candidate is the script (path and sha256), its
    "code" section says how the script ran and which model it made; the model's own path (a
    folder of the store) appears nowhere."""
    code = dict(job.code)
    model = code.pop("model", None)
    result = _renamed(result, model, job.candidate) if model else result
    result["candidate"] = dict(result.get("candidate") or {})
    result["candidate"].update(path=job.candidate, sha256=code["scriptSha256"])
    # The script's own time, apart from the scorer's (timing.total, timing.process): a
    # timing, so outside the figures that must repeat byte for byte.
    timing = result.setdefault("timing", {})
    for key, name in (("codeSeconds", "code"), ("codeCpuSeconds", "code_cpu")):
        if code.get(key) is not None:
            timing[name] = code[key]
        code.pop(key, None)
    result["code"] = {k: v for k, v in sorted(code.items())}
    return result


def _renamed(value, model: str, script: str):
    if isinstance(value, str):
        return value.replace(model, f"{script} (its model)").replace(
            os.path.basename(model), f"{os.path.basename(script)} (its model)"
        )
    if isinstance(value, dict):
        return {k: _renamed(v, model, script) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, model, script) for v in value]
    return value
