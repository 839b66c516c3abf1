# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs inside the sandbox: one submitted script, its result found and exported as STEP.

``python -I harness.py DIALECT SCRIPT [LIBRARY_DIR]``. Standard library only at the top (it
runs under the dialect's interpreter, never with cadbench importable). Its answer goes to
the fd that was stdout when it started: one JSON line ({"status", "detail", "format",
"size"}) and then `size` bytes of the model; the script's own stdout goes to stderr, which
the parent reads as the log. The script is untrusted and may forge that answer: the parent
takes any model it gets as an untrusted file and scores it as such.

The result, first found of: objects passed to show_object(...), the variables final_result,
result, part (the conventions of CQ-editor, CADPrompt/CADTestBench and the CadQuery
benchmarks), FreeCAD: the shapes of every document's top-level objects, and last a STEP or
STL file the script exported into its working folder.
"""

import glob
import json
import os
import sys
import traceback

RESULT_VARIABLES = ("final_result", "result", "part")
EXPORTED = ("*.step", "*.stp", "*.STEP", "*.STP", "*.stl", "*.STL")
SUBMISSION = "<submission>"
STARTED = b"cadbench-harness-started\n"


class Refused(Exception):
    def __init__(self, status: str, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


def main(argv: list[str]) -> int:
    channel = os.fdopen(os.dup(1), "wb")
    # Before the script can write anything: the parent tells a sandbox that never started
    # (the scorer's machine, not the candidate) from a script that ran, by this line.
    channel.write(STARTED)
    channel.flush()
    os.dup2(2, 1)  # the script's prints go to the log, never into the answer
    dialect, script = argv[0], argv[1]
    if len(argv) > 2:
        sys.path.append(argv[2])
    try:
        fmt, model = executed(dialect, script)
        answer = {"status": "ok", "detail": "", "format": fmt, "size": len(model)}
    except Refused as refused:
        answer, model = {"status": refused.status, "detail": refused.detail[:500]}, b""
        answer.update(format=None, size=0)
    import resource  # noqa: PLC0415 - Unix-only

    usage = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    answer["cpuSeconds"] = round(sum(u.ru_utime + u.ru_stime for u in usage), 3)
    channel.write(json.dumps(answer).encode("utf-8") + b"\n" + model)
    channel.flush()
    sys.stdout.flush()
    os._exit(0)  # no atexit hook or thread of the script runs after the answer


def executed(dialect: str, script: str) -> tuple[str, bytes]:
    with open(script, "rb") as handle:
        source = handle.read()
    try:
        code = compile(source, SUBMISSION, "exec")
    except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte in the source
        line = f"line {exc.lineno}: " if getattr(exc, "lineno", None) else ""
        raise Refused("code_syntax_error", f"{line}{type(exc).__name__}: {_message(exc)}") from None
    if dialect == "freecad":
        import FreeCAD  # noqa: F401, PLC0415 - `import Part` first crashes FreeCAD 0.20

    shown = []

    def show_object(obj, *args, **kwargs):
        shown.append(obj)

    namespace = {"__name__": "__main__", "__file__": "submission.py", "show_object": show_object}
    try:
        exec(code, namespace)  # this process is the sandbox
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise Refused(
                "code_runtime_error", f"the script exited with status {exc.code}"
            ) from None
    except MemoryError:
        raise Refused(
            "code_memory", "MemoryError: the script ran out of its memory limit"
        ) from None
    except BaseException as exc:  # every failure of the script is named
        raise _runtime_error(exc) from None
    objects = shown or [namespace[n] for n in RESULT_VARIABLES if namespace.get(n) is not None][:1]
    try:
        if objects:
            return "step", exported(dialect, objects)
        if dialect == "freecad":
            roots = _freecad_roots()
            if roots:
                return "step", exported(dialect, roots)
        return _exported_file()
    except MemoryError:
        raise Refused("code_memory", "MemoryError while exporting the result") from None
    except Refused:
        raise
    except Exception as exc:  # an object the exporter cannot take
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        raise Refused("code_runtime_error", f"exporting the result: {last}") from None


def _message(exc) -> str:
    return str(getattr(exc, "msg", None) or exc)


def _runtime_error(exc: BaseException) -> Refused:
    """code_runtime_error with the script's last error line, and the line of the script
    it was raised from; an exhausted memory in the kernel (std::bad_alloc) is code_memory."""
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == SUBMISSION:
            where = f"line {frame.lineno}: "
    if any(m in last for m in ("bad_alloc", "Standard_OutOfMemory", "Cannot allocate memory")):
        return Refused("code_memory", f"{where}{last}")
    return Refused("code_runtime_error", f"{where}{last}")


def _exported_file() -> tuple[str, bytes]:
    for pattern in EXPORTED:
        found = sorted(glob.glob(pattern))
        if found:
            with open(found[0], "rb") as handle:
                data = handle.read()
            if not data:
                raise Refused("no_result", f"the script exported {found[0]}, an empty file")
            return ("stl" if pattern.lower().endswith("stl") else "step"), data
    raise Refused(
        "no_result",
        "the script left no result: no show_object(...), no variable "
        + ", ".join(RESULT_VARIABLES)
        + ", no STEP or STL file in its working folder",
    )


def exported(dialect: str, objects: list) -> bytes:
    if dialect == "freecad":
        return _freecad_step(objects)
    return _ocp_step(objects)


def _ocp_shapes(obj, depth: int = 0) -> list:
    """The OCP shapes of a CadQuery or build123d object: a Shape (.wrapped), a Workplane
    (.vals()), an Assembly (.toCompound()), a BuildPart (.part), or lists of these."""
    from OCP.TopoDS import TopoDS_Shape  # noqa: PLC0415 - heavy: loaded on first use

    if depth > 8:
        return []
    if isinstance(obj, TopoDS_Shape):
        return [obj]
    wrapped = getattr(obj, "wrapped", None)
    if isinstance(wrapped, TopoDS_Shape):
        return [wrapped]
    for name in ("toCompound", "vals"):
        method = getattr(obj, name, None)
        if callable(method):
            return _ocp_shapes(method(), depth + 1)
    part = getattr(obj, "part", None)
    if part is not None and part is not obj:
        return _ocp_shapes(part, depth + 1)
    if isinstance(obj, (list, tuple)):
        return [s for item in obj for s in _ocp_shapes(item, depth + 1)]
    return []


def _ocp_step(objects: list) -> bytes:
    from OCP.BRep import BRep_Builder  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.BRepGProp import BRepGProp  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.GProp import GProp_GProps  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.IFSelect import IFSelect_RetDone  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.STEPControl import STEPControl_AsIs, STEPControl_Writer  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.TopAbs import TopAbs_SOLID  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.TopExp import TopExp_Explorer  # noqa: PLC0415 - heavy: loaded on first use
    from OCP.TopoDS import TopoDS_Compound  # noqa: PLC0415 - heavy: loaded on first use

    shapes = [s for obj in objects for s in _ocp_shapes(obj)]
    if not shapes:
        kinds = ", ".join(sorted({type(o).__name__ for o in objects}))
        raise Refused("result_not_solid", f"the result ({kinds}) holds no shape")
    compound, builder = TopoDS_Compound(), BRep_Builder()
    builder.MakeCompound(compound)
    solids, volume = 0, 0.0
    for shape in shapes:
        builder.Add(compound, shape)
        explorer = TopExp_Explorer(shape, TopAbs_SOLID)
        while explorer.More():
            props = GProp_GProps()
            BRepGProp.VolumeProperties_s(explorer.Current(), props)
            volume += abs(props.Mass())
            solids += 1
            explorer.Next()
    _check_solid(solids, volume)
    writer = STEPControl_Writer()
    writer.Transfer(compound, STEPControl_AsIs)
    path = os.path.join(os.environ.get("TMPDIR", "."), "cadbench-result.step")
    if writer.Write(path) != IFSelect_RetDone:
        raise Refused("result_not_solid", "the result could not be written as STEP")
    with open(path, "rb") as handle:
        return handle.read()


def _check_solid(solids: int, volume: float) -> None:
    if not solids:
        raise Refused("result_not_solid", "the result holds no solid (faces, wires or points only)")
    if volume <= 0:
        raise Refused("result_not_solid", f"the result's {solids} solid(s) enclose no volume")


def _freecad_roots() -> list:
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    roots = []
    for doc in FreeCAD.listDocuments().values():
        doc.recompute()
        for obj in doc.Objects:
            shape = getattr(obj, "Shape", None)
            if shape is not None and not obj.InList and not shape.isNull() and shape.Solids:
                roots.append(shape)
    return roots


def _freecad_step(objects: list) -> bytes:
    import Part  # noqa: PLC0415 - FreeCAD-only

    shapes = []
    for obj in objects:
        for item in obj if isinstance(obj, (list, tuple)) else [obj]:
            shape = item if isinstance(item, Part.Shape) else getattr(item, "Shape", None)
            if isinstance(shape, Part.Shape) and not shape.isNull():
                shapes.append(shape)
    if not shapes:
        raise Refused("result_not_solid", "the result holds no FreeCAD shape")
    # Part.Compound, not Part.makeCompound: FreeCAD 1.0.0 (Debian 13) ends a bare python3
    # process with exit status 1 and no message in makeCompound.
    compound = Part.Compound(shapes)
    _check_solid(len(compound.Solids), sum(abs(s.Volume) for s in compound.Solids))
    path = os.path.join(os.environ.get("TMPDIR", "."), "cadbench-result.step")
    compound.exportStep(path)
    with open(path, "rb") as handle:
        return handle.read()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
