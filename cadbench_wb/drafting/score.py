# SPDX-License-Identifier: LGPL-2.1-or-later
"""A candidate DXF drawing against a gold DXF drawing (seed 001's 2D vector-semantic path).

    raw   = weighted mean of the applicable components
            (0.60 geometry, 0.25 dimensions, 0.10 standalone text, 0.05 registered visual)
    gate  = 0.35 + 0.65 * geometry_similarity
    score = min(raw, gate)

A component the gold does not have (no dimensions, no standalone text) is not applicable
and the other weights renormalise: nothing is awarded for free. A candidate that cannot be
scored gets 0 and a named failure reason.
"""

import copy
import os

import numpy as np

from cadbench_wb import standard
from cadbench_wb.drafting import (
    annotations,
    classify,
    diagnostic_png,
    geometry,
    matching,
    raster,
    registration,
)
from cadbench_wb.drafting.reading import DrawingUnreadable, file_format, read_drawing
from cadbench_wb.results import fingerprint
from cadbench_wb.results.result import file_digest

SCHEMA = "cadbench.drawing-score/1"
FAILURE_REASONS = (
    "missing_candidate",
    "unreadable_file",  # a special file, or one the OS will not let cadbench read
    "unreadable_dxf",
    "blocks_too_deep",  # reading.py: nesting beyond standard.DXF_MAX_BLOCK_DEPTH
    "non_finite_coordinates",
    "coordinates_out_of_range",
    "empty_model_space",
    "prohibited_entity",
    "external_reference",
    "render_failed",
    "gold_invalid",
)
COMPONENTS = (
    "geometry_similarity",
    "dimension_similarity",
    "standalone_text_annotation_similarity",
    "registered_visual_similarity",
)
_SCORER_MODULES = ("cadbench_wb.drafting.score", "cadbench_wb.commands.drawing_score")


class ScoreFailure(Exception):
    def __init__(self, reason: str, detail: str):
        assert reason in FAILURE_REASONS, reason
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def scorer_config(prohibited: list[str] | None = None) -> dict:
    """The standard in force: DRAWING_2D, the dimension tolerances, the prohibited list."""
    config = copy.deepcopy(standard.DRAWING_2D)
    if prohibited is not None:
        config["prohibited_entities"] = sorted({name.upper() for name in prohibited})
    config["linear_tolerance"] = [standard.LINEAR_TOLERANCE_ABS_MM, standard.LINEAR_TOLERANCE_REL]
    config["angular_tolerance_deg"] = standard.ANGULAR_TOLERANCE_DEG
    config["annotation"] = copy.deepcopy(standard.DRAWING_2D_ANNOTATION)
    return config


def scorer_config_hash(config: dict) -> str:
    """16 hex digits over the scorer's modules (everything drawing-score imports, found as
    the metric fingerprint finds its own) and its configuration."""
    return fingerprint.module_fingerprint(_SCORER_MODULES, config)


def _file_facts(path: str) -> dict:
    facts = {"path": path, "sha256": file_digest(path), "format": None}
    if facts["sha256"] is not None:  # a regular file this process may read
        facts["format"] = file_format(path)
    return facts


def _blocks_reached(doc):
    """Model space and every block it places, each once."""
    seen, pending, layouts = set(), [doc.modelspace()], []
    while pending:
        layout = pending.pop()
        layouts.append(layout)
        for insert in layout.query("INSERT"):
            name = insert.dxf.name
            block = doc.blocks.get(name)
            if block is not None and name not in seen:
                seen.add(name)
                pending.append(block)
    return layouts, seen


def _admission(doc, prohibited: list[str]) -> None:
    """Raise ScoreFailure for prohibited entities or external references."""
    layouts, names = _blocks_reached(doc)
    found = sorted({e.dxftype() for layout in layouts for e in layout} & set(prohibited))
    if found:
        raise ScoreFailure("prohibited_entity", f"prohibited entity types: {', '.join(found)}")
    external = sorted(
        name
        for name in names
        if doc.blocks.get(name).block.is_xref or doc.blocks.get(name).block.is_xref_overlay
    )
    if external:
        raise ScoreFailure(
            "external_reference", f"external references (XREF blocks): {', '.join(external)}"
        )


