# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write resources/translations/cadbench.ts: every user-visible string of the workbench.

Collects the literal strings the GUI passes to ``translate(context, text)``,
``QT_TRANSLATE_NOOP(context, text)`` and the modules' ``tr(text)`` helpers (context
"CadBench"), and the metric labels of the registry (metrics/registry.py: the third argument
of each ``Metric(...)``, which the panel shows), read with Python's own ast module, and
writes a Qt Linguist source file.
Translators copy it to cadbench_<lang>.ts, translate it in Qt Linguist and compile it
with lrelease to cadbench_<lang>.qm next to it; the workbench loads that folder.
Run it after changing GUI strings: ``.venv/bin/python tools/update_translations.py``.
"""

import ast
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "cadbench_wb", "gui")
REGISTRY = os.path.join(ROOT, "cadbench_wb", "metrics", "registry.py")
TARGET = os.path.join(ROOT, "resources", "translations", "cadbench.ts")
DEFAULT_CONTEXT = "CadBench"


def messages_of(path: str) -> list[tuple[str, str, int]]:
    """(context, text, line) of every translatable literal in a Python file."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        args = node.args
        literal = [isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args]
        if name in ("translate", "QT_TRANSLATE_NOOP") and len(args) >= 2 and all(literal[:2]):
            found.append((args[0].value, args[1].value, node.lineno))
        elif name == "tr" and len(args) == 1 and literal[0]:
            found.append((DEFAULT_CONTEXT, args[0].value, node.lineno))
    return found


def metric_labels_of(path: str) -> list[tuple[str, str, int]]:
    """(context, label, line) of every metric the registry declares."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Metric":
            label = node.args[2] if len(node.args) > 2 else None
            if isinstance(label, ast.Constant) and isinstance(label.value, str):
                found.append((DEFAULT_CONTEXT, label.value, label.lineno))
    return found


def ts_document(messages: dict) -> ET.ElementTree:
    root = ET.Element("TS", version="2.1")
    for context in sorted(messages):
        element = ET.SubElement(root, "context")
        ET.SubElement(element, "name").text = context
        for text, (file, line) in sorted(messages[context].items()):
            message = ET.SubElement(element, "message")
            ET.SubElement(message, "location", filename=file, line=str(line))
            ET.SubElement(message, "source").text = text
            ET.SubElement(message, "translation", type="unfinished")
    ET.indent(root)
    return ET.ElementTree(root)


def collected() -> dict[str, dict[str, tuple[str, int]]]:
    """{context: {text: (file, line)}} of every translatable string, as the file lists them."""
    messages: dict[str, dict[str, tuple[str, int]]] = {}
    for name in sorted(os.listdir(SOURCES)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(SOURCES, name)
        relative = os.path.relpath(path, os.path.dirname(TARGET))
        for context, text, line in messages_of(path):
            messages.setdefault(context, {}).setdefault(text, (relative, line))
    relative = os.path.relpath(REGISTRY, os.path.dirname(TARGET))
    for context, text, line in metric_labels_of(REGISTRY):
        messages.setdefault(context, {}).setdefault(text, (relative, line))
    return messages


def main() -> int:
    messages = collected()
    os.makedirs(os.path.dirname(TARGET), exist_ok=True)
    with open(TARGET, "wb") as handle:
        handle.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        ts_document(messages).write(handle, encoding="utf-8", xml_declaration=False)
        handle.write(b"\n")
    count = sum(len(m) for m in messages.values())
    print(f"{os.path.relpath(TARGET, ROOT)}: {count} strings in {len(messages)} contexts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
