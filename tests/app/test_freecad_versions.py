# SPDX-License-Identifier: LGPL-2.1-or-later
"""What FreeCAD 1.0 changed, handled by feature detection so that 0.20 and 1.0 both work:
workbench folders on sys.path, the sketch's attachment property, the shipped template,
UTF-8 and flushed output, -0.0 in features, stdout kept for the JSON alone."""

import json
import math
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli


def _python(code: str, env=None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=full_env
    )


@pytest.mark.parametrize(
    "first",
    [
        "from cadbench_wb.runtime.freecad_env import import_freecad; import_freecad()",
        "import FreeCAD",
    ],
)
def test_every_workbench_folder_is_on_the_path_of_plain_python(first):
    # FreeCAD 1.0's Part.makeCompound imports PartEnums from Mod/Part and segfaults without
    # it; `import FreeCAD` first (the venv's .pth allows it) must not skip the folders.
    done = _python(
        f"{first}\n"
        "from cadbench_wb.app.model import loading\n"
        "import sys, PartEnums, Part\n"
        "print(PartEnums.__file__)\n"
        "print(len(Part.makeCompound([Part.makeBox(1, 1, 1)]).Solids))\n"
        "print(sorted({p.split('/')[-1] for p in sys.path if '/Mod/' in p}))\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith(os.path.join("Mod", "Part", "PartEnums.py"))
    assert lines[1] == "1"
    for workbench in ("Part", "PartDesign", "Sketcher", "TechDraw"):
        assert workbench in lines[2]


def test_sketches_attach_through_the_property_the_kernel_has(fc):
    from cadbench_wb.app.model.kernel_compat import attach

    doc = fc.newDocument("attach_test")
    try:
        body = doc.addObject("PartDesign::Body", "Body")
        sketch = body.newObject("Sketcher::SketchObject", "Sketch")
        attach(sketch, (doc.getObject("XZ_Plane"), [""]))
        sketch.MapMode = "FlatFace"
        doc.recompute()
        name = "AttachmentSupport" if "AttachmentSupport" in sketch.PropertiesList else "Support"
        assert getattr(sketch, name)[0][0].Name == "XZ_Plane"
        # On the XZ plane the sketch's normal is the model's -Y (or +Y): never Z.
        normal = sketch.Placement.Rotation.multVec(fc.Vector(0, 0, 1))
        assert abs(abs(normal.y) - 1) < 1e-9
    finally:
        fc.closeDocument(doc.Name)


def test_the_drawing_template_is_the_shipped_one(fc):
    from cadbench_wb.app.drawing import techdraw as drawing

    path = drawing.template_file(fc)
    assert os.path.dirname(path) == os.path.join(ROOT, "resources", "templates")
    # The ISO 7200 A3 frame: 420 x 297 sheet, working space 20 10 410 287 (y up on the page).
    working, title_block = drawing.sheet_areas(path)
    assert working == pytest.approx((20, 10, 410, 287))
    assert title_block[2:] == pytest.approx((410, 70))


def test_a_non_ascii_stdout_still_prints_utf8(tmp_path):
    # FreeCAD 1.0 starts children with LANG=C; an ASCII stdout used to raise
    # UnicodeEncodeError on the first 'Ø' printed (here: the file's own name).
    path = tmp_path / "plate_Ø16.dxf"
    path.write_text("not a drawing")
    status, out, err = run_cli("dxf-check", str(path), env={"PYTHONIOENCODING": "ascii"})
    assert "UnicodeEncodeError" not in err
    assert status == 2 and "Ø16" in err


def test_json_on_stdout_is_not_mixed_with_progress_text():
    # TechDraw 1.0 prints 'has finished finding hidden lines' on the C level during a
    # recompute; with `--json -` that would corrupt the JSON.
    done = _python(
        "import os, FreeCAD\n"
        "from cadbench_wb.runtime import console\n"
        "with console.stdout_for_result_only():\n"
        "    os.write(1, b'C-level progress\\n')\n"
        "    print('Python progress')\n"
        "    FreeCAD.Console.PrintMessage('console progress\\n')\n"
        "    console.write_result('{\"ok\": true}\\n')\n"
        "print('after')\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"ok": true}\nafter\n'
    assert "C-level progress" in done.stderr and "Python progress" in done.stderr


@pytest.mark.skipif(shutil.which("freecadcmd") is None, reason="no freecadcmd on PATH")
def test_freecadcmd_recipe_keeps_the_exit_status_and_the_output(tmp_path):
    def recipe(*argv):
        code = (
            f"import sys; sys.path.insert(0, {ROOT!r}); from cadbench_wb import cli; "
            f"cli.run_and_exit({list(argv)!r})"
        )
        return subprocess.run(
            ["freecadcmd", "-c", code], capture_output=True, text=True, cwd=str(tmp_path)
        )

    missing = str(tmp_path / "absent.step")
    failed = recipe("score", missing, missing)
    assert failed.returncode == 2 and "no such file" in failed.stderr
    info = recipe("info", "--json")
    assert info.returncode == 0, info.stderr
    assert json.loads(info.stdout[info.stdout.index("{") :])["freecad"]


def test_feature_axes_never_carry_a_negative_zero():
    from cadbench_wb.app.recognition.regions import record

    # _canonical flips (0, 0, -1) to (-0.0, -0.0, 1.0): atan2 and string keys then tell a
    # shape from its copy.
    found = record("hole", "through", {"diameter": -0.0}, (-0.0, 0.0, 5.0), axis=(0, 0, -1))
    numbers = found["axis"] + found["location"] + list(found["params"].values())
    assert all(math.copysign(1.0, x) > 0 for x in numbers if x == 0)
    assert found["axis"] == [0.0, 0.0, 1.0]


def test_kernel_self_test_passes_here_and_names_a_broken_module():
    from cadbench_wb.app.model import kernel_selftest

    kernel_selftest.PASSED.clear()  # an earlier test in this process may have run it
    stages = []
    kernel_selftest.check(stages.append)
    assert stages == [f"selftest:{name}" for name in kernel_selftest.OPERATIONS]
    # Once passed, not run again in this process (a campaign worker's next job).
    kernel_selftest.check(stages.append)
    assert len(stages) == len(kernel_selftest.OPERATIONS)
    # TechDraw's library never loaded (a broken installation: the name imports, the
    # document objects are missing): the self-test says so, in one line.
    done = _python(
        "import sys, types\n"
        "sys.modules['TechDraw'] = types.ModuleType('TechDraw')\n"
        "from cadbench_wb.app.model import kernel_selftest\n"
        "from cadbench_wb.errors import EnvironmentBroken\n"
        "try:\n"
        "    kernel_selftest.check()\n"
        "except EnvironmentBroken as exc:\n"
        "    print(exc.one_line())\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "environment_broken: FreeCAD kernel self-test failed: TechDraw projection: "
    )


def test_running_qt_events_keeps_the_process_locale():
    # Qt's QCoreApplication runs setlocale(LC_ALL, "") where FreeCAD has set LANG=C: the
    # process then decoded its children's output as ASCII (TechDraw 1.0 needs Qt's events).
    done = _python(
        "import locale\n"
        "from cadbench_wb.runtime.freecad_env import import_freecad\n"
        "import_freecad()\n"
        "before = (locale.setlocale(locale.LC_ALL), locale.getpreferredencoding(False))\n"
        "from cadbench_wb.gui import event_loop\n"
        "event_loop.finish_background_work()\n"
        "after = (locale.setlocale(locale.LC_ALL), locale.getpreferredencoding(False))\n"
        "print(before == after, after[1])\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "True"
