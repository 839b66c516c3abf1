# SPDX-License-Identifier: LGPL-2.1-or-later
"""What differs between FreeCAD 0.20 and 1.0 in the calls cadbench makes, each found by
looking at the object in hand (never by the version number alone)."""

_ASYNCHRONOUS_HLR = []  # set once a view came back from recompute() without its edges


def attach(obj, support) -> None:
    """Attach a sketch or datum to (object, [sub-elements]): the property is
    `AttachmentSupport` in FreeCAD 1.0 and `Support` before."""
    name = "AttachmentSupport" if "AttachmentSupport" in obj.PropertiesList else "Support"
    setattr(obj, name, support)


def projects_in_background() -> bool:
    """Whether this process has seen TechDraw project in the background (FreeCAD 1.0)."""
    return bool(_ASYNCHRONOUS_HLR)


def finished_views(views) -> None:
    """Return once TechDraw has finished the hidden-line work of these views.

    FreeCAD 0.20 projects during recompute(); TechDraw 1.0 projects in Qt's thread pool and
    a view has no edges (and viewPartAsSvg segfaults) until Qt delivers the result. A view
    of a solid without a single visible edge is that case: from then on this process lets
    Qt's event loop run after every recompute (a later recompute keeps the old edges until
    the new ones are delivered, so emptiness is only the first sign)."""
    views = [view for view in views if getattr(view, "Source", None)]
    if not _ASYNCHRONOUS_HLR and all(view.getVisibleEdges() for view in views):
        return
    _ASYNCHRONOUS_HLR.append(True)
    from cadbench_wb.gui import event_loop  # noqa: PLC0415 - QtCore only, see its docstring

    event_loop.finish_background_work()
