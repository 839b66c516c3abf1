# SPDX-License-Identifier: LGPL-2.1-or-later
"""When a scoring draws ahead in a process of its own: not when as many scorings as cores
run at once (campaigns, the demo), unless the environment says otherwise. Pure."""

import pytest

from cadbench_wb.runtime import runner


def test_as_many_scorings_as_cores_keep_every_stage_in_the_scoring_process():
    cores = runner.cores()
    assert cores >= 1
    env = runner.stages_serial_when_saturated({"A": "1"}, cores)
    assert env == {"A": "1", runner.SERIAL_STAGES: "1"}


def test_fewer_scorings_than_cores_leave_the_environment_as_it_is():
    if runner.cores() < 2:
        pytest.skip("one core: one scoring already saturates it")
    env = {"A": "1"}
    assert runner.stages_serial_when_saturated(env, runner.cores() - 1) == env


def test_an_explicit_choice_is_kept():
    env = {runner.SERIAL_STAGES: "0"}
    assert runner.stages_serial_when_saturated(env, runner.cores() + 4) == env
