# SPDX-License-Identifier: LGPL-2.1-or-later
"""The three layering rules of STYLE.md, checked by walking every module's imports."""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(ROOT, "cadbench_wb")
KERNEL = {"FreeCAD", "Part", "Mesh", "TechDraw", "Import", "PartDesign", "Sketcher", "MeshPart"}
GUI = {
    "FreeCADGui",
    "PySide",
    "PySide2",
    "PySide6",
    "pivy",
    "shiboken2",
    "shiboken6",
    "TechDrawGui",
}


def _modules():
    for root, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                yield os.path.relpath(path, PACKAGE).replace(os.sep, "/"), path


def _imports(path):
    """(top-level module name, at module level?) for every import in a file."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    top_level = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            top_level.add(id(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], id(node) in top_level
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0], id(node) in top_level


def test_only_gui_imports_freecadgui_or_qt():
    offenders = [
        (rel, name)
        for rel, path in _modules()
        if not rel.startswith("gui/")
        for name, _ in _imports(path)
        if name in GUI
    ]
    assert offenders == []


def test_pure_modules_import_no_cad_kernel_at_module_level():
    offenders = [
        (rel, name)
        for rel, path in _modules()
        if not rel.startswith(("app/", "gui/"))
        for name, module_level in _imports(path)
        if name in KERNEL and module_level
    ]
    assert offenders == []


def test_package_init_imports_neither_freecad_nor_qt():
    names = {name for name, _ in _imports(os.path.join(PACKAGE, "__init__.py"))}
    assert not names & (KERNEL | GUI)


def test_the_freecad_layer_calls_the_gui_layer_for_qt_events_only():
    # TechDraw 1.0 needs Qt's event loop headless: app/model/kernel_compat.py may import the one
    # QtCore-only module gui/event_loop.py, and no other module of the GUI layer.
    offenders = []
    for rel, path in _modules():
        if not rel.startswith("app/"):
            continue
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "cadbench_wb.gui"
            ):
                names = [alias.name for alias in node.names]
                if (rel, node.module, names) != (
                    "app/model/kernel_compat.py",
                    "cadbench_wb.gui",
                    ["event_loop"],
                ):
                    offenders.append((rel, node.module, names))
            elif isinstance(node, ast.Import):
                offenders += [
                    (rel, a.name) for a in node.names if a.name.startswith("cadbench_wb.gui")
                ]
    assert offenders == []
    event_loop = os.path.join(PACKAGE, "gui", "event_loop.py")
    assert {name for name, _ in _imports(event_loop)} - {"locale"} == {"PySide"}


# Modules that are the entry of a FreeCAD process and so may call the FreeCAD layer: the
# scoring child, the campaign's worker child, and the one command that works in FreeCAD
# itself (case build/verify). Every other module outside app/ and gui/ is pure.
FREECAD_ENTRIES = {
    "runtime/worker.py",
    "campaign/worker_process.py",
    "commands/case.py",
}
# The one module that finds and imports FreeCAD for everyone else (freecad_env.import_freecad).
KERNEL_LOCATOR = "runtime/freecad_env.py"
# Runs inside the code sandbox under a dialect's own interpreter (FreeCAD's python for
# FreeCAD scripts), copied in as bytes: never imported by cadbench (checked below).
SANDBOXED = "code/harness.py"
# Packages that never touch FreeCAD or Qt, not even inside a function.
PURE_PACKAGES = ("metrics/", "drafting/")


def _imported_names(path):
    """Every module an import anywhere in the file names, dotted, with `from a import b`
    giving both a and a.b."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _calls_into(name, package):
    return name == f"cadbench_wb.{package}" or name.startswith(f"cadbench_wb.{package}.")


def test_pure_packages_import_no_kernel_or_qt_even_inside_functions():
    offenders = [
        (rel, name)
        for rel, path in _modules()
        if rel.startswith(PURE_PACKAGES)
        for name in _imported_names(path)
        if name.split(".")[0] in KERNEL | GUI
        or _calls_into(name, "app")
        or _calls_into(name, "gui")
    ]
    assert offenders == []


def test_only_freecad_entries_call_the_freecad_layer_from_outside_it():
    callers = {
        rel
        for rel, path in _modules()
        if not rel.startswith(("app/", "gui/"))
        for name in _imported_names(path)
        if _calls_into(name, "app")
    }
    assert callers <= FREECAD_ENTRIES
    kernel_users = {
        rel
        for rel, path in _modules()
        if not rel.startswith(("app/", "gui/"))
        for name in _imported_names(path)
        if name.split(".")[0] in KERNEL
    }
    assert kernel_users <= {KERNEL_LOCATOR, SANDBOXED}


def test_the_sandboxed_harness_is_imported_by_no_module():
    pattern = re.compile(r"code(\.| import )harness\b")
    importers = [
        rel
        for rel, path in _modules()
        if rel != SANDBOXED and pattern.search(open(path, encoding="utf-8").read())
    ]
    assert importers == []


def test_no_module_outside_gui_calls_the_gui_layer_except_the_qt_event_loop():
    offenders = [
        (rel, name)
        for rel, path in _modules()
        if not rel.startswith("gui/")
        for name in _imported_names(path)
        if _calls_into(name, "gui")
        and name not in ("cadbench_wb.gui", "cadbench_wb.gui.event_loop")
    ]
    assert offenders == []


def test_freecads_init_files_load_nothing_heavy_at_start_up():
    # Init.py runs in every FreeCAD process (freecadcmd too): FreeCAD itself only.
    init = {name.split(".")[0] for name in _imported_names(os.path.join(ROOT, "Init.py"))}
    assert init <= {"FreeCAD", "os", "sys"}
    # InitGui.py: the workbench class is imported lazily, inside its methods; at module
    # level nothing of cadbench, Qt or the FreeCAD layer.
    tree = ast.parse(open(os.path.join(ROOT, "InitGui.py"), encoding="utf-8").read())
    top = [
        alias.name if isinstance(node, ast.Import) else node.module
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    ]
    assert not [name for name in top if name.startswith("cadbench_wb") or name in GUI]
    lazy = set(_imported_names(os.path.join(ROOT, "InitGui.py")))
    assert not [name for name in lazy if _calls_into(name, "app")]
