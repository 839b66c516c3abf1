# SPDX-License-Identifier: LGPL-2.1-or-later
"""The FCStd rule on documents made by real FreeCAD: containers, links, arrays, refusals."""

import os
import zipfile

import pytest

from cadbench_wb.app.model.loading import load_model
from cadbench_wb.errors import DeliveryFailure


def _box(doc, name, x, y, z):
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = x, y, z
    return box


def _save(fc, doc, path):
    doc.recompute()
    doc.saveAs(str(path))
    fc.closeDocument(doc.Name)
    return str(path)


def _saved(fc, name, path):
    """A new document already saved at path (a link to another document needs that)."""
    doc = fc.newDocument(name)
    doc.saveAs(str(path))
    return doc


def test_hidden_part_hides_its_members_and_placements_compose(fc, tmp_path):
    doc = fc.newDocument("parts")
    shown = doc.addObject("App::Part", "Shown")
    shown.Placement = fc.Placement(fc.Vector(100, 0, 0), fc.Rotation())
    inner = doc.addObject("App::Part", "Inner")
    inner.Placement = fc.Placement(fc.Vector(0, 50, 0), fc.Rotation())
    shown.addObject(inner)
    inner.addObject(_box(doc, "Small", 10, 10, 10))
    hidden = doc.addObject("App::Part", "Hidden")
    hidden.addObject(_box(doc, "Big", 20, 20, 20))
    hidden.Visibility = False
    model = load_model(_save(fc, doc, tmp_path / "parts.FCStd"))
    assert model.solids == 1
    assert model.shape.Volume == pytest.approx(1000.0, rel=1e-9)
    box = model.shape.BoundBox
    assert (box.XMin, box.YMin) == pytest.approx((100.0, 50.0))
    assert [o["name"] for o in model.summary()["objects"]] == ["Small"]


def test_link_to_a_sibling_document_is_followed_and_placed(fc, tmp_path):
    sibling = fc.newDocument("sib")
    _box(sibling, "Brick", 10, 20, 30)
    sibling.saveAs(str(tmp_path / "sib.FCStd"))
    doc = _saved(fc, "asm", tmp_path / "asm.FCStd")
    link = doc.addObject("App::Link", "Link")
    link.LinkedObject = sibling.getObject("Brick")
    link.Placement = fc.Placement(fc.Vector(50, 0, 0), fc.Rotation(fc.Vector(0, 0, 1), 90))
    path = _save(fc, doc, tmp_path / "asm.FCStd")
    fc.closeDocument(sibling.Name)
    model = load_model(path)
    assert model.solids == 1
    assert model.shape.Volume == pytest.approx(6000.0, rel=1e-9)
    box = model.shape.BoundBox  # rotated 90 deg about z, then moved 50 along x
    assert (box.XMin, box.XMax, box.YMin, box.YMax) == pytest.approx((30, 50, 0, 10))
    (scored,) = model.summary()["objects"]
    assert scored["document"] == "sib.FCStd" and scored["via"] == "Link->sib.FCStd#"


def test_link_array_counts_each_shown_element(fc, tmp_path):
    doc = fc.newDocument("array")
    brick = _box(doc, "Brick", 10, 10, 10)
    brick.Visibility = False
    link = doc.addObject("App::Link", "Array")
    link.LinkedObject = brick
    link.ElementCount = 3
    doc.recompute()
    for index, element in enumerate(link.ElementList):
        element.Placement = fc.Placement(fc.Vector(20 * index, 0, 0), fc.Rotation())
    link.ElementList[1].Visibility = False
    model = load_model(_save(fc, doc, tmp_path / "array.FCStd"))
    assert model.solids == 2
    assert model.shape.Volume == pytest.approx(2000.0, rel=1e-9)
    assert model.shape.BoundBox.XMax == pytest.approx(50.0)


def test_link_leaving_the_candidate_folder_is_refused(fc, tmp_path):
    sibling = fc.newDocument("outside")
    _box(sibling, "Brick", 10, 10, 10)
    sibling.saveAs(str(tmp_path / "outside.FCStd"))
    (tmp_path / "inner").mkdir()
    doc = _saved(fc, "leaver", tmp_path / "inner" / "leaver.FCStd")
    doc.addObject("App::Link", "Link").LinkedObject = sibling.getObject("Brick")
    path = _save(fc, doc, tmp_path / "inner" / "leaver.FCStd")
    fc.closeDocument(sibling.Name)
    with pytest.raises(DeliveryFailure) as failure:
        load_model(path)
    assert failure.value.reason == "link_outside_folder"
    assert "outside.FCStd" in failure.value.detail


