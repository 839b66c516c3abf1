# SPDX-License-Identifier: LGPL-2.1-or-later
"""Find and import FreeCAD's library from plain Python, freecadcmd or the GUI console."""

import glob
import os
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

    FreeCAD must be imported before Part: the other order segfaults on 0.20.
    """
    if "FreeCAD" in sys.modules:
        return sys.modules["FreeCAD"]
    for folder in candidate_lib_dirs():
        if _has_freecad_module(folder) and folder not in sys.path:
            sys.path.append(folder)
            break
    try:
        import FreeCAD  # noqa: PLC0415
        import Part  # noqa: F401, PLC0415
    except ImportError as exc:
        raise FreeCADUnavailable(f"{INSTALL_HINT} ({exc})") from None
    _add_mod_dir(FreeCAD)
    return FreeCAD


def _add_mod_dir(freecad) -> None:
    """Make FreeCAD's Python workbench modules (TechDraw helpers, Mesh) importable."""
    # Debian keeps Mod/ (PartDesign, Sketcher) under the resource dir, not the home path.
    bases = (freecad.getHomePath(), freecad.getResourceDir())
    for base in bases + (os.path.dirname(os.path.dirname(FreeCAD_lib(freecad))),):
        mod = os.path.join(base, "Mod")
        if os.path.isdir(mod) and mod not in sys.path:
            sys.path.append(mod)


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
