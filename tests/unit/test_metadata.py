# SPDX-License-Identifier: LGPL-2.1-or-later
"""One source of truth for the version; package.xml is valid Addon Manager metadata."""

import os
import xml.etree.ElementTree as ET

import cadbench_wb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NS = {"p": "https://wiki.freecad.org/Package_Metadata"}


def test_package_xml_version_matches_the_package():
    root = ET.parse(os.path.join(ROOT, "package.xml")).getroot()
    assert root.find("p:version", NS).text == cadbench_wb.__version__
    workbench = root.find("p:content/p:workbench", NS)
    assert workbench.find("p:classname", NS).text == "CadBenchWorkbench"
    assert workbench.find("p:freecadmin", NS).text == "0.20"
    icon = root.find("p:icon", NS).text
    assert os.path.isfile(os.path.join(ROOT, icon))


def test_init_gui_names_the_workbench_class():
    text = open(os.path.join(ROOT, "InitGui.py")).read()
    assert "class CadBenchWorkbench" in text