def _read_gold(path: str):
    try:
        doc = read_drawing(path)
    except DrawingUnreadable as exc:
        raise ScoreFailure("gold_invalid", f"gold {exc.reason}: {exc.detail}") from None
    try:
        _admission(doc, [])
    except ScoreFailure as exc:
        raise ScoreFailure("gold_invalid", f"gold {exc.reason}: {exc}") from None
    return doc


# Reasons reading.py gives that the candidate's failure names as they are.
_PASSED_THROUGH = (
    "empty_model_space",
    "unreadable_file",
    "blocks_too_deep",
    "non_finite_coordinates",
    "coordinates_out_of_range",
)


def _read_candidate(path: str, prohibited: list[str]):
    if not os.path.lexists(path):
        raise ScoreFailure("missing_candidate", f"{path}: no such file")
    try:
        doc = read_drawing(path)
    except DrawingUnreadable as exc:
        if exc.reason == "missing_file":
            raise ScoreFailure("missing_candidate", exc.detail) from None
        if exc.reason in _PASSED_THROUGH:
            raise ScoreFailure(exc.reason, exc.detail) from None
        raise ScoreFailure("unreadable_dxf", f"{exc.reason}: {exc.detail}") from None
    _admission(doc, prohibited)
    return doc


def _rounded(value, digits: int = standard.SIGNIFICANT_DIGITS):
    if isinstance(value, float):
        return float(f"{value:.{digits}g}")
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v, digits) for v in value]
    return value


def _result(gold_path, candidate_path, config) -> dict:
    return {
        "schema": SCHEMA,
        "score": 0.0,
        "failure": None,
        "failure_detail": None,
        "raw": None,
        "geometry_gate": None,
        "components": {
            name: {
                "value": None,
                "applicable": None,
                "weight": config["weights"][name],
                "counts": {},
            }
            for name in COMPONENTS
        },
        "gold": _file_facts(gold_path),
        "candidate": _file_facts(candidate_path),
        "registration": None,
        "classification": None,
        "diagnostic": None,
        "notDrawn": None,
        "scorerConfigHash": scorer_config_hash(config),
    }


def score_drawings(
    gold_path: str,
    candidate_path: str,
    *,
    prohibited: list[str] | None = None,
    diagnostic: str | None = None,
) -> dict:
    """The score JSON (as a dict) of a candidate drawing against its gold drawing."""
    config = scorer_config(prohibited)
    result = _result(gold_path, candidate_path, config)
    try:
        _score_into(result, gold_path, candidate_path, config, diagnostic)
    except ScoreFailure as exc:
        result["score"], result["failure"], result["failure_detail"] = 0.0, exc.reason, str(exc)
    return _rounded(result)


def timed_out(gold_path: str, candidate_path: str, detail: str, prohibited=None) -> dict:
    """The result of a scoring stopped by the command's time limit: score 0, `timeout`
    (commands/drawing_score.py; never raised here, so not among FAILURE_REASONS)."""
    result = _result(gold_path, candidate_path, scorer_config(prohibited))
    result["failure"], result["failure_detail"] = "timeout", detail
    return _rounded(result)


def _interpreted(failure: str, what, *args, **kwargs):
    """Run one reading step; a drawing whose content ezdxf cannot interpret fails with
    ``failure`` instead of breaking the scorer (seed 001: no escape by crashing it)."""
    try:
        return what(*args, **kwargs)
    except ScoreFailure:
        raise
    except Exception as exc:  # malformed entities raise anything
        raise ScoreFailure(failure, f"cannot interpret: {type(exc).__name__}: {exc}") from None


def _sampled(doc, failure, config, interval=None):
    """(all curves, their classification, the part's curves) of one drawing."""
    every = _interpreted(
        failure,
        geometry.curves_of,
        doc,
        config["sample_interval_rel"],
        config["sample_cap"],
        interval,
    )
    classes = _interpreted(failure, classify.classified, every)
    part = classify.part_only(every, classes)
    return every, classes, part


