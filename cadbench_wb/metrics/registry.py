# SPDX-License-Identifier: LGPL-2.1-or-later
"""The metrics cadbench scores, each registered here once (see docs/architecture.md).

A metric is a stage in the FreeCAD layer (``stage(context)`` writes its figures and verdict
into the result), an optional reference-only hook (what a failed delivery still reports:
applicability, the case's ceilings), the case.yaml sections it owns with a pure validator
each, the data files its figures depend on, and the stamp that seals it (seed 000's metric
fingerprint, or the drawing chain's own). Everything else derives from this table: the
order stages run in, ``--only``, the result's metric keys, ``case check``, the fingerprints.

References are "module:function" strings because this module is pure (it must load without
FreeCAD, for ``case check`` and ``cadbench info``); ``resolve`` turns them into functions
and fails loudly, so a renamed or broken module stops scoring instead of dropping a metric
from the verdicts.

Adding a metric: one module for its stage (and its pure matching under metrics/), and one
line in METRICS.
"""

import dataclasses
import importlib


@dataclasses.dataclass(frozen=True)
class Metric:
    name: str  # the seed's internal name, also the result's top-level key
    group: str  # the --only name
    label: str  # how reports title it
    stage: str  # "module:function" taking the scoring context
    reference_stage: str | None = None  # "module:function"(reference, case, options, result)
    # "module:function"(reference, case, options, result) called once the reference is read:
    # work started ahead in a child, or None: an object told delivered(candidate path, the
    # loaded model) once the candidate is read, aligned(candidate path, alignment.Pose) once
    # it is aligned, and close() -> {timing key: seconds} after the last stage.
    ahead: str | None = None
    sections: tuple = ()  # (case.yaml key, "module:function" validating and parsing it)
    data_files: tuple = ()  # glob patterns, relative to the package, of data the figures use
    stamp: str = "metric"  # "metric" (metricFingerprint) or "drawing" (drawingFingerprint)
    # The pass threshold of a metric the seed does not define; the seed's five take theirs
    # from standard.THRESHOLDS, the standard the fingerprint seals.
    threshold: float | None = None

    @property
    def modules(self) -> tuple[str, ...]:
        """Every module this metric names (stage, hook, validators), for the fingerprint."""
        targets = [self.stage, self.reference_stage, self.ahead, *(v for _, v in self.sections)]
        return tuple(dict.fromkeys(t.split(":")[0] for t in targets if t))


METRICS = (
    Metric(
        "shapeIoU",
        "shape",
        "Shape fidelity",
        "cadbench_wb.app.shape.stage:shape_stage",
    ),
    Metric(
        "dimensionRecall",
        "dimensions",
        "Dimensional accuracy",
        "cadbench_wb.app.dimensions.stage:dimension_stage",
        "cadbench_wb.app.dimensions.stage:reference_stage",
    ),
    Metric(
        "semanticMatch",
        "features",
        "Feature fidelity",
        "cadbench_wb.app.features.stage:feature_stage",
        sections=(("features", "cadbench_wb.metrics.case_sections:features_section"),),
    ),
    Metric(
        "threadMatch",
        "threads",
        "Thread fidelity",
        "cadbench_wb.app.threads.stage:thread_stage",
        "cadbench_wb.app.threads.stage:reference_stage",
        sections=(("threads", "cadbench_wb.metrics.case_sections:threads_section"),),
        # A cosmetic 'M8' takes its pitch from these tables.
        data_files=(
            "../resources/data/iso_metric_threads.csv",
            "../resources/data/freecad_hole_threads.csv",
        ),
    ),
    Metric(
        "drawingMatch",
        "drawing",
        "Drawing fidelity",
        "cadbench_wb.app.drawing.stage:drawing_stage",
        "cadbench_wb.app.drawing.stage:reference_stage",
        ahead="cadbench_wb.app.drawing.ahead:started",
        data_files=("../resources/templates/*.svg",),
        stamp="drawing",
    ),
)

# The orchestrator and the result assembly, sealed with every metric.
SCORING_MODULES = ("cadbench_wb.app.scoring",)

NAMES = tuple(metric.name for metric in METRICS)
GROUPS = {metric.group: (metric.name,) for metric in METRICS}
LABELS = {metric.name: metric.label for metric in METRICS}


class MetricNotLoadable(ImportError):
    """A registered stage, hook or validator that cannot be imported or is missing."""


def threshold_of(name: str, thresholds: dict) -> float:
    """The pass threshold of a metric: the standard's, else its registry line's."""
    if name in thresholds:
        return thresholds[name]
    value = by_name(name).threshold
    if value is None:
        raise KeyError(f"{name}: no threshold in standard.THRESHOLDS or the registry")
    return value


def by_name(name: str) -> Metric:
    for metric in METRICS:
        if metric.name == name:
            return metric
    raise KeyError(name)


def resolve(target: str):
    """The function a "module:function" reference names; MetricNotLoadable when the module
    or the function is missing, with the cause chained."""
    module_name, _, function_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise MetricNotLoadable(f"metric module {module_name} cannot be imported: {exc}") from exc
    function = getattr(module, function_name, None)
    if not callable(function):
        raise MetricNotLoadable(f"{module_name} has no function {function_name}")
    return function


def section_owners() -> dict[str, tuple[Metric, str]]:
    """case.yaml key -> (the metric owning it, its validator reference)."""
    return {key: (metric, validator) for metric in METRICS for key, validator in metric.sections}
