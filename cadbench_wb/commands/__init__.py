# SPDX-License-Identifier: LGPL-2.1-or-later
"""One module per ``cadbench`` sub-command (see cli.py)."""
