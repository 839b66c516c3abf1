# SPDX-License-Identifier: LGPL-2.1-or-later
"""What FreeCAD itself displays for each FCStd document: the independent truth.

    python3 tools/fcstd_truth.py --out tests/data/fcstd/truth.json [--freecad freecad] FILE...

Each document is opened by FreeCAD's own GUI (under xvfb) in a throw-away process: the
view providers restore GuiDocument.xml, links load their sibling documents, and FreeCAD
decides which objects its 3D view shows. This script never uses cadbench's reader: it is
the estimate cadbench's reading is checked against. Run it on trusted files only (opening a
document in FreeCAD imports the FeaturePython modules it names; missing ones only warn,
and their objects keep their stored shapes).

The same file is the macro the GUI runs (CADBENCH_TRUTH_FILE set): for every object that
draws geometry (a Part feature, a Body shown in 'Tip' mode, an App::Link) and is shown,
with every placing container (GeoFeatureGroup) on its path shown too, it takes
Part.getShape(root, path) (FreeCAD composes the placements and link arrays) and records
the solids: their count and the volume of their union.
"""

import argparse
import concurrent.futures
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile

# xvfb-run -a races when several start at once: each worker owns one display number.
_DISPLAYS: queue.Queue = queue.Queue()


def _displayed_shapes(doc):
    """(label, type, shape) of what the 3D view of doc shows (runs inside FreeCAD GUI)."""
    import Part

    shown = []
    for obj in doc.Objects:
        view = obj.ViewObject
        if view is None or not view.Visibility:
            continue
        is_link = obj.isDerivedFrom("App::Link") or obj.isDerivedFrom("App::LinkGroup")
        if obj.isDerivedFrom("App::LinkElement"):
            continue  # drawn by its array
        if not is_link and not obj.isDerivedFrom("Part::Feature"):
            continue
        if obj.isDerivedFrom("PartDesign::Body"):
            # A Body draws its own shape only in 'Tip' mode; in 'Through' (the default)
            # its visible features draw themselves.
            if getattr(obj.ViewObject, "DisplayModeBody", "Through") != "Tip":
                continue
        # Parents lists every path, from each ancestor: the 3D view draws the one that
        # starts at a top-level object.
        paths = {(p.Name, s): p for p, s in obj.Parents if p.Document is doc and _top(p, doc)}
        if not paths:
            paths = {(obj.Name, ""): obj}
        for (_, sub), root in sorted(paths.items()):
            chain = [root] + [doc.getObject(n) for n in sub.split(".")[:-2]]
            if any(c is None for c in chain):
                continue
            if any(c.isDerivedFrom("App::Link") for c in chain if c is not obj):
                continue  # shown by that link
            if root is not obj and not _containers_shown(chain):
                continue
            shape = Part.getShape(root, sub, needSubElement=False) if sub else Part.getShape(obj)
            shown.append((obj.Label, obj.TypeId, shape))
    return shown


def _top(obj, doc) -> bool:
    return not [p for p, _ in obj.Parents if p.Document is doc]


def _containers_shown(chain) -> bool:
    for container in chain:
        if container.hasExtension("App::GeoFeatureGroupExtension") or container.isDerivedFrom(
            "App::Link"
        ):
            if not container.ViewObject.Visibility:
                return False
    return True


