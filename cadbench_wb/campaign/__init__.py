# SPDX-License-Identifier: LGPL-2.1-or-later
"""Benchmark campaigns: many systems x runs x cases, scored in reused worker processes or on
a Dask cluster, kept in a store that survives a kill, reported with verdicts and ranges.

Pure at module level (standard library, numpy, matplotlib, dask): FreeCAD is imported only
by the scoring children (worker_process.py). See docs/campaigns.md.
"""
