# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reference cases: case.yaml loaded and validated, and the automatic case of a reference."""
