# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which dialect a submitted script is written in, and the interpreter that runs it.

The dialect is read off the script's import lines with a regular expression, never by
parsing or compiling it in this process (the script is untrusted: its syntax is checked
inside the sandbox). CadQuery and build123d run under the interpreter of their own
environment (``make setup-code``: .venv-code), FreeCAD Python under Debian's python3 with
FreeCAD's library on its path, so CadQuery's OCP never meets FreeCAD's OpenCASCADE in one
process.
"""

import os
import re

from cadbench_wb.errors import DeliveryFailure

DIALECTS = ("cadquery", "build123d", "freecad")
CODE_EXTENSIONS = (".py",)
# Top-level module of an import -> dialect.
_MODULES = {
    "cadquery": "cadquery",
    "build123d": "build123d",
    "FreeCAD": "freecad",
    "Part": "freecad",
    "PartDesign": "freecad",
    "Sketcher": "freecad",
    "BOPTools": "freecad",
    "Draft": "freecad",
}
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)|import[ \t]+([A-Za-z_][\w, \t.]*))", re.M
)
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The environment `make setup-code` makes; CADBENCH_CODE_VENV names another.
CODE_VENV_VARIABLE = "CADBENCH_CODE_VENV"
FREECAD_LIB_VARIABLE = "CADBENCH_FREECAD_LIB"
FREECAD_LIB = "/usr/lib/freecad/lib"
SYSTEM_PYTHON = "/usr/bin/python3"


def is_code(path: str) -> bool:
    """Whether a submission is a script (by its extension) rather than a model file."""
    return os.path.splitext(path)[1].lower() in CODE_EXTENSIONS


def imported_dialects(source: bytes) -> list[str]:
    """The dialects whose modules the script imports, in DIALECTS order."""
    found = set()
    for match in _IMPORT.finditer(source):
        names = [match.group(1)] if match.group(1) else re.split(rb"[,\s]+", match.group(2))
        for name in names:
            top = name.split(b".")[0].decode("ascii", "replace").strip()
            if top in _MODULES:
                found.add(_MODULES[top])
    return [d for d in DIALECTS if d in found]


def dialect_of(source: bytes, declared: str | None = None) -> str:
    """The dialect to run the script as: the declared one, else the one it imports.
    A script importing none, or FreeCAD beside CadQuery/build123d, is refused with
    code_runtime_error (it could not run in one environment); CadQuery beside build123d
    runs in their shared environment as CadQuery."""
    if declared:
        if declared not in DIALECTS:
            raise ValueError(f"unknown dialect {declared!r} (one of {', '.join(DIALECTS)})")
        return declared
    found = imported_dialects(source)
    if not found:
        raise DeliveryFailure(
            "code_runtime_error",
            "the script imports none of cadquery, build123d, FreeCAD: no dialect to run it in "
            "(declare one with --dialect)",
        )
    if "freecad" in found and len(found) > 1:
        raise DeliveryFailure(
            "code_runtime_error",
            f"the script imports {' and '.join(found)}: FreeCAD's OpenCASCADE and OCP cannot "
            "share one process (declare one with --dialect)",
        )
    return found[0]


def code_venv() -> str:
    return os.environ.get(CODE_VENV_VARIABLE) or os.path.join(PACKAGE_PARENT, ".venv-code")


def freecad_lib() -> str:
    return os.environ.get(FREECAD_LIB_VARIABLE) or FREECAD_LIB


def interpreter_of(dialect: str) -> tuple[str, list[str]]:
    """(python executable, the folders the sandbox must show read-only besides the system)
    for a dialect; raises FileNotFoundError naming what to install when it is absent."""
    if dialect == "freecad":
        lib = freecad_lib()
        if not os.path.isfile(os.path.join(lib, "FreeCAD.so")):
            raise FileNotFoundError(
                f"no FreeCAD library at {lib} (apt-get install freecad-python3)"
            )
        return SYSTEM_PYTHON, [lib]
    venv = code_venv()
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        raise FileNotFoundError(
            f"no CadQuery/build123d environment at {venv} (make setup-code installs it)"
        )
    return python, [venv]
