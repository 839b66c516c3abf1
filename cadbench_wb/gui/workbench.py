# SPDX-License-Identifier: LGPL-2.1-or-later
"""Workbench set-up: commands are registered lazily when the workbench is first activated."""

COMMANDS: list[str] = []


def initialize(workbench) -> None:
    if COMMANDS:
        workbench.appendToolbar("cadbench", COMMANDS)
        workbench.appendMenu("cadbench", COMMANDS)


def activated(workbench) -> None:
    pass


def deactivated(workbench) -> None:
    pass
