# SPDX-License-Identifier: LGPL-2.1-or-later
"""What one scoring knows, for every metric to read: the models, the pose, the case, and the
values one metric computes that another needs, each a lazy attribute computed once.

A metric's measure reads facts, never another metric's stage: the feature stage and the
dimension stage both read ``reference_features``, the feature and thread stages both
``reference_threads``, the shape stage hands its fine meshes to the thread stage by setting
``reference_mesh`` / ``candidate_mesh`` (what trimesh's ``caching.Cache`` does for a mesh's
derived arrays). On a failed delivery the orchestrator builds facts of the reference alone
(``candidate`` None), for the requirements and hooks that read only the reference.
"""

import dataclasses
import functools
import time

from cadbench_wb import standard
from cadbench_wb.app.mesh_rebuild import mesh_candidate


@dataclasses.dataclass
class MeshRebuild:
    """The analytic solid rebuilt from a mesh candidate's triangles in the reference frame
    (None when the rebuild failed) and the detail the JSON reports (``rebuilt``, ``reason``)."""

    solid: object
    detail: dict


@dataclasses.dataclass(eq=False)
class Facts:
    reference: object  # loading.LoadedModel
    candidate: object = None  # loading.LoadedModel; None on a failed delivery
    aligned: object = None  # the candidate's shape in the reference frame
    alignment: object = None  # shape.alignment.Alignment
    options: dict = dataclasses.field(default_factory=dict)
    case: object = None  # cases.Case or None
    result: dict = dataclasses.field(default_factory=dict)
    timing: dict = dataclasses.field(default_factory=dict)
    # Work started ahead for a metric (registry.Metric.ahead), by metric name.
    ahead: dict = dataclasses.field(default_factory=dict)
    # What the shape stage measured for the diff export: common/missing/extra pieces.
    diff_shapes: dict = dataclasses.field(default_factory=dict)

    @property
    def is_mesh(self) -> bool:
        """Whether the candidate was delivered as triangles (STL, OBJ)."""
        return bool(getattr(self.candidate, "from_mesh", False))

    @functools.cached_property
    def reference_threads(self) -> list:
        """Modeled and cosmetic threads of the reference (threads.recognition.Thread)."""
        return threads_of(self.reference, self.reference.shape)

    @functools.cached_property
    def candidate_threads(self) -> list:
        """Modeled and cosmetic threads of the aligned candidate."""
        return threads_of(self.candidate, self.aligned)

    @functools.cached_property
    def reference_features(self) -> dict:
        """Feature recognition on the reference, threads included (its ids are the ones a
        case's ``geometry: {feature: F3}`` names)."""
        return features_of(self.reference.shape, self.reference_threads)

    @functools.cached_property
    def candidate_features(self) -> dict:
        """Feature recognition on the aligned candidate; on a mesh candidate, on the
        analytic B-rep rebuilt from its triangles (mesh_rebuild)."""
        if self.is_mesh:
            return features_of(self.mesh_rebuild.solid)
        return features_of(self.aligned, self.candidate_threads)

    @functools.cached_property
    def mesh_rebuild(self) -> MeshRebuild:
        """The analytic B-rep rebuilt from a mesh candidate (its time under
        timing["mesh_rebuild"])."""
        started = time.perf_counter()
        rebuilt = MeshRebuild(*mesh_candidate.rebuilt_from(self))
        self.timing["mesh_rebuild"] = time.perf_counter() - started
        return rebuilt

    @functools.cached_property
    def reference_mesh(self) -> tuple:
        """The fine mesh of the reference (the shape stage's, set by it, else made at the
        same deflection)."""
        return self._fine_mesh(self.reference.shape)

    @functools.cached_property
    def candidate_mesh(self) -> tuple:
        """The fine mesh of the aligned candidate, as reference_mesh."""
        return self._fine_mesh(self.aligned)

    def _fine_mesh(self, shape) -> tuple:
        from cadbench_wb.app.model import meshing  # noqa: PLC0415 - heavy: loaded on first use

        diagonal = max(
            self.reference.shape.BoundBox.DiagonalLength, self.aligned.BoundBox.DiagonalLength
        )
        return meshing.mesh_of(shape, standard.CROSS_CHECK["mesh_deflection_rel"] * diagonal)


# The kernel services behind the facts, for code that reads one model outside a scoring
# (`case verify`, a failed delivery's reference-only figures).


def threads_of(model, shape) -> list:
    """Modeled and cosmetic threads of a model (shape: its shape, or its aligned copy)."""
    from cadbench_wb.app.recognition import threads  # noqa: PLC0415 - heavy: loaded on first use

    return threads.modeled_threads(shape) + threads.cosmetic_threads(model.document_objects, shape)


def cosmetic_threads_of(model, shape) -> list:
    """A model's cosmetic threads only (a modeled one has surfaces of its own; detecting
    those costs seconds on a threaded part)."""
    from cadbench_wb.app.recognition import threads  # noqa: PLC0415 - heavy: loaded on first use

    return threads.cosmetic_threads(model.document_objects, shape)


def features_of(shape, threads=()) -> dict:
    """Feature recognition on a shape, with the threads found on it."""
    from cadbench_wb.app.recognition import features as recognition  # noqa: PLC0415 - heavy: loaded on first use

    return recognition.recognise(shape, threads)
