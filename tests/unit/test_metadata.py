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


# FreeCAD 0.20.2's Mod/AddonManager/ALLOWED_PYTHON_PACKAGES.txt (the packages it will
# pip-install for an add-on), the names that matter here.
ALLOWED_0_20 = {"ezdxf", "matplotlib", "numpy", "scipy", "PyYAML", "pandas", "lxml"}


def _python_depends(root):
    return [d.text for d in root.findall("p:depend", NS) if d.get("type") == "python"]


def test_package_xml_names_what_a_freecad_user_needs():
    root = ET.parse(os.path.join(ROOT, "package.xml")).getroot()
    assert root.find("p:freecadmin", NS).text == "0.20"
    assert root.find("p:pythonmin", NS).text == "3.10"
    assert root.find("p:content/p:workbench/p:pythonmin", NS).text == "3.10"
    licence = root.find("p:license", NS)
    assert licence.text == "LGPL-2.1-or-later"
    with open(os.path.join(ROOT, licence.get("file")), encoding="utf-8") as handle:
        text = handle.read()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "Version 2.1, February 1999" in text
    urls = {u.get("type"): u.text for u in root.findall("p:url", NS)}
    assert urls["bugtracker"] == urls["repository"] + "/issues"
    assert all(u.startswith("https://") and ".invalid" not in u for u in urls.values())
    assert root.findall("p:tag", NS)
    maintainer = root.find("p:maintainer", NS)
    assert maintainer.text and "@" in maintainer.get("email")


def test_declared_python_packages_match_pyproject_and_the_allow_list():
    import tomllib

    from cadbench_wb.runtime import dependencies

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as handle:
        declared = set(tomllib.load(handle)["project"]["dependencies"])
    everything = dependencies.REQUIRED + dependencies.OPTIONAL
    assert {p.pip for p in everything} == declared
    # The Addon Manager refuses a required package that is not allow-listed: those are
    # optional here (the scorer says what it does without them).
    assert all(p.allow_listed == (p in dependencies.REQUIRED) for p in everything)

    def bare(spec):
        return spec.split(">")[0].split("[")[0]

    required = [bare(p.pip) for p in dependencies.REQUIRED]
    assert set(required) <= ALLOWED_0_20
    root = ET.parse(os.path.join(ROOT, "package.xml")).getroot()
    assert _python_depends(root) == required
    with open(os.path.join(ROOT, "metadata.txt"), encoding="utf-8") as handle:
        lines = dict(line.strip().split("=", 1) for line in handle if "=" in line)
    assert lines["pylibs"].split(",") == required
    assert lines["optionalpylibs"].split(",") == [bare(p.pip) for p in dependencies.OPTIONAL]
    assert not os.path.exists(os.path.join(ROOT, "requirements.txt"))  # read as required
