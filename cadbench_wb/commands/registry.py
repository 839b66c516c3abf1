# SPDX-License-Identifier: LGPL-2.1-or-later
"""The ``cadbench`` sub-commands, registered as ezdxf's commands.py registers its launcher's:
one module per command, with HELP, add_arguments(parser) and run(args) -> exit status, its
heavy imports inside run() so ``--help`` stays instant.

COMMANDS holds the modules themselves, not their names, in the order ``--help`` lists them:
a module that is missing or renamed fails this import, never a command quietly left out,
and tests/unit/test_cli.py checks that every module of this package is in it. Adding a
command: its module in this package, imported here, and its place in COMMANDS.
"""

from types import ModuleType

from cadbench_wb.commands import (
    case,
    compare,
    demo,
    drawing,
    drawing_score,
    dxf_check,
    info,
    isolate,
    run,
    score,
)

COMMANDS = (score, case, demo, drawing, dxf_check, drawing_score, run, compare, isolate, info)


def command_name(module: ModuleType) -> str:
    """The command a module runs: its name with '-' for '_' (dxf_check: dxf-check)."""
    return module.__name__.rpartition(".")[2].replace("_", "-")


def add_parsers(subparsers, chosen: str | None = None) -> dict[str, ModuleType]:
    """Each command's parser, added to subparsers in the order of COMMANDS; the modules by
    command name. With chosen (a registered command's name), that command's alone: a
    command line that names its command parses as it would with all of them, and builds
    no parser it does not use (the ten parsers and their ~50 gettext look-ups were 0.01-0.02
    CPU-s of every `cadbench score`)."""
    modules = {}
    names = {command_name(module) for module in COMMANDS}
    for module in COMMANDS:
        name = command_name(module)
        if chosen in names and name != chosen:
            continue
        parser = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(parser)
        modules[name] = module
    return modules
