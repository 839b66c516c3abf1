# SPDX-License-Identifier: LGPL-2.1-or-later
"""The command registry (commands/registry.py): every command module is registered, listed
by --help in its order, documented in the README's command table, and a missing module is
an error, never a command quietly left out. Pure: no FreeCAD."""

import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT, copy_package

from cadbench_wb import cli
from cadbench_wb.commands import registry

COMMANDS_DIR = os.path.dirname(os.path.abspath(registry.__file__))
# The order `cadbench --help` has listed the commands in since they were written: the
# registry must keep it (issue 28: --help text unchanged).
HELP_ORDER = (
    "score",
    "case",
    "demo",
    "drawing",
    "dxf-check",
    "drawing-score",
    "run",
    "compare",
    "isolate",
    "info",
)


def _command_modules():
    """The module names in commands/ that are commands (all but the package and registry)."""
    names = [f[:-3] for f in os.listdir(COMMANDS_DIR) if f.endswith(".py")]
    return sorted(n for n in names if n not in ("__init__", "registry"))


def _readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        return handle.read()


def test_every_module_of_the_commands_package_is_registered_once():
    registered = [m.__name__.rpartition(".")[2] for m in registry.COMMANDS]
    assert sorted(registered) == _command_modules()
    assert len(set(registered)) == len(registered)


def test_every_registered_command_has_the_three_parts():
    for module in registry.COMMANDS:
        assert isinstance(module.HELP, str) and module.HELP, module.__name__
        assert callable(module.add_arguments) and callable(module.run), module.__name__


def test_help_lists_every_registered_command_in_the_registry_order():
    parser, modules = cli.parser_with_commands()
    assert tuple(modules) == tuple(registry.command_name(m) for m in registry.COMMANDS)
    assert tuple(modules) == HELP_ORDER
    listed = re.findall(r"^    (\S+)\s", parser.format_help(), flags=re.MULTILINE)
    assert tuple(listed) == HELP_ORDER
    shown = " ".join(parser.format_help().split())  # as wrapped to the terminal, unwrapped
    for name, module in modules.items():
        assert " ".join(module.HELP.split()) in shown, name


def _help_of(parser, argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit):
        parser.parse_args(argv)
    return capsys.readouterr().out


def test_a_named_command_gets_its_own_parser_alone_and_the_same_one(capsys):
    """cli builds the parser of the command a line names alone (start-up cost): it must
    parse and print exactly as the parser with every command does."""
    full, _ = cli.parser_with_commands()
    for module in registry.COMMANDS:
        name = registry.command_name(module)
        alone, modules = cli.parser_with_commands(name)
        assert modules == {name: module}
        assert _help_of(alone, [name, "--help"], capsys) == _help_of(full, [name, "--help"], capsys)
    assert cli._named_command(["score", "a.step", "b.step"]) == "score"
    for words in (["--help"], ["--version"], ["-h", "score"], []):
        assert cli._named_command(words) is None  # these list or name every command
    unknown, modules = cli.parser_with_commands("no-such-command")
    assert tuple(modules) == HELP_ORDER  # its error lists every command, as before


def test_help_imports_no_kernel_and_no_heavy_library():
    code = (
        "import sys\n"
        "from cadbench_wb import cli\n"
        "parser, _ = cli.parser_with_commands()\n"
        "parser.format_help()\n"
        "heavy = ('FreeCAD', 'Part', 'numpy', 'scipy', 'ezdxf', 'yaml', 'PySide2', 'dask')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_a_missing_command_module_is_an_error_not_a_command_left_out(tmp_path):
    package = copy_package(tmp_path)
    os.remove(os.path.join(package, "commands", "info.py"))
    done = subprocess.run(
        [sys.executable, "-c", "from cadbench_wb import cli; cli.main(['--help'])"],
        cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "ImportError: cannot import name 'info' from 'cadbench_wb.commands'" in done.stderr


def test_the_readme_command_table_lists_every_registered_command():
    readme = _readme()
    section = readme.split("## The `cadbench` command", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `cadbench ([a-z-]+)", section, flags=re.MULTILINE))
    assert documented == {registry.command_name(m) for m in registry.COMMANDS}


def test_the_readme_links_the_architecture_map_in_its_first_lines():
    first_lines = _readme().splitlines()[:5]
    assert any("docs/architecture.md" in line for line in first_lines), first_lines
    assert os.path.isfile(os.path.join(ROOT, "docs", "architecture.md"))
