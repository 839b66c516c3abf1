# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generated case files: build them when absent, verify them by meaning (seed 003).

A case's ``build:`` script defines ``build(out_dir, case_dir)``: it writes the reference
and the sample candidates under out_dir with the relative paths case.yaml names, reading
committed inputs (a third-party STEP) from case_dir. Inputs are hashed, outputs are not:
files that exist are never rewritten, and ``verify`` regenerates into a temporary folder
and compares what the files mean (same solid, IoU 1, same spectrum), not their bytes
(STEP headers carry time stamps).
"""

import importlib.util
import os
import shutil
import tempfile

import numpy as np

from cadbench_wb.errors import CadbenchError, DeliveryFailure
from cadbench_wb.metrics import dimension_matching as dims
from cadbench_wb.runtime.freecad_env import import_freecad

# Volumes of a regenerated file and the existing one agree within this (relative).
SAME_VOLUME_REL = 1e-6
# Spectrum values agree within this (mm or degrees).
SAME_VALUE = 1e-6


class BuildFailed(CadbenchError):
    reason = "case_build_failed"
    exit_status = 1


def run_build_script(case, out_dir: str) -> None:
    """Run the case's build(out_dir, case_dir) in this process (trusted repository code)."""
    script = case.build_script
    if not script:
        return
    import_freecad()
    name = f"cadbench_case_build_{case.id}"
    spec = importlib.util.spec_from_file_location(name, script)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        module.build(out_dir, case.path)
    except CadbenchError:
        raise
    except Exception as exc:  # the script's error, reported in one line with its case
        raise BuildFailed(f"{case.id}: {os.path.basename(script)}: {type(exc).__name__}: {exc}")


def generated_files(folder: str) -> list[str]:
    """Relative paths of the files under a folder, sorted."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            found.append(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/"))
    return found


def build_missing(case) -> list[str]:
    """Build the case's generated files that are absent; never rewrite one that exists.
    Returns the relative paths written."""
    if not case.build_script or not case.missing_files():
        return []
    written = []
    with tempfile.TemporaryDirectory(prefix=f"cadbench-build-{case.id}-") as tmp:
        run_build_script(case, tmp)
        for relative in generated_files(tmp):
            target = os.path.join(case.path, relative)
            if os.path.exists(target):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            # Whole or not at all: a reader (the GUI, another build, a test run in parallel)
            # never sees a half-copied model.
            partial = f"{target}.{os.getpid()}.partial"
            shutil.copyfile(os.path.join(tmp, relative), partial)
            os.replace(partial, target)
            written.append(relative)
    return written


def verify(case) -> tuple[list[str], list[str]]:
    """(problems, notes) of a case: its reference loads, regenerated files mean the same
    as the existing ones, and each dimension's declared spectrum is what measuring finds."""
    from cadbench_wb.app.model import loading  # noqa: PLC0415 - heavy: loaded on first use

    problems, notes = [], []
    has_reference = os.path.exists(case.reference_path)
    if case.dimensions and not has_reference and not case.build_script:
        problems.append(f"{case.reference}: the case has dimensions but no reference")
        return problems, notes
    with tempfile.TemporaryDirectory(prefix=f"cadbench-verify-{case.id}-") as tmp:
        regenerated = {}
        if case.build_script:
            run_build_script(case, tmp)
            regenerated = {f: os.path.join(tmp, f) for f in generated_files(tmp)}
            for relative in [case.reference] + [c.file for c in case.candidates]:
                if relative not in regenerated and not os.path.exists(
                    os.path.join(case.path, relative)
                ):
                    problems.append(f"{relative}: neither in the case nor made by the build")
        reference_file = case.reference_path if has_reference else regenerated.get(case.reference)
        if not reference_file:
            return problems, notes
        try:
            reference = loading.load_model(reference_file, "reference")
        except CadbenchError as exc:
            problems.append(f"{case.reference}: {exc.one_line()}")
            return problems, notes
        for relative, path in regenerated.items():
            existing = os.path.join(case.path, relative)
            if not os.path.exists(existing):
                notes.append(f"{relative}: not built yet (the build makes it)")
                continue
            problem = _difference(existing, path, relative == case.reference)
            if problem:
                problems.append(f"{relative}: regenerated file differs: {problem}")
        problems += _declaration_problems(case, reference.shape)
        problems, notes = _located_notes(case, reference, problems, notes)
    return problems, notes


