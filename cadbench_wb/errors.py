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
    # FCStd archives, checked before extraction (inputs/fcstd_archive.py): encrypted, a compression
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
    # A campaign's candidate that is a symlink resolving outside its system's own folder (to
    # a case's reference, or to another system's file): refused unread (campaign/layout.py).
    "link_outside_submissions",
    # The candidate exhausted the scorer's limits: its time, or its memory (the limit named).
    "timeout",
    "memory",
    "evaluator_error",
    # A submitted script (code/): it does not compile, raises (its last error line given),
    # runs out of its time or memory, leaves no model, or leaves one with no solid.
    "code_syntax_error",
    "code_runtime_error",
    "code_timeout",
    "code_memory",
    "no_result",
    "result_not_solid",
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


class ReferenceOpenShell(ReferenceInvalid):
    """The reference holds faces but no closed solid, and sewing them (app/model/loading.py)
    does not close them: no volume to score a candidate's against."""

    reason = "reference_open_shell"


class UsageError(CadbenchError):
    """The command line or an input file given by the operator is wrong."""

    reason = "usage_error"
    exit_status = 2


class CaseInvalid(UsageError):
    """A case.yaml that breaks the case format (the message names file, line and field)."""

    reason = "case_invalid"


class CampaignBusy(UsageError):
    """Another `cadbench run` holds the campaign folder's lock: two runs on one --out would
    both do all the work and race on its reports."""

    reason = "campaign_busy"


class OutputUnwritable(UsageError):
    """The output folder cannot be written (a full disk, a quota, a file-size limit, a
    read-only file system): named with the folder, never an internal error. What was
    committed before stays (a campaign's store commits each finished score)."""

    reason = "output_unwritable"


class FreeCADUnavailable(CadbenchError):
    """FreeCAD's library could not be found or imported."""

    reason = "freecad_unavailable"
    exit_status = 5


class EnvironmentBroken(CadbenchError):
    """The scorer's own FreeCAD kernel is broken (its self-test fails, or it crashes on the
    reference scored against itself): nobody's candidate is to blame."""

    reason = "environment_broken"
    exit_status = 8


class SandboxUnavailable(CadbenchError):
    """A code submission, and no OS sandbox (or no environment for its dialect) to run it
    in: the operator's machine lacks it, nobody's candidate is to blame (--trust-code runs
    scripts without one)."""

    reason = "sandbox_unavailable"
    exit_status = 5


class WorkerLost(CadbenchError):
    """The scoring process ended for reasons that are not the candidate's doing."""

    reason = "worker_lost"
    exit_status = 6


class CandidateChanged(CadbenchError):
    """The candidate's bytes changed while it was scored (the hash taken is not that of
    what was read): nothing is reported or stored for it; scoring it again is safe."""

    reason = "candidate_changed"
    exit_status = 6


# Exit statuses, one owner: the CLI ends with the status of the error it reports, and an
# error a child process reports by its reason is rebuilt as the same class (error_of).
EXIT_OK = 0
EXIT_FAILED = 1  # a command's own verdict is negative (demo mismatch, --fail-under)
ERROR_CLASSES = (
    CadbenchError,
    UsageError,
    ReferenceInvalid,
    ReferenceOpenShell,
    FreeCADUnavailable,
    WorkerLost,
    EnvironmentBroken,
    SandboxUnavailable,
    CandidateChanged,
)
EXIT_STATUS = {cls.reason: cls.exit_status for cls in ERROR_CLASSES}
# Reasons of the operator's own inputs (the case file), beside usage_error: exit 2.
EXIT_STATUS.update({"case_invalid": UsageError.exit_status})
EXIT_STATUS[CampaignBusy.reason] = CampaignBusy.exit_status
EXIT_STATUS[OutputUnwritable.reason] = OutputUnwritable.exit_status
EXIT_INCOMPLETE = WorkerLost.exit_status  # a campaign left scorings NOT CHECKED


def exit_status_of(reason: str) -> int:
    """The exit status a failure with this reason ends a command with (3 when unknown)."""
    return EXIT_STATUS.get(reason, CadbenchError.exit_status)


def error_of(reason: str, detail: str) -> CadbenchError:
    """The error a child reported as {reason, detail}, as the class that owns its status."""
    if reason in DELIVERY_REASONS:
        return DeliveryFailure(reason, detail)
    for cls in ERROR_CLASSES[1:]:
        if cls.reason == reason:
            return cls(detail)
    error = CadbenchError(detail, reason)
    error.exit_status = exit_status_of(reason)
    return error
