# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a scoring measures on the reference alone, kept for the next scoring of that file.

Every candidate of a case is scored against the same reference, and its load checks come
out the same each time: BRepCheck and the exact volume of each solid, 0.45 s of CPU on the
bundled M8 bolt, whose thread flanks are B-splines. The same file, read by the same kernel
and checked by the same code, gives the same volumes bit for bit (they are measured before
anything tessellates the shape, and JSON keeps a float exactly: its repr), so they are kept
under a hash of the file's sha256, the FreeCAD version and the metric fingerprint (every
scoring module and the standard), beside the reference drawings (app/drawing/stage.py). A
reference that fails its checks is never kept (it is refused again, by the checks). An
entry that cannot be read is measured again; one that cannot be written, next time.

What is measured after the alignment has tessellated the reference is not kept: the
tessellation follows the pair (its deflection, the candidate's diagonal; MeshPart or Part's
mesher), and FreeCAD's bounding boxes, on which the thread flanks' edge sampling rests,
follow the tessellation: the bundled M10 nut's thread starts at z = -9.378660435e-07 in four
of its demo pairs and at -9.378662238e-07 against its cosmetic-only candidate (MeshPart's
mesh). Kept from the first pair scored, such a figure would depend on the order of scoring.
"""

import hashlib
import json
import os
import tempfile

# Bumped when what an entry holds changes meaning.
VERSION = 1
VOLUMES = "solidVolumes"


def cache_file(result: dict, options: dict) -> str | None:
    """The entry of this scoring's reference, or None when its file has no digest."""
    digest = result.get("reference", {}).get("sha256")
    if not digest:
        return None
    payload = json.dumps(
        [VERSION, digest, result.get("freecadVersion"), result.get("metricFingerprint")]
    )
    key = hashlib.sha256(payload.encode()).hexdigest()[:24]
    return os.path.join(cache_root(options), f"{key}.json")


def cache_root(options: dict) -> str:
    """options["reference_cache"], else ~/.cache/cadbench/references (XDG_CACHE_HOME)."""
    if options.get("reference_cache"):
        return options["reference_cache"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cadbench", "references")


def known(path: str | None) -> dict:
    """The facts kept at path: {VOLUMES: [float]}; {} when there is no entry or it cannot
    be read."""
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict):
        return {}
    facts = {}
    volumes = found.get(VOLUMES)
    if isinstance(volumes, list) and all(isinstance(v, float) for v in volumes):
        facts[VOLUMES] = volumes
    return facts


def store(path: str | None, facts: dict) -> None:
    """Write the entry beside its final place and rename it in (two scorings of one
    reference at once leave one whole entry); a cache that cannot be written is skipped."""
    if path is None or not facts:
        return
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        handle, staging = tempfile.mkstemp(prefix=".staging-", suffix=".json", dir=folder)
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(facts, out, sort_keys=True)
        os.replace(staging, path)
    except (OSError, TypeError, ValueError):
        pass
    finally:
        if os.path.exists(staging):
            os.remove(staging)


def keep(path: str | None, kept: dict, volumes) -> None:
    """Store the volumes the checks measured (loading.LoadedModel.solid_volumes: None for
    a mesh, measured on its triangles) unless the entry holds them already."""
    if volumes is not None and kept.get(VOLUMES) is None:
        store(path, {VOLUMES: [float(v) for v in volumes]})
