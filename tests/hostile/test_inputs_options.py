# SPDX-License-Identifier: LGPL-2.1-or-later
"""Options validated at the command line (argparse types in inputs/checks.py): a time
limit that is not a finite positive number, a memory limit below what numpy and FreeCAD
need to import, a Dask address with an unknown scheme: each a usage error (exit 2) with
a message, never a traceback, a reference blamed or a scoring started."""

import argparse

import pytest
from inputs_support import cli

from cadbench_wb import standard
from cadbench_wb.inputs import checks as input_checks

BAD_TIMEOUTS = ["nan", "-1", "inf", "0", "-inf", "soon"]
COMMANDS = {
    "score": ("score", "a.step", "b.step"),
    "run": ("run", "--submissions", "nowhere", "--out", "nowhere"),
    "demo": ("demo",),
}


def _usage_error(args, option, words):
    status, out, err = cli(*args)
    assert status == 2 and "Traceback" not in err, err
    assert f"error: argument {option}: " in err and words in err, err
    assert out == b""


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("value", BAD_TIMEOUTS)
def test_a_meaningless_timeout_is_a_usage_error(command, value):
    _usage_error((*COMMANDS[command], f"--timeout={value}"), "--timeout", "a finite number above 0")


@pytest.mark.parametrize("command", ["score", "run"])
def test_too_little_memory_is_a_usage_error_that_names_the_minimum(command):
    below = str(standard.MIN_MEMORY_MB - 1)
    _usage_error(
        (*COMMANDS[command], "--memory-mb", below),
        "--memory-mb",
        f"at least {standard.MIN_MEMORY_MB} MB",
    )


def test_memory_limits_at_their_boundaries():
    assert input_checks.memory_megabytes(str(standard.MIN_MEMORY_MB)) == standard.MIN_MEMORY_MB
    assert input_checks.memory_megabytes(str(standard.MAX_MEMORY_MB)) == standard.MAX_MEMORY_MB
    too_much = str(standard.MAX_MEMORY_MB + 1)
    for text in (str(standard.MIN_MEMORY_MB - 1), "0", "-5", "1e3", "lots", too_much):
        with pytest.raises(argparse.ArgumentTypeError):
            input_checks.memory_megabytes(text)


def test_timeout_accepts_finite_numbers_from_the_scorers_start_up_to_a_week():
    shortest = standard.MIN_TIMEOUT_S
    assert input_checks.timeout_seconds(str(shortest)) == shortest
    for text in (str(shortest - 0.01), "0.5"):  # 0.5 s ran out in the child's start (exit 8)
        with pytest.raises(argparse.ArgumentTypeError, match=f"at least {shortest} s"):
            input_checks.timeout_seconds(text)
    longest = standard.MAX_TIMEOUT_S
    assert input_checks.timeout_seconds(str(longest)) == longest
    for text in (str(longest + 1), "1e300"):  # 1e300 overflowed RLIMIT_CPU (exit 3)
        with pytest.raises(argparse.ArgumentTypeError, match="at most"):
            input_checks.timeout_seconds(text)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_timeout_shorter_than_the_scorers_start_is_a_usage_error(command):
    _usage_error((*COMMANDS[command], "--timeout", "0.5"), "--timeout", "at least")


def test_a_timeout_past_the_limit_is_a_usage_error():
    _usage_error((*COMMANDS["score"], "--timeout", "1e300"), "--timeout", "at most")


@pytest.mark.parametrize("address", ["foo://10.0.0.5:8786", "http://host:8786", "tcp://"])
def test_a_dask_address_with_an_unknown_scheme_is_a_usage_error(address):
    _usage_error((*COMMANDS["run"], "--scheduler", address), "--scheduler", address)


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "tls://head:8786", "head:8786"])
def test_dask_addresses_dask_can_connect_to_pass(address):
    assert input_checks.dask_address(address) == address


@pytest.mark.parametrize(
    "args",
    [("score", "a.step", "b.step"), ("dxf-check", "a.dxf"), ("drawing", "a.step", "--out", "d")],
)
def test_a_json_path_that_cannot_be_written_is_refused_before_any_work(args, tmp_path):
    missing = str(tmp_path / "no_such_folder" / "result.json")
    _usage_error((*args, "--json", missing), "--json", "no folder")
    _usage_error((*args, "--json", str(tmp_path)), "--json", "is a folder")
