# SPDX-License-Identifier: LGPL-2.1-or-later
"""The workbench's session against the document's undo history, without a window (the
session is FreeCAD App only; the engineer scenario, test_engineer_gui.py, presses Ctrl+Z
in the real GUI): each load is one step, and a load undone is seen as not loaded, also
when the undo gives the reused object the previous file's shape."""

import pytest

from cadbench_wb.errors import UsageError


@pytest.fixture(scope="module")
def boxes(part, tmp_path_factory):
    root = tmp_path_factory.mktemp("session_undo")
    sizes = {"reference": (10, 8, 6), "first": (10.5, 8, 6), "second": (11, 8, 6)}
    paths = {}
    for name, size in sizes.items():
        paths[name] = str(root / f"{name}.step")
        part.makeBox(*size).exportStep(paths[name])
    return paths, {name: a * b * c for name, (a, b, c) in sizes.items()}


def test_each_load_is_one_undo_step_and_an_undone_load_is_not_loaded(fc, boxes):
    from cadbench_wb.gui import session

    paths, volumes = boxes
    doc = fc.newDocument("session_undo")
    try:
        doc.UndoMode = 1
        work = session.Session()
        work.load("reference", paths["reference"])
        work.load("candidate", paths["first"])
        second = work.load("candidate", paths["second"])
        assert list(doc.UndoNames) == ["Load candidate", "Load candidate", "Load reference"]
        assert second.object().Shape.Volume == pytest.approx(volumes["second"], rel=1e-9)

        # The second load reused the Candidate object: undone, it shows the first file
        # again, which the session (holding the second) must not take for its candidate.
        doc.undo()
        shown = doc.getObject("Candidate")
        assert shown.Shape.Volume == pytest.approx(volumes["first"], rel=1e-9)
        assert work.candidate.object() is None and work.undone_roles() == ["candidate"]
        with pytest.raises(UsageError, match="no longer in the document"):
            work.score_job()
        doc.redo()
        assert work.candidate.object().Shape.Volume == pytest.approx(volumes["second"], rel=1e-9)
        assert work.undone_roles() == []
        assert work.score_job().candidate == paths["second"]

        # Back to before the first candidate: no Candidate object at all, then the
        # reference gone too.
        doc.undo()
        doc.undo()
        assert doc.getObject("Candidate") is None and work.undone_roles() == ["candidate"]
        doc.undo()
        assert [o.Name for o in doc.Objects] == []
        assert work.undone_roles() == ["reference", "candidate"]
        with pytest.raises(UsageError, match="the reference reference.step is no longer"):
            work.score_job()
    finally:
        fc.closeDocument(doc.Name)