def _macro(path: str, out: str) -> None:
    """Open one document in the GUI, write what it displays, quit (inside FreeCAD)."""
    import FreeCAD
    import FreeCADGui
    import Part

    for module in ("Part", "PartDesign", "Sketcher"):
        try:
            __import__(module)
        except ImportError:
            pass
    record = {"freecad": ".".join(FreeCAD.Version()[:3])}
    try:
        doc = FreeCAD.openDocument(path)
        FreeCADGui.updateGui()
        shown = _displayed_shapes(doc)
        solids = [s for _, _, shape in shown for s in shape.Solids]
        record["objects"] = [
            {"label": label, "type": kind, "solids": len(shape.Solids)}
            for label, kind, shape in shown
            if shape.Solids
        ]
        record["solids"] = len(solids)
        if len(solids) > 1:
            union = solids[0].multiFuse(solids[1:])
            record["volume"] = union.Volume
        else:
            record["volume"] = solids[0].Volume if solids else 0.0
        record["volume_sum"] = sum(s.Volume for s in solids)
        step = os.environ.get("CADBENCH_TRUTH_STEP")
        if step and solids:
            # What a user exports of what they see: the displayed solids, as one STEP file.
            Part.Compound(solids).exportStep(step)
    except Exception as exc:  # a document FreeCAD cannot open is a finding, not a crash
        record["error"] = f"{type(exc).__name__}: {exc}"
    with open(out, "w") as handle:
        json.dump(record, handle)
    sys.stdout.flush()
    os._exit(0)


def truth_of(path: str, freecad: str, timeout: float, step: str | None = None) -> dict:
    """One throw-away FreeCAD GUI process for one document."""
    with tempfile.TemporaryDirectory(prefix="fcstd-truth-") as tmp:
        out = os.path.join(tmp, "truth.json")
        env = dict(os.environ, CADBENCH_TRUTH_FILE=os.path.abspath(path), CADBENCH_TRUTH_OUT=out)
        env.update(QTWEBENGINE_DISABLE_SANDBOX="1", NO_AT_BRIDGE="1", QT_ACCESSIBILITY="0")
        if step:
            env["CADBENCH_TRUTH_STEP"] = os.path.abspath(step)
        display = _DISPLAYS.get()
        command = ["xvfb-run", "-n", str(display), "-s", "-screen 0 1280x800x24", freecad]
        # Its own session, so a timeout ends FreeCAD and its Xvfb too, not just xvfb-run.
        process = subprocess.Popen(
            command + [__file__],
            env=env,
            cwd=tmp,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return {"error": "timeout"}
        finally:
            _DISPLAYS.put(display)
        if not os.path.exists(out):
            return {"error": "FreeCAD wrote nothing"}
        with open(out) as handle:
            return json.load(handle)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", required=True, help="JSON manifest to update")
    parser.add_argument("--freecad", default="freecad", help="FreeCAD GUI executable")
    parser.add_argument("--key", default="truth", help="manifest field to write")
    parser.add_argument("--root", default=os.path.join("tests", "data", "fcstd"))
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--step", help="also export the displayed solids of FILE to this STEP")
    parser.add_argument("--jobs", type=int, default=1, help="documents opened at once")
    parser.add_argument("--resume", action="store_true", help="skip documents already done")
    parser.add_argument("--first-display", type=int, default=140, help="X display numbers")
    args = parser.parse_args()
    manifest = {}
    if os.path.exists(args.out):
        with open(args.out) as handle:
            manifest = json.load(handle)
    todo = [
        p
        for p in args.files
        if not (
            args.resume
            and "solids" in manifest.get(os.path.relpath(p, args.root), {}).get(args.key, {})
        )
    ]
    for index in range(max(1, args.jobs)):
        _DISPLAYS.put(args.first_display + index)
    # Each document gets its own FreeCAD; the GUI start mostly waits, so a few run at once.
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(truth_of, p, args.freecad, args.timeout, args.step): p for p in todo}
        for future in concurrent.futures.as_completed(futures):
            key = os.path.relpath(futures[future], args.root)
            manifest.setdefault(key, {})[args.key] = future.result()
            print(key, json.dumps(manifest[key][args.key])[:200], flush=True)
            with open(args.out, "w") as handle:
                json.dump(manifest, handle, indent=1, sort_keys=True)
                handle.write("\n")


if os.environ.get("CADBENCH_TRUTH_FILE") and "FreeCADGui" in sys.modules:
    _macro(os.environ["CADBENCH_TRUTH_FILE"], os.environ["CADBENCH_TRUTH_OUT"])
elif __name__ == "__main__":
    main()
