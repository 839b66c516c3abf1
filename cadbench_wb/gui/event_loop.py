# SPDX-License-Identifier: LGPL-2.1-or-later
"""Qt's event loop for headless TechDraw: FreeCAD 1.0 computes hidden lines (and then the
faces) in Qt's global thread pool and takes the result only when Qt delivers the finished
signal, which needs a QCoreApplication processing events; plain Python has none.

The one module of this package the FreeCAD layer calls (app/model/kernel_compat.py), and only
once it has seen a view come back empty: QtCore alone, through FreeCAD's PySide shim, no
FreeCADGui, no display.
"""

import locale

MAX_ROUNDS = 100  # hidden lines, then faces, then dimensions: a few rounds in practice

_APPLICATION = []  # the QCoreApplication made here, kept alive for the process


def qt_application():
    """The process's QCoreApplication, made here once when there is none (a child running
    FreeCAD without its GUI: TechDraw 1.0 and Inspection wait for their threads in a Qt
    event loop)."""
    from PySide import QtCore  # noqa: PLC0415 - only ever needed when Qt is

    application = QtCore.QCoreApplication.instance()
    if application is None:
        # Qt's constructor runs setlocale(LC_ALL, "") on the C level environment, where
        # FreeCAD 1.0 has set LANG=C: Python would then read and write ASCII (subprocess
        # output, open()). Put the process's locale back as it was.
        saved = locale.setlocale(locale.LC_ALL)
        application = QtCore.QCoreApplication([])
        locale.setlocale(locale.LC_ALL, saved)
        _APPLICATION.append(application)
    return application


def finish_background_work() -> None:
    """Wait for every task in Qt's global thread pool and deliver what they posted, until
    a round starts no new task."""
    from PySide import QtCore  # noqa: PLC0415 - only ever needed on FreeCAD 1.x

    application = qt_application()
    pool = QtCore.QThreadPool.globalInstance()
    for _round in range(MAX_ROUNDS):
        pool.waitForDone()
        QtCore.QCoreApplication.sendPostedEvents()
        application.processEvents()
        if pool.activeThreadCount() == 0:
            break