def test_missing_sibling_is_an_unresolved_link_that_says_which(fc, tmp_path):
    sibling = fc.newDocument("gone")
    _box(sibling, "Brick", 10, 10, 10)
    sibling.saveAs(str(tmp_path / "gone.FCStd"))
    doc = _saved(fc, "orphan", tmp_path / "orphan.FCStd")
    doc.addObject("App::Link", "Wheel").LinkedObject = sibling.getObject("Brick")
    path = _save(fc, doc, tmp_path / "orphan.FCStd")
    fc.closeDocument(sibling.Name)
    os.remove(tmp_path / "gone.FCStd")
    with pytest.raises(DeliveryFailure) as failure:
        load_model(path)
    assert failure.value.reason == "unresolved_link"
    assert "'Wheel'" in failure.value.detail and "gone.FCStd" in failure.value.detail


def test_summary_reports_scored_objects_with_exact_volumes(fc, tmp_path):
    import Part

    doc = fc.newDocument("cutdoc2")
    cut = doc.addObject("Part::Cut", "Cut")
    tool = doc.addObject("Part::Cylinder", "Cyl")
    tool.Radius, tool.Height = 5, 10
    cut.Base, cut.Tool = _box(doc, "Box", 10, 10, 10), tool
    cut.Label = "Holed block"
    model = load_model(_save(fc, doc, tmp_path / "cut2.FCStd"))
    expected = 1000 - Part.makeCylinder(5, 10).Volume / 4
    summary = model.summary()
    assert summary["volume"] == pytest.approx(expected, rel=1e-9)
    assert summary["objects"] == [
        {
            "name": "Cut",
            "label": "Holed block",
            "type": "Part::Cut",
            "solids": 1,
            "volume": pytest.approx(expected, rel=1e-9),
        }
    ]


def test_linked_document_code_never_runs(fc, tmp_path, monkeypatch):
    """A sibling document naming a FeaturePython proxy: read as data, its module never runs."""
    import Part

    marker = tmp_path / "pwned"
    (tmp_path / "cadbench_evil_link.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    Part.makeBox(10, 10, 10).exportBrep(str(tmp_path / "PartShape.brp"))
    evil = """<?xml version='1.0' encoding='utf-8'?>
<Document SchemaVersion="4" ProgramVersion="0.19" FileVersion="1">
  <Objects Count="1"><Object type="Part::FeaturePython" name="Evil" id="1"/></Objects>
  <ObjectData Count="1"><Object name="Evil"><Properties Count="2">
    <Property name="Proxy" type="App::PropertyPythonObject">
      <Python value="" encoded="yes" module="cadbench_evil_link" class="Evil"/></Property>
    <Property name="Shape" type="Part::PropertyPartShape"><Part file="PartShape.brp"/></Property>
  </Properties></Object></ObjectData>
</Document>"""
    main = """<?xml version='1.0' encoding='utf-8'?>
<Document SchemaVersion="4" ProgramVersion="0.19" FileVersion="1">
  <Objects Count="1"><Object type="App::Link" name="Link" id="1"/></Objects>
  <ObjectData Count="1"><Object name="Link"><Properties Count="1">
    <Property name="LinkedObject" type="App::PropertyXLink">
      <XLink file="evil.FCStd" stamp="2020-01-01T00:00:00Z" name="Evil"/></Property>
  </Properties></Object></ObjectData>
</Document>"""
    with zipfile.ZipFile(tmp_path / "evil.FCStd", "w") as archive:
        archive.writestr("Document.xml", evil)
        archive.write(tmp_path / "PartShape.brp", "PartShape.brp")
    with zipfile.ZipFile(tmp_path / "main.FCStd", "w") as archive:
        archive.writestr("Document.xml", main)
    model = load_model(str(tmp_path / "main.FCStd"))
    assert model.shape.Volume == pytest.approx(1000.0)
    assert not marker.exists()


def test_link_array_without_element_objects_reads_its_placement_list(fc, tmp_path):
    """ShowElement off: the elements live only in the binary PlacementList and the
    VisibilityList (boost bitset string, first element last)."""
    doc = fc.newDocument("plainarray")
    brick = _box(doc, "Brick", 10, 10, 10)
    brick.Visibility = False
    link = doc.addObject("App::Link", "Array")
    link.LinkedObject = brick
    link.ShowElement = False
    link.ElementCount = 4
    link.PlacementList = [
        fc.Placement(fc.Vector(0, 30 * i, 0), fc.Rotation(fc.Vector(0, 0, 1), 45 * i))
        for i in range(4)
    ]
    link.setElementVisible("3", False)
    model = load_model(_save(fc, doc, tmp_path / "plainarray.FCStd"))
    assert model.solids == 3
    assert model.shape.Volume == pytest.approx(3000.0, rel=1e-9)
    # element 2 is turned 90 deg at y = 60 (y 60..70); the hidden one at y = 90 is left out
    assert model.shape.BoundBox.YMax == pytest.approx(70.0)
