# SPDX-License-Identifier: LGPL-2.1-or-later
"""Registered visual similarity (seed 001: 5 % of the 2D score) and the masks it rests on.

ezdxf's drawing add-on interprets the model space (dimension blocks, text glyphs,
linetypes, hatches) into a Recorder; the recorded strokes are rasterised here with numpy
into fixed-size monochrome masks. (ezdxf's matplotlib backend draws the same thing, but
adds one matplotlib artist per stroke: 18 s for 50,000 lines against 0.5 s recorded.)
Both masks share the gold's scale; the candidate's is placed by the part registration
(issue 13), or registered on the length-weighted centroids when none is given;
a foreground pixel counts as matched when the other mask has foreground within the
tolerance (Chebyshev distance, a box dilation done with an integral image).
"""

import math

import numpy as np

# A stroke is sampled every half pixel; beyond this many samples in total, every stroke is
# sampled more coarsely (one pixel) so a huge candidate cannot stall the rasteriser.
_SAMPLE_BUDGET = 20_000_000


class RenderFailed(Exception):
    """ezdxf's drawing front end could not interpret the layout."""


def recorded_strokes(doc):
    """The model space as recorded by ezdxf's drawing front end: (a Player, the entities it
    could not draw). One entity ezdxf cannot draw (TechDraw writes zero-length SPLINEs,
    two coincident control points under equal knots, where ezdxf divides by their span) is
    left out and named, "SPLINE A41: ZeroDivisionError: float division by zero"; it never
    makes the whole drawing unrenderable."""
    from ezdxf.addons.drawing import RenderContext  # noqa: PLC0415 - heavy: loaded on first use
    from ezdxf.addons.drawing.recorder import Recorder  # noqa: PLC0415 - heavy: loaded on first use

    recorder = Recorder()
    frontend = _skipping_frontend()(RenderContext(doc), recorder)
    try:
        frontend.draw_layout(doc.modelspace(), finalize=True)
    except Exception as exc:  # any front-end failure is a render failure
        raise RenderFailed(f"{type(exc).__name__}: {exc}") from None
    return recorder.player(), frontend.not_drawn


def _skipping_frontend():
    """ezdxf's Frontend, drawing each entity on its own: what one cannot be drawn is listed
    in not_drawn (its type, handle and why), the others are drawn as before."""
    from ezdxf.addons.drawing import Frontend  # noqa: PLC0415 - heavy: loaded on first use

    class SkippingFrontend(Frontend):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.not_drawn = []

        def draw_entity(self, entity, properties) -> None:
            try:
                super().draw_entity(entity, properties)
            except (RecursionError, MemoryError):
                raise  # a block that inserts itself, a flood: the drawing, not one entity
            except Exception as exc:  # this entity is left out, and named
                handle = entity.dxf.get("handle") or "(virtual)"
                self.not_drawn.append(f"{entity.dxftype()} {handle}: {type(exc).__name__}: {exc}")

    return SkippingFrontend


def segments_of(player, flatten_distance: float) -> np.ndarray:
    """All recorded strokes as (S, 4) segments; filled areas contribute their outlines."""
    from ezdxf.addons.drawing import recorder  # noqa: PLC0415 - heavy: loaded on first use

    parts, pairs, paths = [], [], []

    def polyline(vertices, closed=False):
        vertices = np.asarray(vertices, dtype=float).reshape(-1, 2)
        if closed and len(vertices) > 2:
            vertices = np.vstack([vertices, vertices[:1]])
        if len(vertices) == 1:
            vertices = np.vstack([vertices, vertices])
        if len(vertices) >= 2:
            parts.append(np.hstack([vertices[:-1], vertices[1:]]))

    for record, _properties in player.recordings():
        kind = type(record)
        if kind is recorder.PointsRecord:
            vertices = record.points.np_vertices()
            if len(vertices) == 2:  # a line: by far the most common record
                pairs.append(vertices)
            else:
                polyline(vertices, closed=len(vertices) > 2)
        elif kind is recorder.SolidLinesRecord:
            lines = record.lines.np_vertices().reshape(-1, 4)
            if len(lines):
                parts.append(lines.astype(float))
        elif kind is recorder.PathRecord:
            paths.append(record.path)
        elif kind is recorder.FilledPathsRecord:
            paths.extend(record.paths)
        elif kind is recorder.ImageRecord:
            polyline(record.boundary.np_vertices(), closed=True)
    if pairs:
        parts.append(np.asarray(pairs, dtype=float).reshape(-1, 4))
    parts.append(_path_segments(paths, flatten_distance))
    return np.vstack(parts)


