# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile case.yaml files: not UTF-8, an alias bomb ("billion laughs"), deep nesting, a
recursive alias, an oversized file; each refused by `cadbench case check` (and by every
loader of a case) with case_invalid and the reason, and the limits at their boundaries.
The loader measures before it constructs, so a bomb is refused, not expanded."""

import os

import pytest
import yaml
from inputs_support import ROOT, cli, refused

from cadbench_wb import standard
from cadbench_wb.case_model import cases
from cadbench_wb.inputs.bounded_yaml import BoundedSafeLoader, YamlLimit

HEADER = "id: hostile\ntitle: a hostile case\nreference: ref.step\n"


def _case(tmp_path, body: bytes) -> str:
    folder = tmp_path / "case"
    folder.mkdir()
    (folder / "ref.step").write_text("ISO-10303-21;\n")
    (folder / "case.yaml").write_bytes(body)
    return str(folder)


def _laughs(levels: int = 9, width: int = 10) -> str:
    """The billion laughs: each level an alias list of the level before, width^levels."""
    lines = ['l0: &l0 "lol"']
    for level in range(1, levels + 1):
        items = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"l{level}: &l{level} [{items}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "kind,words",
    [
        ("latin1", "not UTF-8 text (byte 0xe9"),
        ("laughs", "once its aliases are expanded"),
        ("deep", f"nested deeper than {standard.YAML_MAX_DEPTH} levels"),
        ("recursive", "an alias that contains itself"),
        ("huge", f"larger than {standard.CASE_FILE_MAX_BYTES} bytes"),
        ("nan_value", "dimensions[0].value: must be a finite number"),
        ("inf_tol", "dimensions[0].tol: must be a positive number"),
    ],
)
def test_a_hostile_case_file_is_refused_with_its_reason(tmp_path, kind, words):
    body = {
        "latin1": HEADER.encode() + "note: caf\u00e9\n".encode("latin-1"),
        "laughs": (HEADER + _laughs()).encode(),
        "deep": (HEADER + "deep: " + "[" * 100_000 + "]" * 100_000 + "\n").encode(),
        "recursive": (HEADER + "loop: &loop [*loop]\n").encode(),
        "huge": (HEADER + "# padding\n" * (standard.CASE_FILE_MAX_BYTES // 10 + 1)).encode(),
        # YAML's .nan compares false with everything: 'value <= 0' would let it through.
        "nan_value": (HEADER + "dimensions:\n  - {id: d1, kind: length, value: .nan}\n").encode(),
        "inf_tol": (
            HEADER + "dimensions:\n  - {id: d1, kind: length, value: 5, tol: .inf}\n"
        ).encode(),
    }[kind]
    folder = _case(tmp_path, body)
    status, out, err = cli("case", "check", folder)
    refused(status, err, 2, "case_invalid", "case")
    assert words in err
    # Every loader reading through the case refuses it the same way.
    status, out, err = cli("score", "--case", folder, str(tmp_path / "case" / "ref.step"))
    refused(status, err, 2, "case_invalid", "score")
    assert words in err
    status, out, err = cli("demo", "--cases", str(tmp_path), "--out", str(tmp_path / "demo"))
    refused(status, err, 2, "case_invalid", "demo")
    assert words in err


def test_a_latin1_case_file_names_its_line(tmp_path):
    folder = _case(tmp_path, HEADER.encode() + b"\nnote: caf\xe9\n")
    with pytest.raises(cases.CaseInvalid) as refusal:
        cases.load_case(folder)
    assert "case.yaml:5: not UTF-8" in str(refusal.value)


def _load(text: str):
    return yaml.load(text, Loader=BoundedSafeLoader)  # a SafeLoader subclass


def test_depth_limit_at_its_boundary():
    # The document's root mapping is level 1; each '[' one more.
    deepest = "a: " + "[" * (standard.YAML_MAX_DEPTH - 1) + "]" * (standard.YAML_MAX_DEPTH - 1)
    assert _load(deepest)["a"] is not None
    with pytest.raises(YamlLimit, match="nested deeper"):
        _load("a: " + "[" * standard.YAML_MAX_DEPTH + "]" * standard.YAML_MAX_DEPTH)


def test_node_limit_at_its_boundary_counts_aliases_expanded():
    # A sequence of n scalars is n + 1 nodes; a mapping of one pair adds key and mapping.
    # Written as aliases of one anchored scalar, so the file stays small and the count is
    # the expanded one.
    items = standard.YAML_MAX_NODES - 3  # mapping + key + sequence + items
    text = "a: [&x 1" + ", *x" * (items - 1) + "]"
    assert len(_load(text)["a"]) == items
    with pytest.raises(YamlLimit, match="aliases are expanded"):
        _load("a: [&x 1" + ", *x" * items + "]")


def test_the_bundled_cases_load_with_the_limits():
    found = cases.discover_cases(os.path.join(ROOT, "cases"))
    assert len(found) >= 10 and all(case.id for case in found)


def test_a_fifo_case_file_is_refused_unopened(tmp_path):
    folder = tmp_path / "case"
    folder.mkdir()
    os.mkfifo(folder / "case.yaml")  # opening it would wait for a writer for ever
    status, out, err = cli("case", "check", str(folder))
    refused(status, err, 2, "case_invalid", "case")
    assert "FIFO" in err
