# SPDX-License-Identifier: LGPL-2.1-or-later
"""One run of a program in a bubblewrap sandbox, with limits, read with capped output.

What the sandbox is (bwrap, Linux namespaces; README: Code submissions):
- new user, PID, network, IPC, UTS and cgroup namespaces (--unshare-all): no network at all,
  no view of the host's processes; --die-with-parent and the PID namespace end every process
  of the sandbox when its first one ends or the parent dies;
- a root of nothing but the system's /usr (and the /lib, /bin links into it), a few files of
  /etc the dynamic loader needs, the dialect's environment, all read-only (--remount-ro /);
  the script and the harness are copied in from file descriptors, so no host folder holding a
  case, a reference or another submission is ever mounted;
- one writable place, /scratch, a tmpfs of a fixed size that disappears with the sandbox;
- run as the unprivileged user nobody when cadbench runs as root (root is exempt from
  RLIMIT_NPROC), with rlimits on address space, CPU seconds, processes, file size and
  core dumps; the wall time and the bytes written to stdout/stderr are capped here, the
  process group killed at the end whatever happened.
--trust-code runs the same program with the same rlimits but without the namespaces.
"""

import ctypes
import dataclasses
import functools
import os
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import time

NOBODY = 65534
SCRATCH = "/scratch"
WORK = "/scratch/work"
INSIDE = "/sandbox"  # where the harness and the script are copied
# Files of /etc the dynamic loader and Debian's BLAS alternatives need; nothing else of it.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
LOG_TAIL_BYTES = 8192


@dataclasses.dataclass(frozen=True)
class CodeLimits:
    """What one script may use. These define the invalid rate a campaign reports (its
    timeout is named beside it), so they key the store of executed models."""

    timeout: float = 60.0  # wall seconds (CadQueryEval's 60 s; BenchCAD 90, CADBench 5)
    memory_mb: int = 4096  # address space: OCP alone maps ~1 GB of libraries
    processes: int = 64  # RLIMIT_NPROC inside the sandbox's own user namespace
    output_mb: int = 16  # what the script may print (stdout and stderr together)
    model_mb: int = 256  # the model handed back, and any one file written (RLIMIT_FSIZE)
    scratch_mb: int = 512  # the tmpfs /scratch

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class Ran:
    """How a sandboxed run ended and what it said."""

    returncode: int | None
    timed_out: bool
    output_exceeded: bool  # killed: more than output_mb printed, or a model past model_mb
    channel: bytes  # the harness's answer (fd 1 at its start)
    log_tail: str  # the last bytes of what the script printed
    wall_seconds: float
    cpu_seconds: float


