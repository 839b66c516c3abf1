# SPDX-License-Identifier: LGPL-2.1-or-later
"""report.html in a real headless Chromium (Debian's ``chromium``, in the Makefile's
APT_PACKAGES): typing in a filter box keeps the matching rows, a click on a rate column's
header sorts by the rate, the key columns stay in view when a wide table scrolls, and the
page's script raises nothing and logs no error.

The documents are built with the report's own summary code from made-up scorings
(test_campaign_reports), so every expected row follows from their construction.
"""

import pytest
from chromium_page import CHROMIUM, Page
from test_campaign_reports import CASES, located_document, scored

from cadbench_wb.campaign import figures, reports
from cadbench_wb.campaign.layout import Submission

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)")

# system -> IoU per (run, case); 0.95 passes shapeIoU's 0.9, 0.5 fails.
PASSES = {
    "a": {("r1", "k1"): 0.95, ("r1", "k2"): 0.95, ("r2", "k1"): 0.95, ("r2", "k2"): 0.5},
    "b": {("r1", "k1"): 0.95, ("r1", "k2"): 0.95},
    "c": {("r1", "k1"): 0.95, ("r1", "k2"): 0.5, ("r2", "k1"): 0.5, ("r2", "k2"): 0.5},
}
# Passed (reachable) per system: a 3/4 75 %, b 2/2 100 %, c 1/4 25 %. Sorted by the count
# that would be c, b, a; by the rate it is c, a, b.
BY_RATE = ["c", "a", "b"]


def rates_document() -> dict:
    rows = [
        figures.row_of(Submission(system, run, case_id, "/s/x.step"),
                       next(c for c in CASES if c.id == case_id), scored(value))
        for system, runs in PASSES.items()
        for (run, case_id), value in sorted(runs.items())
    ]  # fmt: skip
    document = located_document()
    document.update(
        scorings=rows,
        metrics=figures.rows_metrics(rows),
        thresholds={"shapeIoU": 0.9},
        summary=figures.campaign_summary(rows),
    )
    document["campaign"].update(systems={s: sorted({r for r, _ in v}) for s, v in PASSES.items()})
    document["campaign"]["scorings"] = len(rows)
    return document


def _open(tmp_path, document, width=1000) -> Page:
    path = tmp_path / "report.html"
    path.write_text(reports.html_text(document), encoding="utf-8")
    return Page(path.as_uri(), width=width)


def _shown(page, table: str, column: int) -> list:
    return page.evaluate(
        f"Array.from(document.getElementById('table-{table}').tBodies[0].rows)"
        ".filter(r => r.style.display !== 'none')"
        f".map(r => r.cells[{column}].textContent.trim())"
    )


def test_every_id_is_unique_and_each_filter_finds_its_table(tmp_path):
    page = _open(tmp_path, located_document())
    try:
        ids = page.evaluate("Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
        assert len(ids) == len(set(ids)) and "located-recall" in ids
        tables = page.evaluate(
            "Array.from(document.querySelectorAll('input.filter')).map(b => "
            "document.getElementById('table-' + b.dataset.table).tagName)"
        )
        assert tables == ["TABLE", "TABLE"]  # the located scorings and every scoring
        assert page.errors == []
    finally:
        page.close()


def test_typing_in_the_located_filter_keeps_the_matching_rows_without_an_error(tmp_path):
    """The located table's rows are the scorings whose two recalls differ: k1 only
    (located_document). Typed key by key, 'k2' leaves none, and clearing it brings k1 back."""
    page = _open(tmp_path, located_document())
    try:
        assert _shown(page, "located", 2) == ["k1"]
        page.type_text("input[data-table='located']", "k2")
        assert _shown(page, "located", 2) == []
        page.evaluate("(function (b) { b.value = ''; b.dispatchEvent(new Event('input')); })"
                      "(document.querySelector(\"input[data-table='located']\"))")  # fmt: skip
        assert _shown(page, "located", 2) == ["k1"]
        page.type_text("input[data-table='scorings']", "k2")
        assert _shown(page, "scorings", 2) == ["k2"]
        assert page.errors == []
    finally:
        page.close()


def test_a_click_on_a_rate_header_sorts_by_the_rate(tmp_path):
    page = _open(tmp_path, rates_document())
    try:
        systems = "document.querySelector('h2 + div table')"
        assert page.evaluate(f"{systems}.tHead.rows[0].cells[1].textContent") == (
            "passed (reachable)"
        )
        page.click("h2 + div table thead th:nth-child(2)")
        order = page.evaluate(
            f"Array.from({systems}.tBodies[0].rows).map(r => r.cells[0].textContent)"
        )
        assert order == BY_RATE
        page.click("h2 + div table thead th:nth-child(2)")
        order = page.evaluate(
            f"Array.from({systems}.tBodies[0].rows).map(r => r.cells[0].textContent)"
        )
        assert order == BY_RATE[::-1]
        assert page.errors == []
    finally:
        page.close()


def test_the_verdict_columns_stay_in_view_when_every_scoring_scrolls_sideways(tmp_path):
    """In a 500 px window the table of every scoring is wider than its box: scrolled to
    its right end, system, run, case and both verdicts are still at the box's left."""
    page = _open(tmp_path, rates_document(), width=500)
    try:
        table = "document.getElementById('table-scorings')"
        wide = page.evaluate(
            f"{table}.parentElement.scrollWidth > {table}.parentElement.clientWidth"
        )
        assert wide
        page.evaluate(f"{table}.parentElement.scrollLeft = 100000")
        lefts = page.evaluate(
            f"(function (t) {{ var box = t.parentElement.getBoundingClientRect().left;"
            " return Array.from(t.tBodies[0].rows[0].cells).slice(0, 6)"
            ".map(c => Math.round(c.getBoundingClientRect().left - box)); })"
            f"({table})"
        )
        widths = page.evaluate(
            f"Array.from({table}.tBodies[0].rows[0].cells).slice(0, 5)"
            ".map(c => c.getBoundingClientRect().width)"
        )
        # The five key cells side by side from the box's left edge, the sixth scrolled away.
        expected, left = [], 0.0
        for width in widths:
            expected.append(round(left))
            left += width
        assert all(abs(a - b) <= 1 for a, b in zip(lefts[:5], expected, strict=True)), lefts
        assert lefts[5] < 0
        header = page.evaluate(f"{table}.tHead.rows[0].cells[3].textContent")
        assert header == "reachable"
        assert page.errors == []
    finally:
        page.close()
