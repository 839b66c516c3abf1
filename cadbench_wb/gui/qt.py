# SPDX-License-Identifier: LGPL-2.1-or-later
"""Qt through FreeCAD's PySide shim, for FreeCAD 0.20 (PySide2) and 1.x (PySide6) alike.

FreeCAD 0.20's shim has no ``PySide.QtWidgets``: its ``QtGui`` re-exports the widgets.
Every GUI module takes Qt from here, so that difference and the exec/exec_ rename live in
one place.
"""

from PySide import QtCore, QtGui

try:
    from PySide import QtWidgets
except ImportError:  # FreeCAD 0.20: widgets live in the shim's QtGui
    QtWidgets = QtGui

Signal = QtCore.Signal
Qt = QtCore.Qt
# QAction moved from QtWidgets (Qt5) to QtGui (Qt6); FreeCAD 0.20's shim has it in QtGui.
QAction = getattr(QtGui, "QAction", None) or QtWidgets.QAction

__all__ = [
    "QAction", "QtCore", "QtGui", "QtWidgets", "Qt", "Signal", "exec_modal", "right_dock",
    "translate",
]  # fmt: skip


def exec_modal(dialog_or_menu, *args):
    """Run a dialog or menu modally: ``exec`` on PySide6, ``exec_`` on PySide2."""
    runner = getattr(dialog_or_menu, "exec", None) or dialog_or_menu.exec_
    return runner(*args)


def translate(context: str, text: str) -> str:
    """FreeCAD's translation of a user-visible string (the text itself when untranslated)."""
    import FreeCAD  # noqa: PLC0415 - the GUI runs inside FreeCAD

    return FreeCAD.Qt.translate(context, text)


def right_dock(name: str, title: str, make_panel, min_width: int, create: bool = True):
    """FreeCAD's dock widget called name, made on first use on the right of the main window
    with make_panel(dock) inside; None when it does not exist and create is False."""
    import FreeCADGui  # noqa: PLC0415 - the GUI runs inside FreeCAD

    mw = FreeCADGui.getMainWindow()
    found = mw.findChild(QtWidgets.QDockWidget, name)
    if found is not None or not create:
        return found
    widget = QtWidgets.QDockWidget(title, mw)
    widget.setObjectName(name)
    widget.setWidget(make_panel(widget))
    widget.setMinimumWidth(min_width)
    mw.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, widget)
    return widget
