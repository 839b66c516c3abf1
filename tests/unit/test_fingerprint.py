# SPDX-License-Identifier: LGPL-2.1-or-later
"""The stamps are derived from the metric registry: they change with every module a metric
reaches and with nothing else (issue 18). Pure: no FreeCAD, read by ast."""

import ast
import json
import os

import pytest
from conftest import copy_package

from cadbench_wb.metrics import registry
from cadbench_wb.results import fingerprint

PACKAGE = fingerprint.PACKAGE_DIR
ROOT = os.path.dirname(PACKAGE)


@pytest.fixture
def package_copy(tmp_path):
    """cadbench_wb/ and resources/ side by side in a temporary folder, as a checkout has."""
    return copy_package(tmp_path)


def _stamps(package_dir):
    fingerprint.sealed_files.cache_clear()
    return (
        fingerprint.metric_fingerprint(package_dir=package_dir),
        fingerprint.drawing_fingerprint(package_dir=package_dir),
    )


def _touch(package_dir, rel):
    with open(os.path.join(package_dir, rel), "a", encoding="utf-8") as handle:
        handle.write("\n# a change\n")


def test_a_copy_of_the_package_has_the_same_stamps(package_copy):
    assert _stamps(package_copy) == _stamps(PACKAGE)


@pytest.mark.parametrize(
    "rel",
    [
        "app/recognition/features.py",  # semanticMatch's recognition, imported by its stage
        "app/shape/fidelity.py",
        "metrics/located_dimensions.py",  # reached through dimension_stage
        "results/result.py",  # the old hand-kept list left it out
        "standard.py",
        "app/scoring.py",
    ],
)
def test_the_metric_stamp_changes_with_every_scoring_module(package_copy, rel):
    before = _stamps(package_copy)
    _touch(package_copy, rel)
    assert _stamps(package_copy)[0] != before[0]


@pytest.mark.parametrize(
    "rel",
    [
        "gui/panel.py",
        "campaign/report_page.py",
        "commands/info.py",
        "drafting/checks.py",  # dxf-check: not a 3D metric
        "__init__.py",  # the version
        "app/cases/build.py",
    ],
)
def test_the_stamps_stay_when_a_module_no_metric_reaches_changes(package_copy, rel):
    before = _stamps(package_copy)
    _touch(package_copy, rel)
    assert _stamps(package_copy) == before


def test_the_drawing_stamp_follows_the_drawing_chain_only(package_copy):
    metric, drawing = _stamps(package_copy)
    _touch(package_copy, "drafting/plan.py")
    assert _stamps(package_copy) == (metric, _stamps(package_copy)[1])
    assert _stamps(package_copy)[1] != drawing
    _touch(package_copy, "../resources/templates/A2_Landscape_ISO7200TD.svg")
    assert _stamps(package_copy)[1] != drawing


def test_a_thread_table_is_sealed_in_the_metric_stamp(package_copy):
    before = _stamps(package_copy)[0]
    _touch(package_copy, "../resources/data/iso_metric_threads.csv")
    assert _stamps(package_copy)[0] != before


def test_a_missing_registered_module_fails_the_stamp_loudly(package_copy):
    os.remove(os.path.join(package_copy, "app/threads/stage.py"))
    with pytest.raises(registry.MetricNotLoadable, match="cadbench_wb.app.threads.stage"):
        _stamps(package_copy)
    fingerprint.sealed_files.cache_clear()


def test_scoring_code_takes_nothing_but_the_version_from_package_init_files():
    # The stamps leave __init__.py files out; that is right only while no sealed module
    # imports a name (a function, a constant) defined in one.
    taken = []
    for path in fingerprint.sealed_files("metric") + fingerprint.sealed_files("drawing"):
        if not path.endswith(".py"):
            continue
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cadbench_wb"):
                for alias in node.names:
                    if fingerprint.module_file(f"{node.module}.{alias.name}") is None:
                        owner = fingerprint.module_file(node.module)
                        if owner.endswith("__init__.py"):
                            taken.append((node.module, alias.name))
    assert set(taken) <= {("cadbench_wb", "__version__")}


def test_every_registered_stage_is_sealed_under_its_stamp():
    for metric in registry.METRICS:
        sealed = fingerprint.sealed_files(metric.stamp)
        for module in metric.modules:
            assert fingerprint.module_file(module) in sealed, (metric.name, module)


