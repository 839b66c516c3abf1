# SPDX-License-Identifier: LGPL-2.1-or-later
"""Loading real third-party files, and untrusted FCStd documents read as data."""

import json
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest
from conftest import REALWORLD, copy_package

import cadbench_wb
from cadbench_wb.app.model import loading
from cadbench_wb.app.model.loading import load_model
from cadbench_wb.inputs import formats

# Volumes from shared/realworld/MANIFEST.md (measured there by FreeCAD 0.20.2 on the
# live documents); reading the stored shapes as data must give the same solids. The files
# are the same bytes, copied into tests/data/fcstd (PROVENANCE.md).
FCSTD_CORPUS = os.path.join(os.path.dirname(__file__), "..", "data", "fcstd")
REAL_FCSTD = {
    "assembly4/Asm4_Example2/Bielle/Bielle.fcstd": 60545.404,
    "assembly4/Asm4_Example2/Bielle/Bague.fcstd": 3364.646,
    "freepdm/0001.FCStd": 146734.740,
    "freepdm/ISO4762_M8x16_lib.FCStd": 1695.330,
    "assembly4/Asm4_Example2/Piston/Piston.FCStd": 246732.802,
}


@pytest.mark.parametrize("relpath,volume", sorted(REAL_FCSTD.items()))
def test_real_fcstd_documents_load_their_final_solid(fc, relpath, volume):
    model = load_model(os.path.join(FCSTD_CORPUS, relpath))
    assert model.solids == 1
    assert model.shape.Volume == pytest.approx(volume, abs=0.01)


def test_real_step_with_free_curves_scores_only_its_solid(fc):
    path = os.path.join(REALWORLD, "step/nist/nist_ctc_01_asme1_rd.stp")
    model = load_model(path)
    assert model.solids == 1
    assert model.shape.Volume == pytest.approx(14642823.569, rel=1e-6)


def test_fcstd_proxy_module_is_never_imported(fc, tmp_path, monkeypatch):
    """A document naming a FeaturePython proxy class must not run that module's code."""
    marker = tmp_path / "pwned"
    (tmp_path / "cadbench_evil_proxy.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\nclass Evil:\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import Part

    box = Part.makeBox(10, 10, 10)
    brep = tmp_path / "PartShape.brp"
    box.exportBrep(str(brep))
    document = """<?xml version='1.0' encoding='utf-8'?>
<Document SchemaVersion="4" ProgramVersion="0.20" FileVersion="1">
  <Objects Count="1" Dependencies="1">
    <ObjectDeps Name="Evil" Count="0"/>
    <Object type="Part::FeaturePython" name="Evil" id="1"/>
  </Objects>
  <ObjectData Count="1">
    <Object name="Evil">
      <Properties Count="2">
        <Property name="Proxy" type="App::PropertyPythonObject">
          <Python value="" encoded="yes" module="cadbench_evil_proxy" class="Evil"/>
        </Property>
        <Property name="Shape" type="Part::PropertyPartShape">
          <Part file="PartShape.brp"/>
        </Property>
      </Properties>
    </Object>
  </ObjectData>
</Document>"""
    path = tmp_path / "evil.FCStd"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Document.xml", document)
        archive.write(brep, "PartShape.brp")
    model = load_model(str(path))
    assert model.shape.Volume == pytest.approx(1000.0)
    assert not marker.exists()


def test_fcstd_cut_scores_the_result_not_its_tools(fc, tmp_path):
    """A Part::Cut document: the box and the cylinder are hidden inputs, the cut is scored."""
    import Part

    doc = fc.newDocument("cutdoc")
    box = doc.addObject("Part::Box", "Box")
    cyl = doc.addObject("Part::Cylinder", "Cylinder")
    cyl.Radius, cyl.Height = 2, 10
    cut = doc.addObject("Part::Cut", "Cut")
    cut.Base, cut.Tool = box, cyl
    doc.recompute()
    path = str(tmp_path / "cut.FCStd")
    doc.saveAs(path)
    fc.closeDocument(doc.Name)
    model = load_model(path)
    assert model.solids == 1
    assert model.shape.Volume == pytest.approx(1000 - Part.makeCylinder(2, 10).Volume / 4, rel=1e-9)


def test_every_format_of_the_table_has_a_loader():
    assert set(loading.LOADERS) == set(formats.BY_NAME)


@pytest.mark.parametrize("fmt", ["brep", "step", "stl", "obj"])
def test_each_loader_scores_a_box_of_its_format(fc, part, tmp_path, fmt):
    """A 10 x 20 x 30 box (6000 mm3, exact on its 12 triangles too), written in each format
    and read back through the loader table by load_model and by scored_shape. (FreeCAD
    writes IGES as faces, not a solid: IGES shares the BREP loader.)"""
    import Mesh

    box = part.makeBox(10, 20, 30)
    path = str(tmp_path / f"box.{fmt}")
    if fmt in ("stl", "obj"):
        Mesh.Mesh(box.tessellate(0.1)).write(path)
    elif fmt == "brep":
        box.exportBrep(path)
    else:
        box.exportStep(path)
    model = loading.load_model(path)
    assert (model.format, model.solids) == (fmt, 1)
    assert model.from_mesh is (fmt in ("stl", "obj"))
    assert model.summary()["volume"] == pytest.approx(6000, rel=1e-9)
    assert loading.scored_shape(path).Volume == pytest.approx(6000, rel=1e-9)


ADDED_FORMAT = """
import importlib, json, sys
from cadbench_wb.runtime.freecad_env import import_freecad
import_freecad()
import Mesh, Part
loading = importlib.import_module(sys.argv[2])
path = sys.argv[1]
Mesh.Mesh(Part.makeBox(10, 20, 30).tessellate(0.1)).write(path)
model = loading.load_model(path)
print(json.dumps([model.format, model.from_mesh, model.summary()["volume"]]))
"""


def test_a_new_format_is_one_table_line_and_one_loader_line(tmp_path):
    """Object File Format meshes (.off, which FreeCAD's Mesh reads), added to a copy of the
    package as docs/architecture.md says: one line in formats.TABLE (its sniff reused from
    OBJ, another text mesh format) and one line in loading.LOADERS (the mesh loader)."""
    package = pathlib.Path(copy_package(tmp_path))
    for module, anchor, line in (
        (formats, "TABLE = (\n", '    Format("off", (".off",), _obj_problem, mesh=True),\n'),
        (loading, "LOADERS = {\n", '    "off": Loader(_mesh_model),\n'),
    ):
        source = package / os.path.relpath(module.__file__, os.path.dirname(cadbench_wb.__file__))
        text = source.read_text()
        assert anchor in text, module.__name__
        source.write_text(text.replace(anchor, anchor + line, 1))
    process = subprocess.run(
        [sys.executable, "-c", ADDED_FORMAT, str(tmp_path / "box.off"), loading.__name__],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert process.returncode == 0, process.stderr
    fmt, from_mesh, volume = json.loads(process.stdout.strip().splitlines()[-1])
    assert (fmt, from_mesh) == ("off", True)
    assert volume == pytest.approx(6000, rel=1e-9)  # the 10 x 20 x 30 box
