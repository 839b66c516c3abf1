# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which IoU to believe: the exact booleans, checked against each other and against two
independent estimates (a mesh boolean and seeded point sampling).

Seed 000 requires that boolean volumes be "safeguarded against the silent pitfalls". On two
modeled M8 bolts OpenCASCADE returned an IoU of 0.943 that passed inclusion-exclusion
while sampling said 0.848 +- 0.013, so internal consistency alone proves nothing: the exact
figure is kept only when an independent method agrees with it. When it is refuted and the
two independent methods agree, their figure is reported with its method; when no two
methods agree, the metric is NOT CHECKED. Never a silently wrong number.
"""


def figures_from(volumes: dict) -> dict:
    """IoU, Dice, precision and recall from the volumes a, b, common, union (seed 002)."""
    a, b, common = volumes["a"], volumes["b"], volumes["common"]
    union = volumes.get("union") or (a + b - common)
    return {
        "iou": common / union if union > 0 else 0.0,
        "dice": 2 * common / (a + b) if a + b > 0 else 0.0,
        "precision": common / b if b > 0 else 0.0,
        "recall": common / a if a > 0 else 0.0,
        "volumeA": a,
        "volumeB": b,
        "volumeCommon": common,
        "volumeUnion": union,
        "volumeMissing": a - common,
        "volumeExtra": b - common,
    }


def exact_residuals(volumes: dict) -> dict | None:
    """Relative residuals of the exact booleans' own consistency, or None if one failed."""
    keys = ("a", "b", "common", "union", "missing", "extra")
    if any(volumes.get(k) is None for k in keys):
        return None
    a, b, common, union = volumes["a"], volumes["b"], volumes["common"], volumes["union"]
    scale = a + b
    return {
        "inclusionExclusion": abs(common + union - a - b) / scale,
        "differences": max(
            abs(volumes["missing"] - (a - common)), abs(volumes["extra"] - (b - common))
        )
        / scale,
        "bounds": 0.0 if -1e-9 * scale <= common <= min(a, b) * (1 + 1e-9) else 1.0,
    }


def exact_consistent(exact: dict, params: dict) -> bool:
    """Whether exact booleans' volumes pass their own consistency checks (decide's rule): an
    inconsistent result is never the reported one, whatever the estimates say."""
    return _consistent(exact, exact_residuals(exact), params)


def _consistent(exact: dict, residuals: dict | None, params: dict) -> bool:
    return residuals is not None and (
        residuals["inclusionExclusion"] <= params["inclusion_exclusion_rel"]
        and residuals["differences"] <= params["difference_rel"]
        and residuals["bounds"] == 0.0
        and exact["union"] > 0
    )


