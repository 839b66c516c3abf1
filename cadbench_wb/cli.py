# SPDX-License-Identifier: LGPL-2.1-or-later
"""The ``cadbench`` command: parse, call the core, print. One module per sub-command in
cadbench_wb/commands/, each with HELP, add_arguments(parser) and run(args) -> exit status,
registered in commands/registry.py; heavy imports happen inside run() so ``--help`` is
instant."""

import argparse
import os
import sys

from cadbench_wb import __version__
from cadbench_wb.commands import registry as command_registry
from cadbench_wb.errors import CadbenchError
from cadbench_wb.runtime import console


def parser_with_commands(chosen: str | None = None) -> tuple[argparse.ArgumentParser, dict]:
    """The parser and the command modules by name; with chosen (the command a command line
    names), that command's parser alone (command_registry.add_parsers)."""
    parser = argparse.ArgumentParser(
        prog="cadbench",
        description="Score a reconstructed CAD model against its reference.",
    )
    parser.add_argument("--version", action="version", version=f"cadbench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = command_registry.add_parsers(sub, chosen)
    return parser, modules


def _named_command(argv: list[str] | None) -> str | None:
    """The command a command line names: its first word, unless that is an option (--help
    and --version list or name every command)."""
    words = sys.argv[1:] if argv is None else argv
    return words[0] if words and not words[0].startswith("-") else None


def main(argv: list[str] | None = None) -> int:
    console.utf8_stdio()
    try:
        return _main(argv)
    finally:
        console.flush_all()  # freecadcmd 1.0 drops what is still buffered at exit


def _main(argv: list[str] | None) -> int:
    parser, modules = parser_with_commands(_named_command(argv))
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        # With `--json -` stdout carries the JSON alone: FreeCAD's progress goes to stderr.
        with console.stdout_for_result_only(getattr(args, "json", None) == "-"):
            return modules[args.command].run(args)
    except CadbenchError as exc:
        print(f"cadbench {args.command}: {exc.one_line()}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(f"cadbench {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # one readable line, never a traceback, for the operator
        print(
            f"cadbench {args.command}: internal_error: {type(exc).__name__}: {exc}", file=sys.stderr
        )
        return 3


def run_and_exit(argv: list[str]) -> None:
    """For freecadcmd -c: run a command and end the process with its exit status (main()
    only returns it), output flushed first; os._exit also skips FreeCAD's own teardown,
    where a crash would replace the status."""
    status = main(argv)
    os._exit(status if isinstance(status, int) else 3)


if __name__ == "__main__":
    sys.exit(main())