def test_the_statement_walk_finds_every_import_a_full_walk_finds():
    # The stamps read imports from statements only (no expression can hold one); the full
    # ast.walk over every file of the package is the independent count.
    source = (
        "import a\n"
        "def f():\n"
        "    if x:\n"
        "        import b\n"
        "    else:\n"
        "        from c import d\n"
        "    try:\n"
        "        import e\n"
        "    except E:\n"
        "        import g\n"
        "    finally:\n"
        "        import h\n"
        "class K:\n"
        "    with w:\n"
        "        for i in y:\n"
        "            while z:\n"
        "                import m\n"
        "match v:\n"
        "    case 1:\n"
        "        import n\n"
    )
    files = [("constructed", source)]
    assert (
        sum(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(ast.parse(source))) == 8
    )
    for folder, _, names in os.walk(PACKAGE):
        for name in sorted(n for n in names if n.endswith(".py")):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                files.append((name, handle.read()))
    kinds = (ast.Import, ast.ImportFrom)
    for name, text in files:
        tree = ast.parse(text)
        full = [ast.dump(n) for n in ast.walk(tree) if isinstance(n, kinds)]
        walked = [ast.dump(n) for n in fingerprint.statements_of(tree.body) if isinstance(n, kinds)]
        assert sorted(walked) == sorted(full), name


def test_kept_imports_give_the_same_stamp_and_an_edit_is_parsed_again(tmp_path, monkeypatch):
    # The modules a file imports are kept by its content in the user's cache folder: a
    # warm cache gives the cold stamp, and an entry whose content hash is not the file's
    # (a file edited since) is never used, even one that names other imports.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(fingerprint, "_IMPORTS", fingerprint._ImportCache())
    cold = _stamps(PACKAGE)
    kept = fingerprint._ImportCache.file()
    assert os.path.isfile(kept)
    monkeypatch.setattr(fingerprint, "_IMPORTS", fingerprint._ImportCache())
    assert _stamps(PACKAGE) == cold
    shape = os.path.join(PACKAGE, "app", "shape", "fidelity.py")
    stale = {"app/shape/fidelity.py": {"0" * 64: []}}  # as if fidelity.py imported nothing
    with open(kept, "w", encoding="utf-8") as handle:
        json.dump(stale, handle)
    monkeypatch.setattr(fingerprint, "_IMPORTS", fingerprint._ImportCache())
    assert _stamps(PACKAGE) == cold
    assert "cadbench_wb.app.shape.time_budget" in fingerprint._imported_modules(shape)


def test_kept_imports_are_shared_by_checkouts_and_kept_beside_theirs(
    package_copy, tmp_path, monkeypatch
):
    # Entries are keyed by the path inside the package: a second checkout (the copy, as its
    # own fingerprint module sees itself) finds this one's entries and parses nothing, and
    # what another checkout wrote stays beside them.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept = fingerprint._ImportCache.file()
    os.makedirs(os.path.dirname(kept))
    theirs = {"app/elsewhere.py": {"1" * 64: ["cadbench_wb.standard"]}}
    with open(kept, "w", encoding="utf-8") as handle:
        json.dump(theirs, handle)
    monkeypatch.setattr(fingerprint, "_IMPORTS", fingerprint._ImportCache())
    cold = _stamps(PACKAGE)
    with open(kept, encoding="utf-8") as handle:
        stored = json.load(handle)
    assert stored["app/elsewhere.py"] == theirs["app/elsewhere.py"]
    assert "app/shape/fidelity.py" in stored and not any(os.path.isabs(k) for k in stored)
    parsed = []
    real = fingerprint._parsed_imports
    monkeypatch.setattr(fingerprint, "_parsed_imports", lambda *a: parsed.append(a) or real(*a))
    monkeypatch.setattr(fingerprint, "_IMPORTS", fingerprint._ImportCache())
    monkeypatch.setattr(fingerprint, "PACKAGE_DIR", str(package_copy))
    assert _stamps(str(package_copy)) == cold
    assert parsed == []


def test_the_exact_boolean_child_and_its_booleans_are_sealed():
    # The child is started by a command line (time_budget), which no import follows: its
    # module is a root of the metric stamp, so the booleans it computes are sealed too.
    sealed = {os.path.relpath(p, PACKAGE) for p in fingerprint.sealed_files("metric")}
    assert {"app/shape/exact_child.py", "app/shape/exact.py"} <= sealed
