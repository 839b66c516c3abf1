# SPDX-License-Identifier: LGPL-2.1-or-later
"""The three layering rules of STYLE.md, checked by walking every module's imports."""

import ast
import os

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
    # TechDraw 1.0 needs Qt's event loop headless: app/kernel_compat.py may import the one
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
                    "app/kernel_compat.py",
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
