# SPDX-License-Identifier: LGPL-2.1-or-later
"""The report's plots as PNG bytes (matplotlib's object API: no pyplot, no global state, no
display needed): per-metric distributions, per-case ranges over runs, pass rates."""

import io

import numpy as np
from matplotlib.figure import Figure

from cadbench_wb.campaign import figures

COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


def axis_start(values, threshold: float | None) -> float:
    """Where the 0..1 axis starts: near the lowest value or the threshold when everything
    sits high (shape figures of 0.9-1 are unreadable on 0-1), else at 0. Rounded down to
    0.05 so that the same campaign always gets the same axis."""
    points = [v for v in values if v is not None]
    if threshold is not None:
        points.append(threshold)
    if not points:
        return 0.0
    low = float(np.floor((min(points) - 0.02) / 0.05) * 0.05)
    return low if low >= 0.5 else 0.0


def _color(index: int) -> str:
    return COLORS[index % len(COLORS)]


def distribution_png(rows, metric: str, systems: list[str], threshold: float | None) -> bytes:
    """Every delivered candidate's value of one metric, per system, with the threshold."""
    figure = Figure(figsize=(7, 1.2 + 0.55 * max(1, len(systems))))
    axes = figure.subplots()
    generator = np.random.default_rng(0)  # fixed jitter: the same campaign, the same picture
    start = axis_start(figures.metric_values(rows, metric), threshold)
    for index, system in enumerate(systems):
        values = figures.metric_values([r for r in rows if r["system"] == system], metric)
        if values:
            y = index + generator.uniform(-0.18, 0.18, len(values))
            axes.scatter(values, y, s=14, alpha=0.7, color=_color(index))
            axes.boxplot(
                values,
                positions=[index],
                vert=False,
                widths=0.5,
                showfliers=False,
                manage_ticks=False,
            )
    _rows_against_threshold(axes, systems, threshold, start)
    where = f"; dashed: threshold {threshold:g}" if threshold is not None else ""
    axis = f"; axis from {start:g}" if start else ""
    axes.set_xlabel(f"{metric}, delivered candidates only{where}{axis}")
    axes.set_title(f"{figures.LABELS.get(metric, metric)}: distribution", fontsize=10)
    figure.tight_layout()
    return _png(figure)


def case_ranges_png(summary: dict, metric: str, threshold: float | None) -> bytes:
    """Per case and system: the min-max range over runs with the median marked."""
    systems = list(summary)
    cases = sorted({c for s in summary.values() for c in s["cases"]})
    figure = Figure(figsize=(7, 0.9 + 0.32 * max(1, len(cases)) * max(1, len(systems)) ** 0.5))
    axes = figure.subplots()
    step = 0.7 / max(1, len(systems))
    lows = [
        entry["min"]
        for s in summary.values()
        for c in s["cases"].values()
        if (entry := c.get("ranges", {}).get(metric))
    ]
    start = axis_start(lows, threshold)
    for index, system in enumerate(systems):
        label = system
        for row, case in enumerate(cases):
            entry = summary[system]["cases"].get(case, {}).get("ranges", {}).get(metric)
            if not entry:
                continue
            y = row - 0.35 + step * (index + 0.5)
            axes.plot([entry["min"], entry["max"]], [y, y], color=_color(index), linewidth=2)
            axes.plot([entry["median"]], [y], "o", color=_color(index), markersize=4, label=label)
            label = None
    _rows_against_threshold(axes, cases, threshold, start)
    axis = f"; axis from {start:g}" if start else ""
    axes.set_xlabel(f"{metric}: min - max over runs, dot = median (delivered runs){axis}")
    if axes.get_legend_handles_labels()[1]:
        axes.legend(fontsize=8, loc="lower left")
    axes.set_title(f"{figures.LABELS.get(metric, metric)}: per-case ranges", fontsize=10)
    figure.tight_layout()
    return _png(figure)


def pass_rates_png(summary: dict) -> bytes:
    """Passed (reachable) and (formal) per system, with the range over runs as error bars."""
    systems = list(summary)
    figure = Figure(figsize=(7, 0.8 + 0.6 * max(1, len(systems))))
    axes = figure.subplots()
    y = np.arange(len(systems))
    for offset, key, label, color in (
        (-0.18, "passedReachable", "passed (reachable)", "#2ca02c"),
        (0.18, "passedFormal", "passed (formal)", "#7f7f7f"),
    ):
        rates = [100 * (summary[s][key]["rate"] or 0.0) for s in systems]
        low, high = [], []
        for system, rate in zip(systems, rates, strict=False):
            spread = summary[system]["ranges"][key]
            low.append(rate - 100 * spread["min"] if spread else 0.0)
            high.append(100 * spread["max"] - rate if spread else 0.0)
        axes.barh(y + offset, rates, height=0.34, color=color, label=label)
        axes.errorbar(
            rates,
            y + offset,
            xerr=[np.maximum(low, 0), np.maximum(high, 0)],
            fmt="none",
            ecolor="#222",
            capsize=3,
            linewidth=1,
        )
    axes.set_yticks(y, systems)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("% of checked cases (NOT CHECKED excluded); bars: range over runs")
    axes.legend(fontsize=8, loc="lower right")
    axes.set_title("Pass rates", fontsize=10)
    figure.tight_layout()
    return _png(figure)


def located_png(rows, systems: list[str]) -> bytes:
    """Per delivered scoring: dimensionRecall (the value match) against located recall. On
    the diagonal they agree; below it the value match counted values found elsewhere."""
    figure = Figure(figsize=(4.6, 4.2))
    axes = figure.subplots()
    axes.plot([0, 1], [0, 1], color="#999", linestyle=":", linewidth=1)
    for index, system in enumerate(systems):
        points = [
            (r["dimensionRecall"], r["dimensionRecallLocated"])
            for r in figures.located_rows(rows)
            if r["system"] == system and r.get("dimensionRecall") is not None
        ]
        if points:
            x, y = zip(*points, strict=True)
            axes.scatter(x, y, s=18, alpha=0.75, color=_color(index), label=system)
    axes.set_xlim(-0.03, 1.03)
    axes.set_ylim(-0.03, 1.03)
    axes.set_aspect("equal")
    axes.set_xlabel("dimensionRecall (value match; the verdict)")
    axes.set_ylabel("dimensionRecallLocated")
    if axes.get_legend_handles_labels()[1]:
        axes.legend(fontsize=8, loc="upper left")
    axes.set_title("Located against value-matched recall", fontsize=10)
    figure.tight_layout()
    return _png(figure)


def _rows_against_threshold(axes, labels, threshold, start: float = 0.0) -> None:
    """One labelled row per entry, top to bottom, on a start..1 axis with the threshold."""
    if threshold is not None:
        axes.axvline(threshold, color="#444", linestyle="--", linewidth=1)
    axes.set_yticks(range(len(labels)), labels)
    axes.set_ylim(-0.6, len(labels) - 0.4)
    axes.invert_yaxis()
    margin = 0.02 * (1.0 - start)
    axes.set_xlim(start - margin, 1.0 + margin)
