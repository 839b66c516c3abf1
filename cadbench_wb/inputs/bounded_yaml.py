# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyYAML's SafeLoader with limits, for files written by people cadbench does not trust.

A safe loader runs no code, but YAML aliases let a 1 kB file stand for 10^9 nodes
("billion laughs"): PyYAML composes and constructs them as shared references, cheaply,
and whatever walks the result afterwards (validation, copying) walks every expansion and
runs until memory is gone. Deep nesting ([[[[...]]]]) runs PyYAML's recursive composer
out of stack (RecursionError). So the composed node graph is measured before anything is
constructed: its depth while composing, its size with every alias expanded once composed
(a memoised count, linear in the file), and a recursive alias is refused outright.
"""

import yaml

from cadbench_wb import standard


class YamlLimit(yaml.YAMLError):
    """The document is over one of the limits; the message says which and where."""


class BoundedSafeLoader(yaml.SafeLoader):
    """yaml.SafeLoader that refuses documents deeper than standard.YAML_MAX_DEPTH or
    larger than standard.YAML_MAX_NODES nodes once aliases are expanded."""

    _depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > standard.YAML_MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise YamlLimit(
                    f"line {mark.line + 1}: nested deeper than {standard.YAML_MAX_DEPTH} levels"
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_document(self):
        node = super().compose_document()
        if node is not None:
            expanded = expanded_size(node, standard.YAML_MAX_NODES)
            if expanded > standard.YAML_MAX_NODES:
                raise YamlLimit(
                    f"more than {standard.YAML_MAX_NODES} nodes once its aliases are expanded "
                    "(an alias bomb?)"
                )
        return node


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [item for pair in node.value for item in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def expanded_size(root, limit: int) -> int:
    """How many nodes the document has with every alias expanded, counted iteratively and
    memoised per node (a shared node is counted once per use, but visited once); stops
    early above ``limit``. A node that contains itself raises YamlLimit."""
    size: dict[int, int] = {}
    active: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            active.discard(key)
            total = 1 + sum(size[id(child)] for child in _children(node))
            size[key] = min(total, limit + 1)
            if total > limit:
                return total
            continue
        if key in size:
            continue
        if key in active:
            raise YamlLimit(f"line {node.start_mark.line + 1}: an alias that contains itself")
        active.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in active:
                raise YamlLimit(f"line {child.start_mark.line + 1}: an alias that contains itself")
            if id(child) not in size:
                stack.append((child, False))
    return size[id(root)]
