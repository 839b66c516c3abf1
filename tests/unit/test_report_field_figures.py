# SPDX-License-Identifier: LGPL-2.1-or-later
"""report.html shows the field's figures (issue 30): per system the invalid rate with its
timeout and the median chamferDistance and voxelIoU64, each protocol named, and per scoring
both values; in a real headless Chromium the section's filter works and nothing logs an error.

The documents are made-up scorings summarised by the campaign's own code (field.py), so every
expected cell follows from the values written here."""

import html

import pytest
from chromium_page import CHROMIUM, Page
from test_campaign_reports import CASES, document_of, scored

from cadbench_wb.campaign import field, figures, reports
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.metrics.field_figures import PROTOCOLS
from cadbench_wb.results import result as results

# system -> case -> (chamferDistance, voxelIoU64); None: a script that made no model.
VALUES = {
    "coder": {"k1": (0.5, 0.9), "k2": (1.5, 0.7)},
    "sketchy": {"k1": (2.0, 0.6), "k2": None},
}


def _result(value):
    if value is None:
        failed = results.failure_result("r", "c", {}, "no_result", "no result", ("shapeIoU",))
        return results.finish(failed)
    result = scored(0.95)
    result["fieldFigures"] = {
        name: {"value": v, "protocol": PROTOCOLS[name]}
        for name, v in zip(("chamferDistance", "voxelIoU64"), value, strict=True)
    }
    return result


def field_document() -> dict:
    rows = [
        figures.row_of(
            Submission(system, "r1", case_id, f"/s/{system}/r1/{case_id}.py"),
            next(c for c in CASES if c.id == case_id),
            _result(value),
        )
        for system, cases in VALUES.items()
        for case_id, value in cases.items()
    ]
    document = document_of({("s", "r1", "k1"): 0.95})
    document.update(
        scorings=rows,
        metrics=figures.rows_metrics(rows),
        summary=figures.campaign_summary(rows),
        fieldFigures=field.campaign_field_figures(rows, 600.0, 60.0),
    )
    document["campaign"].update(systems={s: ["r1"] for s in VALUES}, scorings=len(rows))
    return document


def test_the_page_has_each_systems_field_figures_with_their_protocols():
    page = reports.html_text(field_document())
    assert "id='field-figures'" in page
    # coder: medians of (0.5, 1.5) and (0.9, 0.7), both delivered; sketchy: one of two
    # scripts made nothing, so 1/2 invalid and medians over its one delivered scoring.
    assert "<td class='num'>0/2   0.0%</td>" in page
    assert "<td class='num'>1/2  50.0%</td>" in page
    assert "<td class='num'>1.0000 (2)</td>" in page and "<td class='num'>0.8000 (2)</td>" in page
    assert "<td class='num'>2.0000 (1)</td>" in page and "<td class='num'>0.6000 (1)</td>" in page
    assert page.count("<td class='num'>60 s (script)</td>") == 2
    for protocol in (*PROTOCOLS.values(), field.INVALID_PROTOCOL):
        assert html.escape(protocol) in page
    assert "data-table='field'" in page


def test_a_document_without_field_figures_has_no_such_section():
    assert "id='field-figures'" not in reports.html_text(document_of({("s", "r1", "k1"): 0.95}))


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)")
def test_the_field_table_filters_and_sorts_in_chromium_without_an_error(tmp_path):
    path = tmp_path / "report.html"
    path.write_text(reports.html_text(field_document()), encoding="utf-8")
    page = Page(path.as_uri())
    try:

        def shown(column):
            return page.evaluate(
                "Array.from(document.getElementById('table-field').tBodies[0].rows)"
                ".filter(r => r.style.display !== 'none')"
                f".map(r => r.cells[{column}].textContent.trim())"
            )

        assert shown(4) == ["0.5000", "1.5000", "2.0000", "-"]
        page.type_text("input[data-table='field']", "sketchy")
        assert shown(2) == ["k1", "k2"] and shown(3)[1].startswith("no_result")
        page.evaluate(
            "(function (b) { b.value = ''; b.dispatchEvent(new Event('input')); })"
            "(document.querySelector(\"input[data-table='field']\"))"
        )
        page.click("#table-field thead th:nth-child(6)")  # voxelIoU64, ascending
        assert shown(5) == ["0.6000", "0.7000", "0.9000", "-"]
        assert page.errors == []
    finally:
        page.close()
