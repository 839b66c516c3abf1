# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every registered metric keeps the contract its registry line declares (issue 28), as
freecad.gears' test_workbench_commands.py walks every registered command: it resolves, it
requires only what the orchestrator checks, it declares every key it writes, and its
not-applicable result is the orchestrator's, the same for every metric."""

import ast
import dataclasses

import pytest

from cadbench_wb import standard
from cadbench_wb.metrics import registry, verdicts
from cadbench_wb.results import fingerprint

METRICS = registry.METRICS
IDS = [m.name for m in METRICS]


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
def test_every_reference_of_a_metric_resolves_to_a_function(fc, metric):
    hooks = [metric.measure, metric.reference_stage, metric.ahead, metric.explain]
    hooks += [validator for _, validator in metric.sections]
    for target in filter(None, hooks):
        assert callable(registry.resolve(target)), target


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
def test_every_requirement_is_one_the_orchestrator_checks(fc, metric):
    from cadbench_wb.app import requirements

    for name in metric.requires:
        assert name in requirements.REQUIREMENTS, (metric.name, name)
    # The mesh rule's reason names what the metric reads of a B-rep.
    if {"brep", "brep_or_rebuilt"} & set(metric.requires):
        assert metric.brep, metric.name


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
def test_every_figure_it_names_is_a_declared_output(metric):
    declared = set(metric.outputs)
    named = {metric.ceiling, metric.floor, metric.detail, *metric.beside} - {None}
    named |= {key for key, _ in metric.blank}
    assert named <= declared, (metric.name, named - declared)
    assert metric.name not in declared


def test_names_groups_and_written_keys_have_one_owner():
    assert len(set(IDS)) == len(IDS)
    assert len({m.group for m in METRICS}) == len(METRICS)
    owners = {}
    for metric in METRICS:
        for key in metric.keys:
            assert key not in owners, (key, owners.get(key), metric.name)
            owners[key] = metric.name


def test_every_metric_has_one_threshold_and_the_standard_names_only_registered_ones():
    for metric in METRICS:
        assert 0.0 < registry.threshold_of(metric.name, standard.THRESHOLDS) <= 1.0
        # One source: the standard's (seed 000's five) or the registry line's, never both.
        assert (metric.name in standard.THRESHOLDS) != (metric.threshold is not None)
    assert set(standard.THRESHOLDS) <= set(IDS)
    assert fingerprint.sealed_standard()["ceilings"] == {
        m.name: m.ceiling for m in METRICS if m.ceiling
    }


def _facts(fc, case=None):
    from cadbench_wb.app import facts

    found = facts.Facts(None, case=case, result={"verdicts": {}})
    # What the explain hooks read, as a reference and a candidate without threads have it.
    found.reference_threads, found.candidate_threads = [], []
    return found


@pytest.mark.parametrize("metric", [m for m in METRICS if m.requires], ids=lambda m: m.name)
@pytest.mark.parametrize("delivered", [True, False], ids=["scored", "not-delivered"])
def test_the_not_applicable_result_is_the_orchestrators_and_writes_only_declared_keys(
    fc, metric, delivered
):
    from cadbench_wb.app import requirements, scoring

    facts = _facts(fc)
    before, verdicts_before = dict(facts.result), set(facts.result["verdicts"])
    unmet = requirements.Unmet("a reason from the requirement")
    scoring._not_applicable(facts, metric, unmet, delivered)
    scoring._held_to_declaration(metric, facts.result, before, verdicts_before)  # no raise
    result = facts.result
    assert result[metric.name] is None
    if metric.ceiling:
        assert result[metric.ceiling] is None
    for key, value in metric.blank:
        assert result[key] == value
    entry = result["verdicts"][metric.name]
    assert entry == verdicts.not_applicable(metric.name, unmet.reason)
    assert entry["verdict"] == entry["reachable"] == verdicts.NOT_APPLICABLE
    assert verdicts.shown_verdict(entry) == verdicts.NOT_APPLICABLE
    if metric.detail and (delivered or metric.explain is None):
        assert result[metric.detail]["applicable"] is False