def _score_into(result, gold_path, candidate_path, config, diagnostic) -> None:
    gold_doc = _read_gold(gold_path)
    candidate_doc = _read_candidate(candidate_path, config["prohibited_entities"])
    gold_all, gold_classes, gold = _sampled(gold_doc, "gold_invalid", config)
    if len(gold_all.points) == 0:
        raise ScoreFailure("gold_invalid", "the gold drawing has no curves in model space")
    if len(gold.points) == 0:
        raise ScoreFailure("gold_invalid", "the gold drawing has no part geometry, annotation only")
    candidate_all, candidate_classes, candidate = _sampled(
        candidate_doc, "unreadable_dxf", config, gold_all.interval
    )
    diagonal = gold.diagonal
    full = max(config["match_distance_abs"], config["match_distance_rel"] * diagonal, gold.interval)
    anchors = (
        registration.anchors_of(gold_all, gold_classes.part),
        registration.anchors_of(candidate_all, candidate_classes.part),
    )
    geometry_part = matching.geometry_similarity(
        gold, candidate, full, config["soft_falloff"], config, anchors
    )
    offset = geometry_part.pop("offset")
    result["registration"] = geometry_part.pop("registration")
    layers = geometry_part.pop("layers")
    result["classification"] = {
        "gold": gold_classes.report,
        "candidate": candidate_classes.report,
    }

    tolerance = 1e-6 * max(diagonal, 1.0)
    gold_dims, gold_texts = _interpreted(
        "gold_invalid",
        annotations.annotations_of,
        gold_doc,
        _labels(gold_all, gold_classes),
        tolerance,
    )
    candidate_dims, candidate_texts = _interpreted(
        "unreadable_dxf",
        annotations.annotations_of,
        candidate_doc,
        _labels(candidate_all, candidate_classes),
        tolerance,
    )
    radius = config["placement_radius_rel"] * diagonal
    shares = config["measurement_share"], config["placement_share"]
    dims = matching.matched_similarity(gold_dims, candidate_dims, offset, radius, *shares)
    texts = matching.matched_similarity(gold_texts, candidate_texts, offset, radius, *shares)

    try:
        gold_strokes, gold_skipped = raster.recorded_strokes(gold_doc)
    except raster.RenderFailed as exc:
        raise ScoreFailure("gold_invalid", f"the gold drawing does not render: {exc}") from None
    try:
        candidate_strokes, candidate_skipped = raster.recorded_strokes(candidate_doc)
    except raster.RenderFailed as exc:
        raise ScoreFailure("render_failed", str(exc)) from None
    result["notDrawn"] = {"gold": gold_skipped, "candidate": candidate_skipped}
    side = float(max(gold.bbox[2:] - gold.bbox[:2]))
    visual = raster.visual_similarity(gold_strokes, candidate_strokes, config, side, offset)

    parts = {
        "geometry_similarity": (geometry_part, True),
        "dimension_similarity": (dims, len(gold_dims) > 0),
        "standalone_text_annotation_similarity": (texts, len(gold_texts) > 0),
        "registered_visual_similarity": (visual, True),
    }
    weighted, weights = 0.0, 0.0
    for name, (part, applicable) in parts.items():
        entry = result["components"][name]
        entry["applicable"] = applicable
        entry["counts"] = part["counts"]
        entry["value"] = float(part["value"]) if applicable else None
        if applicable:
            weighted += config["weights"][name] * part["value"]
            weights += config["weights"][name]
    result["components"]["geometry_similarity"]["layers"] = layers
    raw = weighted / weights
    gate = config["gate_floor"] + config["gate_slope"] * geometry_part["value"]
    result["raw"], result["geometry_gate"] = raw, gate
    result["score"] = min(raw, gate)
    if diagnostic:
        drawn = diagnostic_png.Drawn(
            gold_all, gold_classes, visual["segments"]["gold"], np.zeros(2)
        )
        placed = diagnostic_png.Drawn(
            candidate_all, candidate_classes, visual["segments"]["candidate"], offset
        )
        diagnostic_png.write(diagnostic, drawn, placed, result, full)
        result["diagnostic"] = diagnostic


def _labels(curves, classes) -> list:
    return [(curves.texts[i].anchor, curves.texts[i].content) for i in classes.labels]
