# SPDX-License-Identifier: LGPL-2.1-or-later
"""The metrics cadbench scores, each declared here once (see docs/architecture.md).

A registry line says what the orchestrator (app/scoring.py) needs to do everything but
measure:

- ``name`` (the seed's name, the result's top-level key), ``group`` (the ``--only`` name),
  ``label`` (how every output titles it), ``threshold`` (of a metric the seed does not
  define; the seed's five take theirs from standard.THRESHOLDS);
- ``measure``: the function ``measure(facts)`` (app/facts.py) that returns a
  metrics/measured.Measured: the metric's value, its declared ``outputs`` and what its
  verdict is built from; the orchestrator writes them and builds the verdict
  (metrics/verdicts.py);
- ``outputs``: every other top-level key measure may return; ``ceiling`` among them, the case's
  own maximum (seed 000's passed reachable), ``detail`` the per-item detail;
- ``requires``: what must hold for the metric to apply (app/requirements.py: ``targets``,
  ``thread``, ``solid_reference``, ``brep``, ``brep_or_rebuilt``). The orchestrator checks them in order and
  writes the standard not-applicable result itself: the value and the ceiling null, the
  ``blank`` outputs, ``detail`` as ``{applicable: false, reason}`` (or what ``explain``
  (facts, reason) says the metric found), the verdict verdicts.not_applicable;
- ``brep``: what the metric reads of an analytic B-rep, the mesh rule's reason;
- ``reference_stage``: what a scoring with no candidate still reports (the case's ceiling);
  ``ahead``: work started in a child once the reference is read;
- ``sections`` (the case.yaml keys it owns, with a pure validator each), ``data_files`` (the
  data its figures depend on) and ``stamp`` (seed 000's metric fingerprint, or the drawing
  chain's own ``drawingFingerprint``, which the orchestrator writes).

Everything else derives from this table: the order stages run in, ``--only``, the result's
metric keys, every output's names and labels, ``case check``, the fingerprints.

References are "module:function" strings because this module is pure (it must load without
FreeCAD, for ``case check`` and ``cadbench info``); ``resolve`` turns them into functions
and fails loudly, so a renamed or broken module stops scoring instead of dropping a metric
from the verdicts.

Adding a metric: one package for its measure (and its pure matching under metrics/), and
one line in METRICS; the GUI, the reports, the campaign figures and the demo read it here.
"""

import dataclasses
import importlib


@dataclasses.dataclass(frozen=True)
class Metric:
    name: str  # the seed's internal name, also the result's top-level key
    group: str  # the --only name
    label: str  # how reports title it
    measure: str  # "module:function" taking the scoring facts
    reference_stage: str | None = None  # "module:function"(reference, case, options, result)
    # "module:function"(reference, case, options, result) called once the reference is read:
    # work started ahead in a child, or None: an object told delivered(candidate path, the
    # loaded model) once the candidate is read, aligned(candidate path, alignment.Pose) once
    # it is aligned, settled() -> {timing key: seconds} before the reference-only hook runs
    # in a scoring, and close() -> {timing key: seconds} after the last stage.
    ahead: str | None = None
    sections: tuple = ()  # (case.yaml key, "module:function" validating and parsing it)
    data_files: tuple = ()  # glob patterns, relative to the package, of data the figures use
    stamp: str = "metric"  # "metric" (metricFingerprint) or "drawing" (drawingFingerprint)
    # The pass threshold of a metric the seed does not define; the seed's five take theirs
    # from standard.THRESHOLDS, the standard the fingerprint seals.
    threshold: float | None = None
    requires: tuple = ()  # app/requirements.py names, checked in this order
    outputs: tuple = ()  # top-level keys measure returns besides its value (name)
    ceiling: str | None = None  # the output holding the case's ceiling
    detail: str | None = None  # the output holding the per-item detail
    blank: tuple = ()  # (output, value) when the metric does not apply (besides name, ceiling)
    explain: str | None = None  # "module:function"(facts, reason) -> the not-applicable detail
    brep: str | None = None  # what the metric reads of an analytic B-rep (the mesh rule)
    floor: str | None = None  # the output holding the case's chance floor (seed 000)
    beside: tuple = ()  # outputs the demo's table prints beside the value

    @property
    def modules(self) -> tuple[str, ...]:
        """Every module this metric names (measure, hooks, validators), for the fingerprint."""
        targets = [
            self.measure,
            self.reference_stage,
            self.ahead,
            self.explain,
            *(v for _, v in self.sections),
        ]
        return tuple(dict.fromkeys(t.split(":")[0] for t in targets if t))

    @property
    def keys(self) -> tuple[str, ...]:
        """Every top-level key of a result this metric may write."""
        stamp = () if self.stamp == "metric" else (f"{self.stamp}Fingerprint",)
        return (self.name, *self.outputs, *stamp)


