# SPDX-License-Identifier: LGPL-2.1-or-later
"""Start the real FreeCAD GUI on a virtual display (Xvfb) with this checkout installed as a
workbench in a throw-away home, and run one macro. Used by the GUI tests and
``make screenshots``; it imports neither FreeCAD nor Qt (it only starts processes)."""

import os
import shutil
import signal
import subprocess
import tempfile

from cadbench_wb import resources

SCREEN = "1600x1000x24"


class GuiUnavailable(RuntimeError):
    """freecad or xvfb-run is not installed."""


def missing_programs() -> list[str]:
    return [p for p in ("freecad", "xvfb-run", "Xvfb", "xauth") if shutil.which(p) is None]


def user_home(folder: str) -> str:
    """A home folder whose FreeCAD Mod folder holds this checkout (as make install-wb does)."""
    mod = os.path.join(folder, ".local", "share", "FreeCAD", "Mod")
    os.makedirs(mod, exist_ok=True)
    link = os.path.join(mod, "cadbench")
    if not os.path.lexists(link):
        os.symlink(resources.ROOT, link)
    return folder


def run_macro(
    macro: str, env: dict | None = None, timeout: float = 120, home: str | None = None
) -> subprocess.CompletedProcess:
    """Run FreeCAD's GUI with macro under xvfb-run; the finished process (output captured).

    FreeCAD refuses to start QtWebEngine as root without QTWEBENGINE_DISABLE_SANDBOX."""
    missing = missing_programs()
    if missing:
        raise GuiUnavailable(f"not installed: {', '.join(missing)} (make setup installs them)")
    home = user_home(home or tempfile.mkdtemp(prefix="cadbench-home-"))
    full_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "DISPLAY", "WAYLAND", "FREECAD_USER"))
    }
    full_env.update(
        {
            "HOME": home,
            "QTWEBENGINE_DISABLE_SANDBOX": "1",
            "QT_QPA_PLATFORM": "xcb",
            "LIBGL_ALWAYS_SOFTWARE": "1",
        }
    )
    full_env.update(env or {})
    command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", "freecad", macro]
    # Its own process group: on a timeout, FreeCAD and Xvfb go down with xvfb-run.
    process = subprocess.Popen(
        command,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=home,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        out += f"\n[launch] killed after {timeout:g} s"
    return subprocess.CompletedProcess(command, process.returncode, out, "")
