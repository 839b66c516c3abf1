# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read-only tables filled from panel_model rows, and their contents read back (the GUI
tests assert on what the table really shows, colours included)."""

from cadbench_wb.gui import panel_model
from cadbench_wb.gui.qt import Qt, QtGui, QtWidgets, translate

ROW_ROLE = Qt.ItemDataRole.UserRole


def new_table(columns, parent=None, stretch_last: bool = True):
    table = QtWidgets.QTableWidget(0, len(columns), parent)
    table.setHorizontalHeaderLabels([translate("CadBench", c) for c in columns])
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(False)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(stretch_last)
    return table


def fill(table, rows: list, colour_columns=None, translate_cells=(0,)) -> None:
    """Put rows (panel_model.Row) into table; the state colours colour_columns (all cells
    when None), a cell with a state of its own (Row.cell_states) is coloured by it, and the
    tooltip goes on every cell."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        cell_states = getattr(row, "cell_states", {})
        for c, text in enumerate(row.cells):
            shown = translate("CadBench", str(text)) if c in translate_cells else str(text)
            item = QtWidgets.QTableWidgetItem(shown)
            if row.tooltip:
                item.setToolTip(row.tooltip)
            colour = row.colour_of(c) if hasattr(row, "colour_of") else row.colour
            if colour and (colour_columns is None or c in colour_columns or c in cell_states):
                item.setBackground(QtGui.QBrush(QtGui.QColor(colour)))
                item.setForeground(QtGui.QBrush(QtGui.QColor("#000000")))
            item.setData(ROW_ROLE, r)
            table.setItem(r, c, item)
    table.resizeRowsToContents()


def fit_width(table, stretch_column: int = 0) -> None:
    """One column takes the width left over; no horizontal scroll bar (short tables)."""
    header = table.horizontalHeader()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(stretch_column, QtWidgets.QHeaderView.ResizeMode.Stretch)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def fit_height(table, max_rows: int = 12) -> None:
    """Size a short table to its rows, so it needs no scroll bar of its own."""
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    rows = min(table.rowCount(), max_rows)
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
    height += sum(table.rowHeight(r) for r in range(rows)) if rows else 0
    table.setMinimumHeight(height)
    table.setMaximumHeight(height)


def contents(table) -> list[dict]:
    """What the table shows: per row its cells, colour (background of the first coloured
    cell: the row's state), each cell's colour and the tooltip."""
    out = []
    for r in range(table.rowCount()):
        cells, colours, tip = [], [], ""
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is None:
                cells.append("")
                colours.append(None)
                continue
            cells.append(item.text())
            brush = item.background()
            colours.append(brush.color().name() if brush.style() != Qt.BrushStyle.NoBrush else None)
            tip = tip or item.toolTip()
        colour = next((x for x in colours if x), None)
        out.append({"cells": cells, "colour": colour, "cell_colours": colours, "tooltip": tip})
    return out


def state_colour(state: str) -> str | None:
    return panel_model.COLOURS.get(state)
