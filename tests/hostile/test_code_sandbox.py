# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile submitted scripts, run in the real bubblewrap sandbox: each ends with a named
failure, leaves no process behind and creates no file outside its scratch folder.

The scripts declare the FreeCAD dialect, so they run under Debian's python3 (no CadQuery
environment needed) and never import a CAD kernel: what is tested is the sandbox, with small
limits so that each case ends in a few seconds."""

import os
import socket
import time

import pytest

from cadbench_wb.code import execution, sandbox

pytestmark = pytest.mark.skipif(
    sandbox.availability() is not None,
    reason=f"no OS sandbox on this machine: {sandbox.availability()}",
)
LIMITS = sandbox.CodeLimits(
    timeout=4.0, memory_mb=512, processes=32, output_mb=1, model_mb=8, scratch_mb=16
)


def sandbox_processes() -> set:
    """Processes that run a sandbox's harness or a bwrap (by their command line in /proc)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                args = handle.read().split(b"\0")
        except OSError:
            continue
        if any(b"/sandbox/harness.py" in a or a.endswith(b"bwrap") or b"987654" in a for a in args):
            found.add(int(name))
    return found


def executed(tmp_path, source: str):
    script = tmp_path / "hostile.py"
    script.write_text(source)
    before = sandbox_processes()
    started = time.monotonic()
    done = execution.execute(str(script), "freecad", LIMITS, keep_dir=str(tmp_path / "kept"))
    deadline = time.monotonic() + 3
    while sandbox_processes() - before and time.monotonic() < deadline:
        time.sleep(0.05)  # the PID namespace's processes are reaped as it goes away
    assert not sandbox_processes() - before, "a process of the sandbox outlived it"
    assert time.monotonic() - started < LIMITS.timeout + 10
    return done.record


def files_named(root, name) -> list:
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f == name]


def test_a_socket_reaches_nothing_not_even_this_machine(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    record = executed(
        tmp_path,
        "import socket\n"
        f"socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        "socket.create_connection(('1.1.1.1', 80), timeout=2)\n",
    )
    assert record["status"] == "code_runtime_error"
    assert "line 2" in record["detail"] and "Error" in record["detail"]
    with pytest.raises(TimeoutError):
        listener.accept()  # nothing ever connected
    listener.close()


def test_a_write_outside_scratch_fails_and_leaves_no_file(tmp_path):
    marker = tmp_path / "written-by-the-script"
    record = executed(
        tmp_path,
        "import os\n"
        "for path in ['/tmp/written-by-the-script', '/usr/written-by-the-script',\n"
        "             '/written-by-the-script']:\n"
        "    try:\n"
        "        open(path, 'w').write('x')\n"
        "    except OSError:\n"
        "        pass\n"
        f"open({str(marker)!r}, 'w').write('x')\n",
    )
    assert record["status"] == "code_runtime_error"
    assert "line 8" in record["detail"] and "FileNotFoundError" in record["detail"]
    assert not marker.exists()
    assert not files_named("/tmp", "written-by-the-script")


def test_a_file_outside_scratch_cannot_be_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the operator's secret")
    record = executed(
        tmp_path,
        "import os\n"
        "assert not os.path.exists('/etc/shadow') and not os.path.exists('/root')\n"
        f"print(open({str(secret)!r}).read())\n",
    )
    assert record["status"] == "code_runtime_error"
    assert "line 3: FileNotFoundError" in record["detail"]
    assert "secret" not in record["detail"].replace(str(secret), "")


def test_the_case_reference_is_not_there_by_its_path(tmp_path):
    case = tmp_path / "cases" / "box"
    case.mkdir(parents=True)
    reference = case / "reference.step"
    reference.write_text("ISO-10303-21;\nthe reference\n")
    record = executed(
        tmp_path,
        f"import shutil\nshutil.copy({str(reference)!r}, 'stolen.step')\nresult = 1\n",
    )
    assert record["status"] == "code_runtime_error"
    assert "line 2: FileNotFoundError" in record["detail"]


def test_a_fork_bomb_is_stopped_by_the_process_limit(tmp_path):
    record = executed(tmp_path, "import os\nwhile True:\n    os.fork()\n")
    assert record["status"] in ("code_runtime_error", "code_timeout")
    if record["status"] == "code_runtime_error":
        assert "BlockingIOError" in record["detail"]


def test_sleeping_forever_is_a_timeout(tmp_path):
    record = executed(tmp_path, "import time\ntime.sleep(10**6)\n")
    assert record["status"] == "code_timeout"
    assert record["codeSeconds"] == pytest.approx(LIMITS.timeout, abs=2.0)


def test_a_busy_loop_is_a_timeout(tmp_path):
    record = executed(tmp_path, "while True:\n    pass\n")
    assert record["status"] == "code_timeout"


def test_allocating_50_gb_is_out_of_memory(tmp_path):
    record = executed(tmp_path, "block = bytearray(50 * 2**30)\n")
    assert record["status"] == "code_memory"


def test_printing_1_gb_is_stopped_at_the_output_limit(tmp_path):
    started = time.monotonic()
    record = executed(
        tmp_path, "import sys\nchunk = 'x' * 2**20\nfor _ in range(1024):\n    print(chunk)\n"
    )
    assert record["status"] == "code_runtime_error"
    assert "more than 1 MB" in record["detail"]
    assert time.monotonic() - started < LIMITS.timeout  # stopped at the cap, not the clock


def test_a_daemon_does_not_outlive_its_script(tmp_path):
    record = executed(
        tmp_path,
        "import os\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        os.execv('/usr/bin/sleep', ['sleep', '987654'])\n"
        "    os._exit(0)\n"
        "import time\ntime.sleep(0.5)\n",
    )
    # The script left no model: no_result; executed() checks `sleep 987654` is gone.
    assert record["status"] == "no_result"


def test_os_system_runs_only_inside_the_sandbox(tmp_path):
    marker = tmp_path / "marker-of-os-system"
    record = executed(
        tmp_path,
        "import os\n"
        f"status = os.system('touch {marker} /tmp/marker-of-os-system && echo done')\n"
        "assert status == 0, f'touch failed with {status}'\n",
    )
    assert record["status"] == "code_runtime_error"
    assert "AssertionError: touch failed" in record["detail"]
    assert not marker.exists() and not files_named("/tmp", "marker-of-os-system")


def test_a_syntax_error_is_named_with_its_line(tmp_path):
    record = executed(tmp_path, "x = 1\ny = (2\n")
    assert record["status"] == "code_syntax_error"
    assert "line 2" in record["detail"]
