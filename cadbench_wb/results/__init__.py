# SPDX-License-Identifier: LGPL-2.1-or-later
"""The score result: its assembly and JSON, its readable summary, and the stamps that seal it."""