def decide(
    exact: dict,
    mesh: dict | None,
    sampled: dict,
    params: dict,
    exact_skipped: str | None = None,
    mesh_failure: str | None = None,
) -> dict:
    """The method whose figure is reported, the volumes it gives, and why.

    exact_skipped names why the exact booleans were not run (modeled threads, time budget):
    then only the mesh figure can be reported, and only when point sampling agrees with it.
    mesh_failure names why the mesh boolean gave no figure (mesh is None then).
    """
    residuals = None if exact_skipped else exact_residuals(exact)
    consistent = _consistent(exact, residuals, params)
    exact_iou = exact["common"] / exact["union"] if consistent else None
    mesh_iou = mesh["common"] / mesh["union"] if mesh and mesh["union"] > 0 else None
    # The mesh's own volume error bounds how far its IoU may stray from the truth.
    mesh_error = 0.0
    if mesh and exact.get("a") and exact.get("b"):
        mesh_error = (
            abs(mesh["a"] - exact["a"]) / exact["a"] + abs(mesh["b"] - exact["b"]) / exact["b"]
        )
    mesh_tol = max(params["mesh_tolerance_floor"], 3 * mesh_error)
    sample_tol = params["sample_sigmas"] * max(sampled["stderr"], 1e-4) + mesh_error
    agree = {
        "exact_mesh": _close(exact_iou, mesh_iou, mesh_tol),
        "exact_sampling": _close(exact_iou, sampled["iou"], sample_tol),
        "mesh_sampling": _close(mesh_iou, sampled["iou"], sample_tol),
    }
    cross = {
        "exactIoU": exact_iou,
        "exactConsistent": consistent,
        "residuals": residuals,
        "meshIoU": mesh_iou,
        "meshTolerance": mesh_tol,
        "sampledIoU": sampled["iou"],
        "sampledStderr": sampled["stderr"],
        "sampledInterval95": sampled["interval95"],
        "samplePoints": sampled["points"],
        "sampleSeed": sampled["seed"],
        "agree": agree,
        "exactSkipped": exact_skipped,
        "meshFailure": mesh_failure,
    }
    if consistent and (agree["exact_mesh"] or agree["exact_sampling"]):
        return {
            "method": "exact",
            "volumes": exact,
            "crossCheck": cross,
            "checked": True,
            "reason": "exact booleans confirmed by " + _witnesses(agree),
        }
    if agree["mesh_sampling"]:
        why = (
            "inconsistent with themselves"
            if not consistent
            else (
                f"refuted (exact {exact_iou:.4f}, mesh {mesh_iou:.4f}, sampled {sampled['iou']:.4f})"
            )
        )
        why = f"{exact_skipped};" if exact_skipped else f"exact booleans {why};"
        volumes = {"a": mesh["a"], "b": mesh["b"], "common": mesh["common"], "union": mesh["union"]}
        return {
            "method": "mesh",
            "volumes": volumes,
            "crossCheck": cross,
            "checked": True,
            "reason": f"{why} mesh boolean and point sampling agree",
        }
    return {
        "method": "none",
        "volumes": exact if consistent else None,
        "crossCheck": cross,
        "checked": False,
        "reason": "no two methods agree on the IoU: not checked ("
        + "; ".join(
            _outcomes(exact_skipped, residuals, consistent, exact_iou, mesh_iou, mesh_failure)
        )
        + f"; point sampling {sampled['iou']:.4f} +- {sampled['stderr']:.4f})",
    }


def _outcomes(exact_skipped, residuals, consistent, exact_iou, mesh_iou, mesh_failure):
    """What each method gave, in words, for a NOT CHECKED reason."""
    if exact_skipped:
        exact = exact_skipped
    elif residuals is None:
        exact = "exact booleans gave no result"
    elif not consistent:
        exact = "exact booleans inconsistent with themselves"
    else:
        exact = f"exact booleans {exact_iou:.4f}, refuted"
    if mesh_iou is not None:
        mesh = f"mesh boolean {mesh_iou:.4f}"
    else:
        mesh = "mesh boolean: " + (mesh_failure or "no result")
    return [exact, mesh]


def bounded(figures: dict, decision: dict, params: dict) -> dict:
    """The decision, after IoU, Dice, precision and recall are put within [0, 1].

    A figure past a bound by no more than its method's own noise (inclusion-exclusion
    residual for the exact booleans, the mesh tolerance for the mesh boolean) is that
    bound: e.g. 1.0000077 from touching solids whose volumes carry 1e-5 of rounding. One
    further out means the volumes are wrong, and the figure is not checked.
    """
    if not decision["checked"]:
        return decision
    cross = decision["crossCheck"]
    noise = (
        params["inclusion_exclusion_rel"]
        if decision["method"] == "exact"
        else cross["meshTolerance"]
    )
    worst = 0.0
    for key in ("iou", "dice", "precision", "recall"):
        value = figures[key]
        worst = max(worst, value - 1.0, -value)
        figures[key] = min(1.0, max(0.0, value))
    if worst <= noise:
        return decision
    return dict(
        decision,
        checked=False,
        method="none",
        reason=f"a figure falls {worst:.2e} outside [0, 1], more than the method's noise "
        f"({noise:.1e}): the volumes are wrong, not checked",
    )


def _witnesses(agree: dict) -> str:
    names = []
    if agree["exact_mesh"]:
        names.append("mesh boolean")
    if agree["exact_sampling"]:
        names.append("point sampling")
    return " and ".join(names)


def _close(first, second, tol) -> bool:
    return first is not None and second is not None and abs(first - second) <= tol
