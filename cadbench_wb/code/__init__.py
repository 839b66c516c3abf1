# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generated CAD code as a submission: run in an OS sandbox, its model kept and scored."""
