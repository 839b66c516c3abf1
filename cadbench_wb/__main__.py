# SPDX-License-Identifier: LGPL-2.1-or-later
"""``python -m cadbench_wb`` is the ``cadbench`` command."""

from cadbench_wb.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
