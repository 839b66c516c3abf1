# SPDX-License-Identifier: LGPL-2.1-or-later
"""`case build` and `case verify` take the ids `case list` prints, as well as folders."""

import argparse
import os
import shutil

import pytest
from conftest import ROOT

from cadbench_wb.commands import case as case_command
from cadbench_wb.errors import CadbenchError


def test_an_id_is_found_in_the_root_and_a_folder_still_works(tmp_path):
    root = tmp_path / "cases"
    shutil.copytree(os.path.join(ROOT, "cases", "slope_block"), root / "slope_block")
    by_id = case_command._chosen(argparse.Namespace(root=str(root), case=["slope_block"]))
    assert [c.id for c in by_id] == ["slope_block"]
    by_folder = case_command._chosen(
        argparse.Namespace(root=None, case=[str(root / "slope_block")])
    )
    assert [c.path for c in by_folder] == [c.path for c in by_id]
    with pytest.raises(CadbenchError, match="no_such_case"):
        case_command._chosen(argparse.Namespace(root=str(root), case=["no_such_case"]))
