# SPDX-License-Identifier: LGPL-2.1-or-later
"""The format table (inputs/formats.py): which extensions are read as which format, and each
format's sniff on bytes written here by hand. Pure: no FreeCAD."""

import ast
import os
import zipfile

import pytest
from conftest import ROOT

from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import formats

# The formats the README promises ("What is scored", **Formats**), by extension.
READ = {
    ".fcstd": "fcstd",
    ".step": "step",
    ".stp": "step",
    ".brep": "brep",
    ".brp": "brep",
    ".iges": "iges",
    ".igs": "iges",
    ".stl": "stl",
    ".obj": "obj",
}


def test_the_table_reads_each_extension_as_its_format():
    assert formats.FORMATS == READ
    assert formats.MESH_FORMATS == ("stl", "obj")
    assert set(formats.BY_NAME) == set(READ.values())


def test_the_readme_names_every_format_of_the_table():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        line = next(t for t in handle if t.startswith("- **Formats**"))
    for name in formats.BY_NAME:
        assert name in line.lower(), name


def _written(tmp_path, name, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _fcstd(tmp_path, name, members):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member in members:
            archive.writestr(member, "<Document/>")
    return str(path)


def _binary_stl(triangles: int, extra: int = 0) -> bytes:
    return b"\0" * 80 + triangles.to_bytes(4, "little") + b"\0" * (50 * triangles + extra)


GOOD = {
    "a.step": b"\xef\xbb\xbf  ISO-10303-21;\nHEADER;\n",
    "a.stp": b"iso-10303-21;\n",
    "a.brep": b"DBRep_DrawableShape\n\nCASCADE Topology V1, (c) Matra-Datavision\n",
    "a.iges": b"written by hand".ljust(72) + b"S      1\n",  # an IGES start line: 80 columns
    "a.stl": b"solid box\nendsolid box\n",
    "b.stl": _binary_stl(2),
    "a.obj": b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
}
BAD = {
    "a.step": (b"HEADER;\n", "does not start with ISO-10303-21: not a STEP file"),
    "a.brep": (b"DBRep\n", "no 'CASCADE Topology' header: not an OpenCASCADE BREP file"),
    "a.igs": (b"S      1\n", "too short for an IGES file"),
    "a.stl": (b"facet normal 0 0 1\n", "neither ASCII STL ('solid ...') nor a binary STL"),
    "b.stl": (_binary_stl(0), "binary STL with no triangles"),
    "c.stl": (_binary_stl(2, extra=1), "neither ASCII STL ('solid ...') nor a binary STL"),
    "a.obj": (b"v 0 0 0\n\x00\x01", "binary data in a Wavefront OBJ (a text format)"),
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_a_file_that_looks_right_passes_its_sniff(tmp_path, name):
    path = _written(tmp_path, name, GOOD[name])
    assert formats.checked_format(path) == READ[os.path.splitext(name)[1]]


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_file_of_the_wrong_kind_is_unreadable_by_name(tmp_path, name):
    data, reason = BAD[name]
    with pytest.raises(DeliveryFailure) as caught:
        formats.checked_format(_written(tmp_path, name, data))
    assert caught.value.reason == "unreadable_file"
    assert reason in caught.value.detail


def test_an_fcstd_is_a_zip_archive_with_document_xml(tmp_path):
    assert formats.checked_format(_fcstd(tmp_path, "a.FCStd", ["Document.xml"])) == "fcstd"
    for path, reason in (
        (_fcstd(tmp_path, "b.FCStd", ["GuiDocument.xml"]), "zip archive without Document.xml"),
        (_written(tmp_path, "c.FCStd", b"<Document/>"), "an FCStd is a zip archive"),
    ):
        with pytest.raises(DeliveryFailure) as caught:
            formats.checked_format(path)
        assert (caught.value.reason, reason in caught.value.detail) == ("unreadable_file", True)


@pytest.mark.parametrize(
    "name,data,reason",
    [
        ("model.3mf", b"PK", "unsupported_format"),
        ("model", b"ISO-10303-21;", "unsupported_format"),
        ("empty.step", b"", "empty_file"),
    ],
)
def test_named_refusals_before_any_sniff(tmp_path, name, data, reason):
    with pytest.raises(DeliveryFailure) as caught:
        formats.checked_format(_written(tmp_path, name, data))
    assert caught.value.reason == reason


def test_a_missing_file_is_a_missing_candidate(tmp_path):
    with pytest.raises(DeliveryFailure) as caught:
        formats.checked_format(str(tmp_path / "absent.step"))
    assert caught.value.reason == "missing_candidate"


def test_the_workbench_open_dialog_lists_every_extension_of_the_table():
    """gui/commands.py (which needs FreeCADGui, so read here as source) keeps its own filter
    string for Qt's file dialog: a format added to the table must be added there too."""
    path = os.path.join(ROOT, "cadbench_wb", "gui", "commands.py")
    tree = ast.parse(open(path, encoding="utf-8").read())
    (shown,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["MODEL_FILTER"]
    ]
    patterns = {p.lower() for p in shown[shown.index("(") + 1 : shown.rindex(")")].split()}
    assert patterns >= {f"*{extension}" for extension in formats.FORMATS}
