# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reading untrusted files before any work: formats, limits, archives, FCStd data (pure)."""
