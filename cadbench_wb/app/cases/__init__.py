# SPDX-License-Identifier: LGPL-2.1-or-later
"""Case builders: generated references and sample candidates, build and verify (see README.md)."""
