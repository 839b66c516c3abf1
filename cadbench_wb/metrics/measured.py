# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a metric's measure returns: its value, what its verdict is built from, its outputs.

A measure (registry.Metric.measure) reads the scoring's facts and returns one Measured; it
writes nothing into the result. The orchestrator (app/scoring.py) writes the value under the
metric's name and each output under its key, refusing a key the registry line does not
declare, and builds the verdict through metrics/verdicts.py from the verdict inputs here, so
every metric's verdict has the same form.
"""

import dataclasses
import types
from collections.abc import Mapping

# The verdict judges the metric's own value (Measured.judged's default).
VALUE = "value"


@dataclasses.dataclass(frozen=True)
class Measured:
    """One metric's measurement.

    value: the metric's figure (None: it could not be evaluated, NOT CHECKED);
    outputs: {declared output key: its value} (registry.Metric.outputs);
    reason: the verdict's reason ("": verdicts.verdict's own, from the value and threshold);
    reason_detail: appended to that reason (counts, the spectrum used);
    ceiling: the case's own maximum of this metric (seed 000's passed reachable), or None;
    note: the verdict's note, or None;
    judged: the figure the verdict judges when it is not value (automatic dimension targets
    judge the located recall, with seed 000's value beside it).
    """

    value: float | None
    outputs: Mapping = dataclasses.field(default_factory=dict)
    reason: str = ""
    reason_detail: str = ""
    ceiling: float | None = None
    note: str | None = None
    judged: float | None | str = VALUE

    def __post_init__(self):
        # Read-only: the orchestrator writes these, nobody changes them on the way.
        object.__setattr__(self, "outputs", types.MappingProxyType(dict(self.outputs)))

    @property
    def judged_value(self) -> float | None:
        """The figure the verdict judges."""
        return self.value if self.judged == VALUE else self.judged
