# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which of cadbench's Python packages an interpreter has, and how to install the rest.

A FreeCAD user installs the workbench from the Addon Manager: it clones the repository into
Mod/ and pip-installs the allow-listed packages that metadata.txt and package.xml declare
into FreeCAD's AdditionalPythonPackages folder; nothing runs `make`. The scoring child
then runs on another Python (runner.python_for_children), so the check runs there:
``python -m cadbench_wb.runtime.dependencies --json``. Pure standard library.
"""

import dataclasses
import importlib
import json
import os
import shlex
import subprocess
import sys
from importlib.metadata import version as dist_version

from cadbench_wb.runtime import freecad_env, runner


@dataclasses.dataclass(frozen=True)
class Package:
    module: str  # what `import` names
    pip: str  # what pip installs (with the minimum version pyproject.toml declares)
    needed_for: str
    without: str = ""  # for optional packages: what cadbench does instead
    minimum: tuple = ()
    allow_listed: bool = True  # on the Addon Manager's ALLOWED_PYTHON_PACKAGES.txt


# pyproject.toml's dependencies. The Addon Manager installs only allow-listed packages
# (0.20's list has numpy, scipy, PyYAML, ezdxf, matplotlib): the others are optional here.
REQUIRED = (
    Package("numpy", "numpy>=1.21", "every metric", minimum=(1, 21)),
    Package("scipy", "scipy>=1.8", "alignment, feature and drawing matching", minimum=(1, 8)),
    Package("yaml", "PyYAML>=5.4", "bundled cases (case.yaml)", minimum=(5, 4)),
    # Debian's python3-ezdxf is 0.18: too old for the drawing reader.
    Package("ezdxf", "ezdxf>=1.4", "drawings: Generate drawing, dxf-check", minimum=(1, 4)),
    Package("matplotlib", "matplotlib>=3.5", "campaign plots, drawing rasters", minimum=(3, 5)),
)
OPTIONAL = (
    Package(
        "manifold3d",
        "manifold3d>=2.5",
        "the mesh-boolean cross-check of shapeIoU, thread zone volumes",
        without="the IoU is cross-checked by point sampling only; thread volumes not measured",
        minimum=(2, 5),
        allow_listed=False,
    ),
    Package(
        "trimesh",
        "trimesh>=4.0",
        "exporting the shape difference as meshes (--export-diff)",
        without="--export-diff writes the STEP files only (no .glb meshes)",
        minimum=(4, 0),
        allow_listed=False,
    ),
    Package(
        "distributed",
        "dask[distributed]>=2024.1",
        "campaigns on a Dask cluster (cadbench run --scheduler)",
        without="campaigns run on the local process pool",
        minimum=(2024, 1),
        allow_listed=False,
    ),
)


def _version_tuple(text: str) -> tuple:
    parts = []
    for piece in str(text).split(".")[:2]:
        digits = "".join(c for c in piece if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def probe(package: Package) -> dict:
    """{'module', 'version', 'problem'}: problem is None when the import works and is new
    enough. The import is real: a broken install fails here as it would when scoring."""
    try:
        module = importlib.import_module(package.module)
    except Exception as exc:  # ImportError, or a compiled module that fails to load
        return {"module": package.module, "version": None, "problem": f"not importable ({exc})"}
    version = getattr(module, "__version__", None)
    if version is None:
        try:
            version = dist_version(package.pip.split(">")[0].split("[")[0])
        except Exception:
            version = None
    problem = None
    if version is not None and package.minimum and _version_tuple(version) < package.minimum:
        problem = f"version {version} is older than {package.pip}"
    return {"module": package.module, "version": version, "problem": problem}


def check() -> dict:
    """This interpreter's packages: missing_required / missing_optional name pip specs."""
    report = {"python": sys.executable, "pythonVersion": ".".join(map(str, sys.version_info[:3]))}
    report["packages"] = {}
    report["missing_required"], report["missing_optional"] = [], []
    for group, missing in ((REQUIRED, "missing_required"), (OPTIONAL, "missing_optional")):
        for package in group:
            found = probe(package)
            report["packages"][package.module] = found
            if found["problem"]:
                report[missing].append(package.pip)
    report["ok"] = not report["missing_required"]
    return report


def _by_pip(spec: str) -> Package:
    return next(p for p in REQUIRED + OPTIONAL if p.pip == spec)


def advice(report: dict, target: str | None = None) -> list[str]:
    """What is missing and how to install it, one line each (the Report view and the
    activation dialog print these). target: FreeCAD's AdditionalPythonPackages folder."""
    lines = []
    python = report.get("python") or "python3"
    for spec in report.get("missing_required", []):
        package = _by_pip(spec)
        found = report.get("packages", {}).get(package.module) or {}
        problem = found.get("problem") or report.get("error") or "not importable"
        lines.append(f"missing {spec} (needed for {package.needed_for}): {problem}")
    for spec in report.get("missing_optional", []):
        package = _by_pip(spec)
        lines.append(f"optional {spec} is absent ({package.needed_for}): {package.without}")
    if not lines:
        return [f"all of cadbench's Python packages are present in {python}"]
    wanted = report.get("missing_required", []) + report.get("missing_optional", [])
    specs = " ".join(shlex.quote(s) for s in wanted)
    lines.append(f"the scoring child runs {python}; to install what it lacks, one of:")
    lines.append("  in a source checkout: `make setup` (a .venv the workbench finds by itself)")
    lines.append("  or set CADBENCH_PYTHON to a Python 3.10+ that has them, then restart FreeCAD")
    # Not `pip install --user`: Debian 12's Python refuses it (PEP 668, "externally managed
    # environment"). FreeCAD's AdditionalPythonPackages folder takes a --target install,
    # and the workbench hands it to the scoring child (freecad_env.additional_packages_dirs).
    target = target or default_addon_target()
    lines.append(f"  or `{python} -m pip install --target {shlex.quote(target)} {specs}`")
    lines.append("    (the folder FreeCAD's Addon Manager installs into; restart FreeCAD)")
    return lines


def default_addon_target() -> str:
    """FreeCAD's AdditionalPythonPackages folder as FreeCAD 0.20 names it on Linux, for
    advice printed outside FreeCAD (FreeCAD 0.21 and later read its py3XX subfolder too)."""
    folders = freecad_env.additional_packages_dirs()
    if folders:
        return folders[0]
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(data, "FreeCAD", "AdditionalPythonPackages")


def child_report(timeout: float = 120.0) -> dict:
    """check() as the scoring child sees it: its interpreter, its environment (runner)."""
    python = runner.python_for_children()
    command = [python, "-m", "cadbench_wb.runtime.dependencies", "--json"]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=runner.child_environment(), timeout=timeout
        )
        return json.loads(done.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        detail = f"{python} could not run the check ({type(exc).__name__}: {exc})"
        return {
            "python": python,
            "packages": {},
            "missing_required": [p.pip for p in REQUIRED],
            "missing_optional": [],
            "ok": False,
            "error": detail,
        }


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    report = check()
    if "--json" in argv:
        print(json.dumps(report, sort_keys=True))
    else:
        print("\n".join(advice(report)))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
