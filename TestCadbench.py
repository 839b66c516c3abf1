# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench's tests for FreeCAD's own test runner: `freecadcmd -t TestCadbench`.

Init.py registers this module in FreeCAD.__unit_test__, so the Test workbench lists it too.
Plain unittest, as FreeCAD's Draft and Assembly tests are: no pytest fixtures, the real
kernel, real files. Each test that touches a document opens a fresh one in setUp and
closes it in tearDown. Expected figures come from each part's construction (case.yaml) or
from tests/data/realworld/PROVENANCE.md. The full suite is pytest's (`make test`).
"""

import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # FreeCAD puts each Mod/<name> on sys.path; plain Python may not
    sys.path.insert(0, HERE)


class TestCadbenchKernel(unittest.TestCase):
    """The FreeCAD layer alone: loading real files and scoring analytic solids."""

    def setUp(self):
        from cadbench_wb.runtime.freecad_env import import_freecad

        self.fc = import_freecad()
        self.doc = self.fc.newDocument("TestCadbench")
        self.folder = tempfile.mkdtemp(prefix="TestCadbench-")

    def tearDown(self):
        self.fc.closeDocument(self.doc.Name)
        shutil.rmtree(self.folder, ignore_errors=True)

    def test_real_fcstd_loads_its_stored_solid(self):
        from cadbench_wb.app.model.loading import load_model

        path = os.path.join(HERE, "tests", "data", "realworld", "fcstd", "assembly4", "Bague.fcstd")
        model = load_model(path)
        self.assertEqual(model.solids, 1)
        # 3364.646 mm³: tests/data/realworld/PROVENANCE.md (FreeCAD 0.20.2 on the document).
        self.assertAlmostEqual(model.shape.Volume, 3364.646, delta=0.01)

    def test_moved_copy_scores_iou_one_and_a_bigger_hole_less(self):
        import Part

        from cadbench_wb.app.model import meshing
        from cadbench_wb.app.scoring import score_files

        block = Part.makeBox(40, 30, 20).cut(Part.makeCylinder(5, 20, self.fc.Vector(12, 10, 0)))
        moved = block.copy()
        moved.rotate(self.fc.Vector(0, 0, 0), self.fc.Vector(1, 1, 0.3), 37)
        moved.translate(self.fc.Vector(100, -20, 5))
        bigger = Part.makeBox(40, 30, 20).cut(Part.makeCylinder(6, 20, self.fc.Vector(12, 10, 0)))
        paths = {}
        for name, shape in (("ref", block), ("moved", moved), ("bigger", bigger)):
            paths[name] = os.path.join(self.folder, f"{name}.step")
            shape.exportStep(paths[name])
        same = score_files(paths["ref"], paths["moved"], {"only": ["shapeIoU"]})
        self.assertAlmostEqual(same["shapeIoU"], 1.0, delta=0.001)
        # Without manifold3d (an Addon Manager install) the JSON says why there is no mesh
        # boolean; point sampling still cross-checks the exact figure.
        missing = meshing.manifold_missing()
        self.assertEqual(same["shape"]["crossCheck"].get("meshSkipped"), missing)
        self.assertTrue(same["shape"]["checked"])
        # The Ø10 hole inside the Ø12 one: IoU = (V - pi 6² 20 + pi 5² 20) / V with
        # V = 40 30 20 - pi 5² 20, in the same frame (no alignment can do better).
        volume = 40 * 30 * 20 - 3.141592653589793 * 25 * 20
        expected = (volume - 3.141592653589793 * (36 - 25) * 20) / volume
        other = score_files(paths["ref"], paths["bigger"], {"only": ["shapeIoU"]})
        self.assertAlmostEqual(other["shapeIoU"], expected, delta=0.002)


class TestCadbenchBundledCase(unittest.TestCase):
    """A bundled case built from its build.py, as on a fresh Mod/ clone, and scored."""

    CASE = "fillet_block"

    def setUp(self):
        from cadbench_wb.runtime.freecad_env import import_freecad

        self.fc = import_freecad()
        self.folder = tempfile.mkdtemp(prefix="TestCadbench-case-")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def _built_case(self):
        from cadbench_wb.app.cases import build as case_build
        from cadbench_wb.case_model import cases

        skip = {"reference.step", "candidates", "__pycache__"}
        target = os.path.join(self.folder, self.CASE)
        shutil.copytree(
            os.path.join(HERE, "cases", self.CASE),
            target,
            ignore=lambda folder, names: [n for n in names if n in skip],
        )
        case = cases.load_case(target)
        case_build.build_missing(case)
        self.assertEqual(case.missing_files(), [])
        return case

    def test_candidates_score_as_their_construction_says(self):
        from cadbench_wb.app.scoring import score_files
        from cadbench_wb.case_model import cases

        case = self._built_case()
        wanted = {"candidates/perfect_moved.step", "candidates/broken_empty.step"}
        checked = 0
        for candidate in case.candidates:
            if candidate.file not in wanted:
                continue
            path = os.path.join(case.path, candidate.file)
            result = score_files(case.reference_path, path, case=case)
            self.assertEqual(cases.expectation_failures(candidate.expect, result), [], path)
            checked += 1
        self.assertEqual(checked, len(wanted))


class TestCadbenchPure(unittest.TestCase):
    """Pure modules under FreeCAD's own Python: dependency report, verdict ranges."""

    def test_dependency_report_names_what_to_install(self):
        from cadbench_wb.runtime import dependencies

        report = dependencies.check()
        self.assertEqual(set(report["missing_required"]) & {"numpy"}, set())
        for line in dependencies.advice(report):
            self.assertTrue(line.strip())


if __name__ == "__main__":
    unittest.main()
