# SPDX-License-Identifier: LGPL-2.1-or-later
"""One exception type per failure family; each carries the reason code the JSON reports."""

# Reasons a candidate was not delivered in scorable form. Each one forces every metric
# to 0 and ``delivered: false`` (seed 001: a file must not escape a FAIL by breaking the
# scorer, so timeouts and kernel crashes on a candidate count against the candidate).
DELIVERY_REASONS = (
    "missing_candidate",
    "empty_file",
    "unreadable_file",
    "unsupported_format",
    # FCStd archives, checked before extraction (fcstd_archive.py): encrypted, a compression
    # FreeCAD cannot read or an insane member name; a member Document.xml names that the
    # zip lacks; more members or more inflated bytes than standard.py allows.
    "unsupported_archive",
    "archive_member_missing",
    "too_large",
    "empty_model",
    "no_solid",
    "invalid_solid",
    # FCStd links: a link whose document or object is not there (and nothing else is
    # shown), or a link naming a document outside the candidate's own folder (refused).
    "unresolved_link",
    "link_outside_folder",
    "timeout",
    "evaluator_error",
)


class CadbenchError(Exception):
    """Base of every error cadbench reports as one readable line."""

    reason = "internal_error"
    exit_status = 3

    def __init__(self, detail: str, reason: str | None = None):
        super().__init__(detail)
        self.detail = detail
        if reason is not None:
            self.reason = reason

    def one_line(self) -> str:
        return f"{self.reason}: {self.detail}"


class DeliveryFailure(CadbenchError):
    """The candidate cannot be scored; the result says why and scores it 0."""

    def __init__(self, reason: str, detail: str):
        if reason not in DELIVERY_REASONS:
            raise ValueError(f"unknown delivery reason {reason!r}")
        super().__init__(detail, reason)


class ReferenceInvalid(CadbenchError):
    """The reference is broken: the benchmark's fault, never the candidate's."""

    reason = "reference_invalid"
    exit_status = 4


class UsageError(CadbenchError):
    """The command line or an input file given by the operator is wrong."""

    reason = "usage_error"
    exit_status = 2


class FreeCADUnavailable(CadbenchError):
    """FreeCAD's library could not be found or imported."""

    reason = "freecad_unavailable"
    exit_status = 5


class EnvironmentBroken(CadbenchError):
    """The scorer's own FreeCAD kernel is broken (its self-test fails, or it crashes on the
    reference scored against itself): nobody's candidate is to blame."""

    reason = "environment_broken"
    exit_status = 8


class WorkerLost(CadbenchError):
    """The scoring process ended for reasons that are not the candidate's doing."""

    reason = "worker_lost"
    exit_status = 6
