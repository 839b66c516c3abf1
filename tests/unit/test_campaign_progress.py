# SPDX-License-Identifier: LGPL-2.1-or-later
"""Progress: a bar with counts, rate and ETA on a terminal; plain lines otherwise."""

import io

from cadbench_wb.campaign.progress import Progress, duration


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_terminal_gets_a_bar_with_counts_rate_and_eta():
    stream, clock = Terminal(), Clock()
    progress = Progress(total=12, from_store=2, to_score=10, stream=stream, clock=clock)
    for delivered in (True, False, None, True):
        clock.now += 15.0
        progress.done(delivered)
    text = stream.getvalue()
    last = text.split("\r")[-1]
    assert last.startswith("[" + "#" * 11 + "-" * 17 + "]")  # 4 of 10
    assert "4/10 scored | 2 from store | 1 failed deliveries | 1 NOT CHECKED" in last
    assert "4.0/min" in last and "ETA 1m30s" in last  # 6 left at 4 per minute
    assert "\n" not in text


def test_a_log_gets_plain_lines_not_carriage_returns():
    stream, clock = io.StringIO(), Clock()
    progress = Progress(total=3, from_store=0, to_score=3, stream=stream, clock=clock)
    for _ in range(3):
        clock.now += 20.0
        progress.done(True)
    progress.finish()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines[0].startswith("progress: 1/3 scored")
    assert any(line.startswith("progress: 3/3 scored") for line in lines)
    assert lines[-1] == "scored 3 in 1m00s, 0 from the store, 3 scorings in the campaign"


def test_durations_read_like_a_person_writes_them():
    assert duration(None) == "--" and duration(42) == "42s"
    assert duration(3725) == "1h02m" and duration(61) == "1m01s"


def test_a_job_that_settles_several_scorings_counts_as_those_scorings():
    """Three deliveries of the same bytes are one job: when it ends the counter moves by
    three, as the summary counts them (it counted jobs: 1/2 scored of 6 scorings)."""
    stream, clock = io.StringIO(), Clock()
    progress = Progress(total=6, from_store=0, to_score=6, stream=stream, clock=clock)
    clock.now += 30.0
    progress.done(True, scorings=3)
    clock.now += 30.0
    progress.done(False, scorings=3)
    progress.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("progress: 3/6 scored | 0 from store | 0 failed deliveries")
    assert "6/6 scored | 0 from store | 3 failed deliveries" in lines[-2]
    assert lines[-1] == "scored 6 in 1m00s, 0 from the store, 6 scorings in the campaign"