def test_two_scorings_blank_the_same_list_apart():
    # A blank output that is a list (dimensions: []) is each result's own, never shared.
    from cadbench_wb.app import facts, requirements, scoring

    metric = registry.by_name("dimensionRecall")
    first, second = (facts.Facts(None, result={"verdicts": {}}) for _ in range(2))
    for found in (first, second):
        scoring._not_applicable(found, metric, requirements.Unmet("no case"))
    first.result["dimensions"].append("x")
    assert second.result["dimensions"] == []


def test_no_stage_builds_a_not_applicable_verdict_by_hand():
    # The orchestrator alone writes it (verdicts.not_applicable), so every metric's reads
    # the same; a stage that marked an entry applicable: false itself would bypass it.
    offenders = []
    for metric in METRICS:
        for module in metric.modules:
            path = fingerprint.module_file(module)
            tree = ast.parse(open(path, encoding="utf-8").read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == (
                    "not_applicable"
                ):
                    offenders.append((module, node.lineno))
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Subscript) and getattr(t.slice, "value", None) == "applicable"
                    for t in node.targets
                ):
                    offenders.append((module, node.lineno))
    assert offenders == []


def test_an_unknown_requirement_stops_scoring_before_the_first_stage(fc, monkeypatch):
    from cadbench_wb.app import scoring

    odd = dataclasses.replace(registry.by_name("threadMatch"), requires=("thread", "colour"))
    monkeypatch.setattr(registry, "METRICS", (*METRICS[:3], odd, *METRICS[4:]))
    with pytest.raises(registry.MetricNotLoadable, match="threadMatch requires colour"):
        scoring.stage_functions()


@pytest.mark.parametrize("metric", METRICS, ids=IDS)
def test_every_measure_returns_a_measured_and_builds_no_verdict(fc, metric):
    # Issue 28: a measure returns its figures (metrics/measured.py); the orchestrator writes
    # them and builds the verdict, so no metric module calls the verdict module itself.
    from cadbench_wb.metrics.measured import Measured

    function = registry.resolve(metric.measure)
    assert function.__annotations__.get("return") is Measured, metric.measure
    for module in metric.modules:
        tree = ast.parse(open(fingerprint.module_file(module), encoding="utf-8").read())
        calls = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and getattr(node.func.value, "id", "") == "verdicts"
        ]
        assert calls == [], (module, calls)


def test_the_verdict_of_a_measurement_is_the_verdict_modules_with_its_detail_and_note(fc):
    from cadbench_wb.app import scoring
    from cadbench_wb.metrics.measured import Measured

    # 0.7 < 0.95 but at the ceiling 0.7: FAIL, reachable PASS; the detail follows the
    # verdict module's own reason.
    entry = scoring.verdict_of(
        "dimensionRecall", Measured(0.7, reason_detail=" (7 of 10)", ceiling=0.7, note="n")
    )
    expected = verdicts.verdict("dimensionRecall", 0.7, ceiling=0.7)
    expected["reason"] += " (7 of 10)"
    assert entry == {**expected, "note": "n"}
    assert (entry["verdict"], entry["reachable"]) == ("FAIL", "PASS")
    # judged: the verdict reads another figure than the value (automatic targets).
    judged = scoring.verdict_of("dimensionRecall", Measured(0.5, judged=1.0))
    assert judged["value"] == 1.0 and judged["verdict"] == "PASS"
    # A value None is NOT CHECKED with the reason given, never a soft FAIL.
    unchecked = scoring.verdict_of("drawingMatch", Measured(None, reason="not drawn"))
    assert unchecked["verdict"] == "NOT CHECKED" and unchecked["reason"] == "not drawn"
    # The outputs are read-only once returned.
    with pytest.raises(TypeError):
        Measured(1.0, {"a": 1}).outputs["b"] = 2