METRICS = (
    Metric(
        "shapeIoU",
        "shape",
        "Shape fidelity",
        "cadbench_wb.app.shape.stage:shape_stage",
        requires=("solid_reference",),
        outputs=("shape", "diffFiles"),
    ),
    Metric(
        "dimensionRecall",
        "dimensions",
        "Dimensional accuracy",
        "cadbench_wb.app.dimensions.stage:dimension_stage",
        "cadbench_wb.app.dimensions.stage:reference_stage",
        requires=("targets", "brep"),
        outputs=(
            "referenceCoverage",
            "randomHitRate",
            "dimensions",
            "dimensionSpectrum",
            "dimensionRecallLocated",
            "referenceCoverageLocated",
            "dimensionLocated",
        ),
        ceiling="referenceCoverage",
        floor="randomHitRate",
        beside=("referenceCoverage",),
        blank=(
            ("randomHitRate", None),
            ("dimensionRecallLocated", None),
            ("referenceCoverageLocated", None),
            ("dimensions", []),
        ),
        brep="dimensions are measured between analytic B-rep faces and edges "
        "(diameters on circles and cylinders)",
    ),
    Metric(
        "semanticMatch",
        "features",
        "Feature fidelity",
        "cadbench_wb.app.features.stage:feature_stage",
        sections=(("features", "cadbench_wb.metrics.case_sections:features_section"),),
        requires=("brep_or_rebuilt",),
        outputs=("features",),
        detail="features",
        brep="features are recognised on analytic B-rep faces",
    ),
    Metric(
        "threadMatch",
        "threads",
        "Thread fidelity",
        "cadbench_wb.app.threads.stage:thread_stage",
        sections=(("threads", "cadbench_wb.metrics.case_sections:threads_section"),),
        # A cosmetic 'M8' takes its pitch from these tables.
        data_files=(
            "../resources/data/iso_metric_threads.csv",
            "../resources/data/freecad_hole_threads.csv",
        ),
        requires=("solid_reference", "thread"),
        outputs=("threads",),
        detail="threads",
        explain="cadbench_wb.app.threads.stage:not_applicable_detail",
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
        requires=("targets", "brep"),
        outputs=("drawingSelfTest", "drawing"),
        ceiling="drawingSelfTest",
        detail="drawing",
        brep="the drawing dimensions analytic B-rep edges (circles, lines)",
    ),
)

# The orchestrator and the result assembly, sealed with every metric; and the exact-boolean
# child's module, which no import names (time_budget starts it by a command line), so that
# the exact booleans it runs (app/shape/exact.py) are sealed as well.
SCORING_MODULES = ("cadbench_wb.app.scoring", "cadbench_wb.app.shape.exact_child")

NAMES = tuple(metric.name for metric in METRICS)
GROUPS = {metric.group: (metric.name,) for metric in METRICS}
LABELS = {metric.name: metric.label for metric in METRICS}
# The case's own maximum of each metric that has one (seed 000's passed reachable).
CEILINGS = {metric.name: metric.ceiling for metric in METRICS if metric.ceiling}
# Per-case figures beside the metrics: each metric's ceiling, then each chance floor.
CASE_FIGURES = tuple(CEILINGS.values()) + tuple(m.floor for m in METRICS if m.floor)


def requiring(requirement: str) -> tuple[str, ...]:
    """The metrics whose requires list a requirement ("targets": those a case's target
    dimensions feed)."""
    return tuple(metric.name for metric in METRICS if requirement in metric.requires)


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