def _located_notes(case, reference, problems, notes):
    """Where located matching finds each target (inferred bindings to confirm) and why
    the unmeasurable ones are (app/dimensions/location.py)."""
    from cadbench_wb.app.dimensions import location  # noqa: PLC0415 - heavy: loaded on first use

    if not case.dimensions:
        return problems, notes
    try:
        notes = notes + location.authoring_notes(case, reference)
    except location.BindingInvalid as exc:
        problems = problems + [f"geometry binding: {exc}"]
    return problems, notes


def _declaration_problems(case, shape) -> list[str]:
    """Each dimension's ``spectrum:`` says where it is measurable; check that it is."""
    from cadbench_wb.app.dimensions.spectrum import spectrum_of  # noqa: PLC0415 - heavy: loaded on first use

    default = spectrum_of(shape, "default")
    extended = spectrum_of(shape, "extended")
    problems = []
    for dimension in case.dimensions:
        in_default = dims.match(dimension, default) is not None
        in_extended = dims.match(dimension, extended) is not None
        measured = "default" if in_default else "extended" if in_extended else "none"
        if measured != dimension.spectrum:
            problems.append(
                f"dimension {dimension.id} ({dimension.kind} {dimension.value:g}): declared "
                f"spectrum {dimension.spectrum!r}, but measuring the reference gives {measured!r}"
            )
    return problems


def _difference(existing: str, regenerated: str, is_reference: bool) -> str | None:
    """Why two files do not hold the same model (None when they do). Files that are no
    model (the broken samples) mean the same when they fail for the same reason."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    from cadbench_wb.app.dimensions.spectrum import spectrum_of  # noqa: PLC0415 - heavy: loaded on first use

    first, second = _model_or_failure(existing), _model_or_failure(regenerated)
    if isinstance(first, str) or isinstance(second, str):
        return None if first == second else f"{first!r} against {second!r}"
    solids_a, solids_b = first.Solids, second.Solids
    if len(solids_a) != len(solids_b):
        return f"{len(solids_a)} solid(s) against {len(solids_b)}"
    a = Part.makeCompound(solids_a) if len(solids_a) > 1 else solids_a[0]
    b = Part.makeCompound(solids_b) if len(solids_b) > 1 else solids_b[0]
    if abs(a.Volume - b.Volume) > SAME_VOLUME_REL * max(a.Volume, b.Volume):
        return f"volume {a.Volume:.6f} against {b.Volume:.6f}"
    if is_reference:
        common = sum(s.Volume for s in a.common(b).Solids)
        union = sum(s.Volume for s in a.fuse(b).Solids)
        if union <= 0 or abs(common / union - 1) > SAME_VOLUME_REL:
            return f"IoU {common / union if union else 0:.9f}, not 1"
    for mode in ("default", "extended"):
        sa, sb = spectrum_of(a, mode), spectrum_of(b, mode)
        for family in dims.FAMILIES:
            va, vb = _distinct(sa.values(family)), _distinct(sb.values(family))
            if len(va) != len(vb) or np.any(np.abs(va - vb) > SAME_VALUE):
                return f"{mode} spectrum differs in {family}"
    return None


def _model_or_failure(path: str):
    """The scored shape of a model file, or the reason it delivers none."""
    from cadbench_wb.app.model import loading  # noqa: PLC0415 - heavy: loaded on first use

    try:
        return loading.load_model(path, "candidate").shape
    except DeliveryFailure as failure:
        return failure.reason


def _distinct(values: np.ndarray) -> np.ndarray:
    """Sorted values with near-equal ones (within SAME_VALUE) merged."""
    values = np.sort(values)
    if not len(values):
        return values
    keep = np.concatenate([[True], np.diff(values) > SAME_VALUE])
    return values[keep]
