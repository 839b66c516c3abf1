# SPDX-License-Identifier: LGPL-2.1-or-later
"""The translation file (resources/translations/cadbench.ts) lists every string the GUI
translates: what tools/update_translations.py collects from the source now, read back from
the committed file (a GUI string added without regenerating it fails here)."""

import importlib.util
import os
import xml.etree.ElementTree as ET

from conftest import ROOT

TOOL = os.path.join(ROOT, "tools", "update_translations.py")
TS = os.path.join(ROOT, "resources", "translations", "cadbench.ts")


def _tool():
    spec = importlib.util.spec_from_file_location("update_translations", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_translation_file_lists_every_string_the_gui_translates():
    collected = {(c, t) for c, texts in _tool().collected().items() for t in texts}
    listed = {
        (context.findtext("name"), message.findtext("source"))
        for context in ET.parse(TS).getroot().iter("context")
        for message in context.iter("message")
    }
    assert collected - listed == set(), "run tools/update_translations.py"
    assert listed - collected == set(), "run tools/update_translations.py"
    # The stage names the drawing and deviation children report are marked too.
    assert ("CadBench", "projecting the views (hidden-line removal)") in listed
    assert ("CadBench", "measuring the distances (Inspection)") in listed
