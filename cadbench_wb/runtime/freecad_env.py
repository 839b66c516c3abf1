# SPDX-License-Identifier: LGPL-2.1-or-later
"""Find and import FreeCAD's library from plain Python, freecadcmd or the GUI console."""

import faulthandler
import glob
import os
import signal
import sys

from cadbench_wb.errors import FreeCADUnavailable

INSTALL_HINT = (
    "FreeCAD was not found. On Debian/Ubuntu: `sudo apt-get install freecad-python3` "
    "(or run `make demo`, which installs it); with conda: "
    "`conda install -c conda-forge 'freecad>=1.0'`; or set FREECAD_LIB to the folder "
    "that holds FreeCAD.so."
)


def candidate_lib_dirs() -> list[str]:
    """Folders that may hold FreeCAD's Python library, most specific first."""
    dirs = []
    if os.environ.get("FREECAD_LIB"):
        dirs.append(os.environ["FREECAD_LIB"])
    conda = os.environ.get("CONDA_PREFIX") or sys.prefix
    dirs += [os.path.join(conda, "lib"), os.path.join(conda, "Library", "bin")]
    dirs += ["/usr/lib/freecad/lib", "/usr/lib/freecad-python3/lib", "/usr/local/lib/freecad/lib"]
    dirs += sorted(glob.glob("/opt/freecad*/lib"))
    return dirs


def _has_freecad_module(folder: str) -> bool:
    return any(
        os.path.exists(os.path.join(folder, name))
        for name in ("FreeCAD.so", "FreeCAD.pyd", "FreeCAD.dll")
    )


def import_freecad():
    """Return the FreeCAD module, adding its library folder to sys.path if needed.

    FreeCAD must be imported before Part: the other order segfaults on 0.20. Every call
    makes sure the workbench folders are on sys.path, also when FreeCAD was imported
    directly (the venv's .pth makes `import FreeCAD` work without this module).
    """
    freecad = sys.modules.get("FreeCAD")
    if freecad is None:
        for folder in candidate_lib_dirs():
            if _has_freecad_module(folder) and folder not in sys.path:
                sys.path.append(folder)
                break
        try:
            import FreeCAD as freecad  # noqa: N813, PLC0415 - FreeCAD-only
        except ImportError as exc:
            raise FreeCADUnavailable(f"{INSTALL_HINT} ({exc})") from None
    crashes_named(freecad)
    add_workbench_dirs(freecad)
    try:
        import Part  # noqa: F401, PLC0415 - FreeCAD-only
    except ImportError as exc:
        raise FreeCADUnavailable(f"{INSTALL_HINT} ({exc})") from None
    return freecad


_CRASHES_NAMED = False


def crashes_named(freecad) -> None:
    """Make a kernel crash die by its signal with Python's stack on stderr. Importing
    FreeCAD 0.20 installs a SIGSEGV handler that calls exit(1) without a word (NIST FTC-10's
    drawing "died (exit status 1)"; `score --in-process` ended 1 with no message). Outside
    FreeCAD's GUI the default action is put back and faulthandler chained to it: the parent
    then reads SIGSEGV and the innermost Python frame (outcome.last_words)."""
    global _CRASHES_NAMED  # once per process
    if _CRASHES_NAMED or getattr(freecad, "GuiUp", False):
        return  # done, or FreeCAD's own application: its handlers are its own
    try:
        signal.signal(signal.SIGSEGV, signal.SIG_DFL)
    except (ValueError, OSError):  # not the main thread: leave the handlers as they are
        return
    # The standard error descriptor itself: under freecadcmd sys.stderr is FreeCAD's own
    # redirect, which has no file number to hand to the handler.
    faulthandler.enable(file=2)
    _CRASHES_NAMED = True


def install_dirs(freecad, name: str) -> list[str]:
    """FreeCAD's folders called name (Mod, Ext) under the home path, the resource dir
    (Debian keeps them under /usr/share/freecad) and beside the library folder."""
    bases = (freecad.getHomePath(), freecad.getResourceDir())
    bases += (os.path.dirname(os.path.dirname(FreeCAD_lib(freecad))),)
    found = []
    for base in bases:
        folder = os.path.realpath(os.path.join(base, name))
        if os.path.isdir(folder) and folder not in found:
            found.append(folder)
    return found


def workbench_dirs(freecad) -> list[str]:
    """Mod/, every Mod/<workbench> folder and Ext/ (FreeCAD's PySide shim), as freecadcmd
    puts them on sys.path.

    Plain Python gets none of them from `import FreeCAD`, and FreeCAD 1.0's compiled Part
    imports PartEnums from Mod/Part: without that folder `Part.makeCompound` segfaults.
    """
    dirs = []
    for mod in install_dirs(freecad, "Mod"):
        dirs.append(mod)
        for name in sorted(os.listdir(mod)):
            folder = os.path.join(mod, name)
            if os.path.isfile(os.path.join(folder, "Init.py")):
                dirs.append(folder)
    return dirs + install_dirs(freecad, "Ext")


_ADDED: list[str] = []  # the folders this process appended, once


def add_workbench_dirs(freecad) -> None:
    """Append the workbench folders to sys.path once per process (appended, so that they
    never shadow the venv's packages)."""
    if _ADDED:
        return
    for folder in workbench_dirs(freecad) or [""]:
        _ADDED.append(folder)
        if folder and folder not in sys.path:
            sys.path.append(folder)


def FreeCAD_lib(freecad) -> str:  # noqa: N802 - names FreeCAD's own folder
    return os.path.dirname(getattr(freecad, "__file__", "") or "")


def freecad_version() -> str:
    """'0.20.2' or '1.0.0', from the running FreeCAD."""
    version = import_freecad().Version()
    return ".".join(version[:3])


ADDON_PACKAGES_VARIABLE = "CADBENCH_ADDON_PACKAGES"


def additional_packages_dirs() -> list[str]:
    """FreeCAD's AdditionalPythonPackages folders that exist: where the Addon Manager
    pip-installs an add-on's Python dependencies (0.20: <user data>/AdditionalPythonPackages;
    0.21 and later: its py3XX subfolder). FreeCAD puts them on its own sys.path; a scoring
    child is another Python, so runner.child_environment passes them on."""
    freecad = sys.modules.get("FreeCAD")
    if freecad is not None and hasattr(freecad, "getUserAppDataDir"):
        bases = [freecad.getUserAppDataDir()]
    elif os.environ.get("FREECAD_USER_HOME"):
        bases = [os.environ["FREECAD_USER_HOME"]]
    else:  # FreeCAD's default user data folders on Linux, macOS and Windows
        home = os.path.expanduser("~")
        data = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
        bases = [os.path.join(data, "FreeCAD"), os.path.join(home, ".FreeCAD")]
        bases.append(os.path.join(home, "Library", "Application Support", "FreeCAD"))
        if os.environ.get("APPDATA"):
            bases.append(os.path.join(os.environ["APPDATA"], "FreeCAD"))
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    found = []
    for base in bases:
        folder = os.path.join(base, "AdditionalPythonPackages")
        for candidate in (os.path.join(folder, tag), folder):
            if os.path.isdir(candidate) and candidate not in found:
                found.append(candidate)
    return found


def append_addon_packages() -> None:
    """In a child: append the folders the parent named, after site-packages, as FreeCAD
    does, so that they never shadow the interpreter's own numpy (FreeCAD is built on it)."""
    for folder in os.environ.get(ADDON_PACKAGES_VARIABLE, "").split(os.pathsep):
        if folder and folder not in sys.path:
            sys.path.append(folder)
