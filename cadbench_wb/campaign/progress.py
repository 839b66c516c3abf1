# SPDX-License-Identifier: LGPL-2.1-or-later
r"""Campaign progress: a bar with counts, rate and ETA on a terminal, plain lines otherwise
(a log file or CI output gets one readable line every few seconds, not a wall of \r)."""

import sys
import time

BAR_WIDTH = 28
TTY_INTERVAL_S = 0.2
LINE_INTERVAL_S = 10.0


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "--"
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    """Counts of a campaign as it goes: total scorings, how many came from the store, and
    of the ones scored now how many were failed deliveries or left NOT CHECKED.

    Every count is of scorings (system x run x case rows), as the summary and the reports
    count them, not of jobs: deliveries of the same bytes are one job (batch.plan) whose
    answer settles all of their scorings at once."""

    def __init__(self, total: int, from_store: int, to_score: int, stream=None, clock=None):
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock or time.monotonic
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total, self.from_store, self.to_score = total, from_store, to_score
        self.scored = self.failed = self.not_checked = 0
        self.started = self.clock()
        self._last = None

    def done(self, delivered: bool | None, scorings: int = 1) -> None:
        """One job finished, which settles that many scorings: delivered True/False, or
        None when left NOT CHECKED."""
        self.scored += scorings
        if delivered is None:
            self.not_checked += scorings
        elif not delivered:
            self.failed += scorings
        self.show()

    def rate_per_minute(self) -> float | None:
        elapsed = self.clock() - self.started
        return 60.0 * self.scored / elapsed if self.scored and elapsed > 0 else None

    def eta(self) -> float | None:
        rate = self.rate_per_minute()
        return 60.0 * (self.to_score - self.scored) / rate if rate else None

    def text(self) -> str:
        rate = self.rate_per_minute()
        parts = [
            f"{self.scored}/{self.to_score} scored",
            f"{self.from_store} from store",
            f"{self.failed} failed deliveries",
            f"{self.not_checked} NOT CHECKED",
            f"{rate:.1f}/min" if rate else "-/min",
            f"ETA {duration(self.eta())}",
        ]
        return " | ".join(parts)

    def show(self, force: bool = False) -> None:
        now = self.clock()
        interval = TTY_INTERVAL_S if self.tty else LINE_INTERVAL_S
        if not force and self._last is not None and now - self._last < interval:
            return
        self._last = now
        if self.tty:
            share = self.scored / self.to_score if self.to_score else 1.0
            filled = int(round(BAR_WIDTH * share))
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            self.stream.write(f"\r[{bar}] {self.text()}\033[K")
        else:
            self.stream.write(f"progress: {self.text()}\n")
        self.stream.flush()

    def finish(self) -> None:
        self.show(force=True)
        if self.tty:
            self.stream.write("\n")
        elapsed = self.clock() - self.started
        self.stream.write(
            f"scored {self.scored} in {duration(elapsed)}, {self.from_store} from the store, "
            f"{self.total} scorings in the campaign\n"
        )
        self.stream.flush()
