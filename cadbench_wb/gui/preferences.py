# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench's page in Edit > Preferences and the settings it holds.

The page is resources/ui/preferences.ui: FreeCAD's own Pref* widgets, which save
themselves under PARAMETERS (FreeCAD's PrefPage mechanism, as the Addon Manager's page
does). The settings are read at the moment they are used, so a change applies to the next
scoring without a restart. An environment variable still wins where one was the only way
before (CADBENCH_PYTHON), so scripted set-ups keep working.
"""

import os

import FreeCAD

from cadbench_wb import resources, standard

PARAMETERS = "User parameter:BaseApp/Preferences/Mod/cadbench"
PAGE = os.path.join(resources.ROOT, "resources", "ui", "preferences.ui")
GROUP = "cadbench"
# CADBENCH_PYTHON as FreeCAD was started with it: it wins over the page (scripted set-ups).
_STARTED_WITH_PYTHON = os.environ.get("CADBENCH_PYTHON", "")


def _group():
    return FreeCAD.ParamGet(PARAMETERS)


_REGISTERED = []


def register_page() -> None:
    """The page under Edit > Preferences, with its icon: called by InitGui.py when FreeCAD
    starts, as Draft and TechDraw register theirs, so it is there before the workbench is
    first activated. The Preferences dialog looks the group's icon up by the name
    "preferences-<group>" (resources/icons/preferences-cadbench.svg) in the icon paths."""
    import FreeCADGui  # noqa: PLC0415 - FreeCAD-only

    if _REGISTERED:
        return  # a page added twice is listed twice
    FreeCADGui.addIconPath(resources.ICONS)
    FreeCADGui.addPreferencePage(PAGE, GROUP)
    _REGISTERED.append(GROUP)


def python() -> str:
    """The interpreter for scoring children ('' = found automatically, runner.py)."""
    return _STARTED_WITH_PYTHON or _group().GetString("Python", "").strip()


def timeout_s() -> float:
    value = _group().GetFloat("TimeoutSeconds", float(standard.DEFAULT_TIMEOUT_S))
    return value if value > 0 else float(standard.DEFAULT_TIMEOUT_S)


def memory_mb() -> int:
    value = _group().GetInt("MemoryMB", standard.DEFAULT_MEMORY_MB)
    return value if value > 0 else standard.DEFAULT_MEMORY_MB


def cases_folder() -> str:
    folder = _group().GetString("CasesFolder", "").strip()
    return folder if folder and os.path.isdir(folder) else resources.CASES


def apply_python() -> None:
    """Make the chosen interpreter the one runner.python_for_children() returns, for every
    child the workbench starts (scorings, drawings, case builds)."""
    chosen = python()
    if chosen:
        os.environ["CADBENCH_PYTHON"] = chosen
    else:
        os.environ.pop("CADBENCH_PYTHON", None)