# Vertices each path command consumes (ezdxf.path.Command: LINE_TO, CURVE3_TO, CURVE4_TO,
# MOVE_TO).
_CONSUMED = np.array([0, 1, 2, 3, 1])
_MAX_CURVE_PIECES = 64
# Pieces for all Beziers of one drawing: a candidate drawn 1000 times too large would
# otherwise flatten every glyph at the gold's scale, mostly off the canvas.
_PIECE_BUDGET = 2_000_000


def _path_segments(paths, flatten_distance: float) -> np.ndarray:
    """Segments of many ezdxf NumpyPath2d at once. Python-level flattening costs ~10 us a
    vertex (text glyphs have thousands); here every Bezier of every path is sampled in one
    numpy pass, with pieces enough to keep the chord error near ``flatten_distance``."""
    vertices, commands, offsets, total = [], [], [], 0
    for path in paths:
        codes = path.command_codes()
        if not codes:
            continue
        points = path.np_vertices()
        vertices.append(points)
        commands.append(np.asarray(codes, dtype=np.int64))
        offsets.append(np.full(len(codes), total))
        total += len(points)
    if not commands:
        return np.zeros((0, 4))
    points = np.vstack(vertices).astype(float)
    code = np.concatenate(commands)
    offset = np.concatenate(offsets)
    consumed = _CONSUMED[code]
    # Index of each command's end vertex: its path's first vertex plus what the commands
    # before it (in the same path) consumed.
    consumed_so_far = np.cumsum(consumed)
    lengths = np.array([len(c) for c in commands])
    first_command = np.cumsum(lengths) - lengths
    before_path = consumed_so_far[first_command] - consumed[first_command]
    within = consumed_so_far - np.repeat(before_path, lengths)
    end = offset + within
    start = end - consumed
    out = []
    lines = code == 1
    out.append(np.hstack([points[start[lines]], points[end[lines]]]))
    for kind in (2, 3):
        chosen = code == kind
        if not chosen.any():
            continue
        controls = np.stack([points[start[chosen] + i] for i in range(kind + 1)], axis=1)
        polygon = np.hypot(*np.diff(controls, axis=1).transpose(2, 0, 1)).sum(axis=1)
        pieces = np.clip(
            np.ceil(np.sqrt(polygon / max(flatten_distance, 1e-12))), 1, _MAX_CURVE_PIECES
        ).astype(np.int64)
        if pieces.sum() > _PIECE_BUDGET:
            pieces = np.maximum(1, pieces * _PIECE_BUDGET // pieces.sum())
        owner = np.repeat(np.arange(len(controls)), pieces)
        first = np.concatenate([[0], np.cumsum(pieces)[:-1]])
        step = np.arange(pieces.sum()) - np.repeat(first, pieces)
        t0 = (step / pieces[owner])[:, None]
        t1 = ((step + 1) / pieces[owner])[:, None]
        out.append(np.hstack([_bezier(controls[owner], t0), _bezier(controls[owner], t1)]))
    return np.vstack(out)


def _bezier(controls: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points at parameters ``t`` (n, 1) on quadratic or cubic Beziers (n, 3|4, 2)."""
    u = 1 - t
    if controls.shape[1] == 3:
        return u * u * controls[:, 0] + 2 * u * t * controls[:, 1] + t * t * controls[:, 2]
    return (
        u**3 * controls[:, 0]
        + 3 * u * u * t * controls[:, 1]
        + 3 * u * t * t * controls[:, 2]
        + t**3 * controls[:, 3]
    )


def centroid_of(segments: np.ndarray) -> np.ndarray:
    """Length-weighted centroid of the strokes."""
    if len(segments) == 0:
        return np.zeros(2)
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    mids = (segments[:, :2] + segments[:, 2:]) / 2
    return mids.mean(axis=0) if lengths.sum() == 0 else lengths @ mids / lengths.sum()


def _clipped(pixels: np.ndarray, size: int) -> np.ndarray:
    """Liang-Barsky clipping of pixel-space segments to the canvas."""
    low, high = -0.5, size - 0.5
    x0, y0, x1, y1 = pixels.T
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = np.zeros(len(pixels)), np.ones(len(pixels))
    keep = np.ones(len(pixels), bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, x0 - low), (dx, high - x0), (-dy, y0 - low), (dy, high - y0)):
            parallel = p == 0
            keep &= ~(parallel & (q < 0))
            ratio = q / p
            t0 = np.where(~parallel & (p < 0), np.maximum(t0, ratio), t0)
            t1 = np.where(~parallel & (p > 0), np.minimum(t1, ratio), t1)
    keep &= t0 <= t1
    x0, y0, x1, y1, dx, dy, t0, t1 = (a[keep] for a in (x0, y0, x1, y1, dx, dy, t0, t1))
    return np.column_stack([x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy])


def mask_of(segments: np.ndarray, centroid, scale: float, size: int) -> np.ndarray:
    """Monochrome mask: world point ``centroid`` at the canvas centre, ``scale`` px/unit."""
    mask = np.zeros((size, size), dtype=bool)
    if len(segments) == 0 or not math.isfinite(scale) or scale <= 0:
        return mask
    centre = (size - 1) / 2
    pixels = (segments - np.tile(centroid, 2)) * scale + centre
    pixels[:, 1] = 2 * centre - pixels[:, 1]  # image rows grow downwards
    pixels[:, 3] = 2 * centre - pixels[:, 3]
    pixels = _clipped(pixels[np.isfinite(pixels).all(axis=1)], size)
    if len(pixels) == 0:
        return mask
    length = np.hypot(pixels[:, 2] - pixels[:, 0], pixels[:, 3] - pixels[:, 1])
    per_pixel = 2.0 if (2 * length).sum() <= _SAMPLE_BUDGET else 1.0
    count = (np.ceil(length * per_pixel).astype(np.int64) + 1).clip(max=4 * size)
    owner = np.repeat(np.arange(len(pixels)), count)
    first = np.concatenate([[0], np.cumsum(count)[:-1]])
    t = (np.arange(count.sum()) - np.repeat(first, count)) / np.maximum(count - 1, 1)[owner]
    x = pixels[owner, 0] + t * (pixels[owner, 2] - pixels[owner, 0])
    y = pixels[owner, 1] + t * (pixels[owner, 3] - pixels[owner, 1])
    columns = np.clip(np.rint(x).astype(np.int64), 0, size - 1)
    rows = np.clip(np.rint(y).astype(np.int64), 0, size - 1)
    mask[rows, columns] = True
    return mask


def off_canvas_pixels(segments: np.ndarray, centroid, scale: float, size: int) -> int:
    """How many pixels of stroke ``mask_of`` would draw beyond the canvas: a candidate's
    extra content far from the part is still extra (it counts against precision)."""
    if len(segments) == 0 or not math.isfinite(scale) or scale <= 0:
        return 0
    centre = (size - 1) / 2
    pixels = (segments - np.tile(centroid, 2)) * scale + centre
    pixels = pixels[np.isfinite(pixels).all(axis=1)]
    inside = _clipped(pixels, size)
    total = np.hypot(pixels[:, 2] - pixels[:, 0], pixels[:, 3] - pixels[:, 1]).sum()
    kept = np.hypot(inside[:, 2] - inside[:, 0], inside[:, 3] - inside[:, 1]).sum()
    return int(round(max(total - kept, 0.0)))


def dilated(mask: np.ndarray, radius: int) -> np.ndarray:
    """Every pixel within Chebyshev distance ``radius`` of foreground (integral image)."""
    if radius <= 0:
        return mask.copy()
    size_y, size_x = mask.shape
    integral = np.zeros((size_y + 1, size_x + 1), dtype=np.int64)
    integral[1:, 1:] = mask.astype(np.int64).cumsum(0).cumsum(1)
    rows, columns = np.arange(size_y), np.arange(size_x)
    top, bottom = np.clip(rows - radius, 0, size_y), np.clip(rows + radius + 1, 0, size_y)
    left, right = np.clip(columns - radius, 0, size_x), np.clip(columns + radius + 1, 0, size_x)
    window = (
        integral[bottom][:, right]
        - integral[top][:, right]
        - integral[bottom][:, left]
        + integral[top][:, left]
    )
    return window > 0


def visual_similarity(
    gold_player, candidate_player, config: dict, side: float = 0.0, offset=None
) -> dict:
    """F1 of the two registered masks with the configured pixel tolerance. ``side`` is the
    larger side of the gold's extents when the caller knows it (else it is measured).
    ``offset``: the part registration (added to candidate coordinates); the candidate
    mask is placed by it, so annotation placed elsewhere cannot shift the part's pixels.
    None: centroids registered (seed 001's rule)."""
    size = int(config["raster_size"])
    usable = size / 2 - float(config["raster_margin_px"])
    tolerance = int(config["raster_tolerance_px"])
    # Flatten finely enough for the largest scale the gold can get: its centroid lies
    # inside its bounding box, so the farthest stroke is at least half the larger side away
    # and the scale is at most usable / (side / 2).
    if side <= 0:
        box = gold_player.bbox()
        side = max(box.size.x, box.size.y) if box.has_data else 0.0
    flatten = 0.25 * side / (2 * usable) if side > 0 else 1.0
    gold = segments_of(gold_player, flatten)
    candidate = segments_of(candidate_player, flatten)
    gold_centroid, candidate_centroid = centroid_of(gold), centroid_of(candidate)
    reach = np.abs(gold.reshape(-1, 2) - gold_centroid).max() if len(gold) else 0.0
    scale = usable / reach if reach > 0 else 1.0
    gold_mask = mask_of(gold, gold_centroid, scale, size)
    if offset is not None:
        candidate_centroid = gold_centroid - np.asarray(offset, dtype=float)
    candidate_mask = mask_of(candidate, candidate_centroid, scale, size)
    near_gold, near_candidate = dilated(gold_mask, tolerance), dilated(candidate_mask, tolerance)
    off_canvas = off_canvas_pixels(candidate, candidate_centroid, scale, size)
    gold_pixels, candidate_pixels = int(gold_mask.sum()), int(candidate_mask.sum()) + off_canvas
    recall = float((gold_mask & near_candidate).sum() / gold_pixels) if gold_pixels else 0.0
    precision = (
        float((candidate_mask & near_gold).sum() / candidate_pixels) if candidate_pixels else 0.0
    )
    value = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    counts = {
        "size_px": size,
        "tolerance_px": tolerance,
        "gold_pixels": gold_pixels,
        "candidate_pixels": candidate_pixels,
        "candidate_off_canvas_pixels": off_canvas,
        "precision": precision,
        "recall": recall,
    }
    masks = {
        "gold": gold_mask,
        "candidate": candidate_mask,
        "near_gold": near_gold,
        "near_candidate": near_candidate,
    }
    segments = {"gold": gold, "candidate": candidate}
    return {"value": value, "counts": counts, "masks": masks, "segments": segments}