@functools.lru_cache(maxsize=1)
def availability() -> str | None:
    """None when bubblewrap can make a sandbox here, else why not (it is probed once: an
    installed bwrap may still be refused user namespaces by the kernel)."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    probe = [*_bwrap_arguments(bwrap, [], 16), "/usr/bin/true"]
    try:
        done = subprocess.run(
            probe, capture_output=True, timeout=30, preexec_fn=_dropped_privileges, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap cannot start: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip()[-300:]
        return f"bwrap cannot make a sandbox here (user namespaces refused?): {why}"
    return None


def version() -> str:
    """'bubblewrap 0.8.0' as bwrap reports it."""
    try:
        out = subprocess.run(["bwrap", "--version"], capture_output=True, timeout=10, check=False)
        return out.stdout.decode("ascii", "replace").strip() or "bubblewrap"
    except (OSError, subprocess.SubprocessError):
        return "bubblewrap"


def _bwrap_arguments(bwrap: str, read_only: list[str], scratch_mb: int) -> list[str]:
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session"]
    args += ["--ro-bind", "/usr", "/usr"]
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in ETC_FILES:
        args += ["--ro-bind-try", path, path]
    for path in read_only:
        if not os.path.realpath(path).startswith("/usr/"):  # /usr is there already
            args += ["--ro-bind", os.path.realpath(path), path]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--size", str(scratch_mb << 20), "--tmpfs", SCRATCH]
    args += ["--dir", WORK, "--dir", f"{SCRATCH}/tmp", "--chdir", WORK]
    return args


def _dropped_privileges() -> None:
    """As root, become nobody before bwrap starts: root is exempt from RLIMIT_NPROC, and a
    sandbox that is root inside its namespace need not be."""
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)


def _limited(limits: CodeLimits, sandboxed: bool):
    def apply():
        os.setsid()
        mb = 1 << 20
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_mb * mb,) * 2)
        cpu = int(limits.timeout) + 1  # a backstop: the wall clock is watched here
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.model_mb * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if sandboxed:
            _dropped_privileges()
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    return apply


def _identity_files() -> dict:
    """/etc/passwd and /etc/group of one user, the sandbox's own: FreeCAD looks its home up
    with getpwuid and refuses to start without an entry (the host's files are not shown)."""
    uid = NOBODY if os.geteuid() == 0 else os.geteuid()
    gid = NOBODY if os.geteuid() == 0 else os.getegid()
    return {
        "/etc/passwd": f"sandbox:x:{uid}:{gid}:sandbox:{SCRATCH}:/usr/sbin/nologin\n".encode(),
        "/etc/group": f"sandbox:x:{gid}:\n".encode(),
    }


def environment(scratch: str) -> dict:
    """The whole environment of the sandboxed program: nothing of the operator's."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": scratch,
        "TMPDIR": f"{scratch}/tmp",
        "MPLCONFIGDIR": f"{scratch}/tmp",
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
    }


def run(
    python: str,
    files: dict,
    arguments: list[str],
    read_only: list[str],
    limits: CodeLimits,
    sandboxed: bool = True,
) -> Ran:
    """Run `python INSIDE/<first of files> arguments` ('{inside}' in them replaced) with FILES ({name: bytes}) copied into
    INSIDE, in the sandbox (or, sandboxed=False, in a private temporary folder with the same
    rlimits). Its fd 1 is the answer channel, read up to model_mb; its fd 2 the log, read
    up to output_mb; past either, or past the wall time, the whole group is killed."""
    with tempfile.TemporaryDirectory(prefix="cadbench-code-") as host_tmp:
        handles = []
        if sandboxed:
            bwrap = shutil.which("bwrap") or "bwrap"
            command = _bwrap_arguments(bwrap, read_only, limits.scratch_mb)
            placed = {f"{INSIDE}/{name}": data for name, data in files.items()}
            placed.update(_identity_files())
            for where, data in placed.items():
                handle = tempfile.TemporaryFile()  # closed below
                handle.write(data)
                handle.seek(0)
                handles.append(handle)
                command += ["--ro-bind-data", str(handle.fileno()), where]
            command += ["--remount-ro", "/"]
            inside, scratch, cwd = INSIDE, SCRATCH, None
        else:
            inside = os.path.join(host_tmp, "sandbox")
            scratch = os.path.join(host_tmp, "scratch")
            for folder in (inside, f"{scratch}/work", f"{scratch}/tmp"):
                os.makedirs(folder)
            for name, data in files.items():
                with open(os.path.join(inside, name), "wb") as out:
                    out.write(data)
            command, cwd = [], f"{scratch}/work"
        first = next(iter(files))
        arguments = [a.replace("{inside}", inside) for a in arguments]
        command += [python, "-I", f"{inside}/{first}", *arguments]
        try:
            return _watched(command, limits, sandboxed, environment(scratch), cwd, handles)
        finally:
            for handle in handles:
                handle.close()


def _watched(command, limits, sandboxed, env, cwd, handles) -> Ran:
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        pass_fds=[h.fileno() for h in handles],
        preexec_fn=_limited(limits, sandboxed),
    )
    out_fd, log_fd = process.stdout.fileno(), process.stderr.fileno()
    caps = {out_fd: limits.model_mb << 20, log_fd: limits.output_mb << 20}
    kept = {fd: bytearray() for fd in caps}
    seen = dict.fromkeys(caps, 0)
    open_fds = set(caps)
    timed_out = exceeded = False
    deadline = started + limits.timeout
    while open_fds:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select(list(open_fds), [], [], min(left, 0.5))
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                open_fds.discard(fd)
                continue
            seen[fd] += len(chunk)
            kept[fd] += chunk
            if fd == log_fd and len(kept[fd]) > 2 * LOG_TAIL_BYTES:
                del kept[fd][:-LOG_TAIL_BYTES]
            if seen[fd] > caps[fd]:
                exceeded = True
        if exceeded:
            break
    status, usage, late = _reaped(process, deadline, timed_out or exceeded)
    timed_out = timed_out or (late and not exceeded)
    wall = time.monotonic() - started
    process.stdout.close()
    process.stderr.close()
    log = bytes(kept[log_fd][-LOG_TAIL_BYTES:]).decode("utf-8", "replace")
    return Ran(
        returncode=status,
        timed_out=timed_out,
        output_exceeded=exceeded,
        channel=bytes(kept[out_fd]),
        log_tail=log,
        wall_seconds=wall,
        cpu_seconds=usage.ru_utime + usage.ru_stime if usage else 0.0,
    )


def _reaped(process, deadline: float, kill_now: bool):
    """(exit status, rusage, whether the deadline passed) once the process is gone; its group
    is killed in any case, so that nothing it started outlives it (in the sandbox the PID
    namespace takes the rest with it)."""
    late = kill_now
    while not kill_now:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            _kill_group(process.pid)
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, usage, False
        if time.monotonic() >= deadline:
            late = True
            break
        time.sleep(0.02)
    _kill_group(process.pid)
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage, late


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
