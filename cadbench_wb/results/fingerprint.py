# SPDX-License-Identifier: LGPL-2.1-or-later
"""Content-stable hashes that seal the scoring standard (seed 000's metric fingerprint).

What a stamp covers is derived, never listed by hand: the metric registry names each
metric's modules, and ``sealed_files`` follows every import inside the package from them
(module level and function level, read with ``ast`` so nothing is imported), adding the data
files the registry names. A scoring module that is added, renamed or changed therefore
changes the stamp, and a module no metric reaches (the GUI, the campaign reports) does not.
Package ``__init__.py`` files are left out: they hold the version and docstrings, never
figures (tests/unit/test_fingerprint.py checks that scoring code takes nothing else from
them).

Line endings are normalised and files are taken in sorted order of their path inside the
package, so a stamp is the same on every checkout and machine.
"""

import ast
import functools
import glob
import hashlib
import json
import os

from cadbench_wb import standard
from cadbench_wb.metrics import registry

PACKAGE = "cadbench_wb"
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def module_file(module: str, package_dir: str = PACKAGE_DIR) -> str | None:
    """The .py file of a cadbench_wb module (a package gives its __init__.py), else None."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return None
    base = os.path.join(package_dir, *module.split(".")[1:])
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def _imported_modules(path: str) -> frozenset[str]:
    """cadbench_wb modules a file imports anywhere in it: `import a.b`, `from a import b`
    (b a submodule, else a itself), relative imports resolved. Parsing the files is most of
    a stamp's cost (0.2 CPU-s for ~100 files, in every fresh scoring process), so the
    answer is kept by the file's content (_ImportCache: in this process, and for the
    package's own files in the user's cache folder): the same bytes at the same path
    always import the same modules."""
    with open(path, "rb") as handle:
        content = handle.read()
    digest_hex = hashlib.sha256(content).hexdigest()
    found = _IMPORTS.get(path, digest_hex)
    if found is None:
        found = _parsed_imports(content.decode("utf-8"), path)
        _IMPORTS.put(path, digest_hex, found)
    return found


def _parsed_imports(source: str, path: str) -> frozenset[str]:
    """_imported_modules of a file's source, read with ast."""
    tree = ast.parse(source, path)
    own = _module_name(path)
    found = set()
    for node in statements_of(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = own.split(".")[: -node.level] if own else []
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return frozenset(name for name in found if name == PACKAGE or name.startswith(PACKAGE + "."))


class _ImportCache:
    """{file: {sha256 of its content: the modules it imports}}: read once from
    ~/.cache/cadbench/fingerprint-imports-2.json (XDG_CACHE_HOME), written back when a stamp
    parsed a file anew. A file of this package is kept by its path inside the package, so
    that every checkout on the machine (worktrees, a fresh clone, the installed copy) reads
    and extends the same entries instead of each replacing the others' (a cache keyed by
    absolute path held one checkout's at a time, and the others parsed ~100 files again:
    0.3 CPU-s of a small pair); at most PER_FILE contents per file, the newest kept. Other
    files (a test's copies in temporary folders) stay in this process. An entry whose
    content differs is parsed again, so an edited file is never taken for its old self.
    Unreadable or unwritable: parse. The file's name carries its layout ("-2": keys inside
    the package): a checkout of the older layout (fingerprint-imports.json, absolute keys)
    rewrote that file with its own entries alone, so with one on the machine every other
    scoring child parsed ~85 files again (0.13-0.2 CPU-s of a small pair).

    LAYOUT names the file: change it with the layout."""

    PER_FILE = 8
    LAYOUT = "fingerprint-imports-2.json"

    def __init__(self):
        self.entries, self.loaded, self.changed = {}, False, False

    @staticmethod
    def file() -> str:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(base, "cadbench", _ImportCache.LAYOUT)

    @staticmethod
    def _key(path: str) -> str:
        """A package file's path inside the package ("app/shape/fidelity.py"), else its own."""
        if path.startswith(PACKAGE_DIR + os.sep):
            return _relative(path, PACKAGE_DIR)
        return path

    @classmethod
    def _stored(cls) -> dict:
        try:
            with open(cls.file(), encoding="utf-8") as handle:
                stored = json.load(handle)
            return {
                key: {sha: frozenset(names) for sha, names in versions.items()}
                for key, versions in stored.items()
                if not os.path.isabs(key)
            }
        except (OSError, ValueError, TypeError, AttributeError):
            return {}  # unreadable, or an older layout: parsed again, then rewritten

    def _load(self) -> None:
        self.loaded = True
        for key, versions in self._stored().items():
            self.entries.setdefault(key, {}).update(versions)

    def get(self, path: str, sha: str) -> frozenset[str] | None:
        if not self.loaded:
            self._load()
        return self.entries.get(self._key(path), {}).get(sha)

    def put(self, path: str, sha: str, names: frozenset[str]) -> None:
        key = self._key(path)
        self.entries.setdefault(key, {})[sha] = names
        self.changed = self.changed or not os.path.isabs(key)

    def save(self) -> None:
        if not self.changed:
            return
        self.changed = False
        merged = self._stored()  # what other checkouts wrote meanwhile stays
        for key, versions in self.entries.items():
            if not os.path.isabs(key):
                merged.setdefault(key, {}).update(versions)
        own = {
            key: {sha: sorted(names) for sha, names in list(versions.items())[-self.PER_FILE :]}
            for key, versions in merged.items()
        }
        target = self.file()
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            partial = f"{target}.{os.getpid()}.tmp"
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(own, handle)  # (unsorted: a file's contents stay oldest first)
            os.replace(partial, target)  # whole or not at all, with scorings side by side
        except OSError:
            pass


_IMPORTS = _ImportCache()


def statements_of(nodes):
    """Every statement in nodes and in the blocks nested in them (function and class bodies,
    branches, handlers, match cases), expressions skipped: an import is always a statement,
    and walking every expression node (ast.walk) took a second a scoring for ~100 files."""
    for node in nodes:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                yield from statements_of(block)


def _module_name(path: str, package_dir: str = PACKAGE_DIR) -> str:
    rel = os.path.relpath(os.path.splitext(path)[0], package_dir).split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return ".".join([PACKAGE, *rel])


def import_closure(modules, package_dir: str = PACKAGE_DIR) -> list[str]:
    """Files of the given modules and of every cadbench_wb module they import, transitively,
    package __init__ files left out; sorted by path inside the package."""
    missing = [module for module in modules if module_file(module, package_dir) is None]
    if missing:
        raise registry.MetricNotLoadable(f"sealed module(s) not found: {', '.join(missing)}")
    seen, files, queue = set(), set(), list(modules)
    while queue:
        module = queue.pop()
        if module in seen:
            continue
        seen.add(module)
        path = module_file(module, package_dir)
        if path is None:
            continue
        if os.path.basename(path) != "__init__.py":
            files.add(path)
        queue += sorted(_imported_modules(path))
    return sorted(files, key=lambda p: _relative(p, package_dir))


def _relative(path: str, package_dir: str) -> str:
    """path inside package_dir, "/"-separated. A normalised absolute path under it is cut
    at its prefix: os.path.relpath, called ~450 times a stamp (the sort keys), cost more
    than reading the files' imports from the cache."""
    prefix = package_dir.rstrip(os.sep) + os.sep
    if path.startswith(prefix) and os.path.isabs(path) and os.path.normpath(path) == path:
        return path[len(prefix) :].replace(os.sep, "/")
    return os.path.relpath(path, package_dir).replace(os.sep, "/")


def _data_files(patterns, package_dir: str) -> list[str]:
    """Files matching the registry's glob patterns (relative to the package); a pattern that
    matches nothing is an error, so a moved table cannot silently leave its stamp."""
    found = []
    for pattern in patterns:
        matched = glob.glob(os.path.join(package_dir, pattern))
        if not matched:
            raise FileNotFoundError(f"sealed data {pattern} matches no file in {package_dir}")
        found += [os.path.normpath(path) for path in matched]
    return found


@functools.lru_cache(maxsize=8)
def sealed_files(stamp: str, package_dir: str = PACKAGE_DIR) -> tuple[str, ...]:
    """Every file a stamp ("metric" or "drawing") covers, sorted by path in the package.
    Cached: which files a stamp covers does not change while a process runs (their content
    is read anew for every stamp)."""
    metrics = [m for m in registry.METRICS if m.stamp == stamp]
    roots = [module for metric in metrics for module in metric.modules]
    if stamp == "metric":
        roots += registry.SCORING_MODULES
    data = _data_files([f for metric in metrics for f in metric.data_files], package_dir)
    files = set(import_closure(roots, package_dir)) | set(data)
    _IMPORTS.save()
    return tuple(sorted(files, key=lambda p: _relative(p, package_dir)))


def digest(files, parameters: dict, package_dir: str = PACKAGE_DIR) -> str:
    """16 hex digits over files (by path inside the package and content) and parameters:
    the one implementation every stamp uses."""
    hasher = hashlib.sha256()
    for path in sorted(files, key=lambda p: _relative(p, package_dir)):
        with open(path, "rb") as handle:
            content = handle.read().replace(b"\r\n", b"\n")
        rel = _relative(path, package_dir)
        hasher.update(rel.encode() + b"\0" + hashlib.sha256(content).digest())
    hasher.update(json.dumps(parameters, sort_keys=True).encode())
    return hasher.hexdigest()[:16]


def sealed_standard() -> dict:
    """The standard as the stamps seal it: standard.py's numbers and the ceiling each
    metric's registry line declares (the metric a value may be passed "reachably" at)."""
    return {**standard.as_dict(), "ceilings": registry.CEILINGS}


def metric_fingerprint(options: dict | None = None, package_dir: str = PACKAGE_DIR) -> str:
    """16 hex digits over the metric code, the standard and the options that change figures."""
    parameters = {"standard": sealed_standard(), "options": options or {}}
    return digest(sealed_files("metric", package_dir), parameters, package_dir)


# The drawing chain's own options, with their defaults: other options (--only, --spectrum)
# do not change a drawing, so they must not change its stamp either.
DRAWING_OPTIONS = {"projection": "first"}


def drawing_fingerprint(options: dict | None = None, package_dir: str = PACKAGE_DIR) -> str:
    """16 hex digits over the drawing chain's code and its own options (defaults filled in),
    so `cadbench info`, the drawing stage and a campaign all print the same stamp."""
    chosen = {k: (options or {}).get(k, v) for k, v in DRAWING_OPTIONS.items()}
    parameters = {"options": chosen, "standard": standard.DRAWING}
    return digest(sealed_files("drawing", package_dir), parameters, package_dir)


def module_fingerprint(modules, parameters: dict, package_dir: str = PACKAGE_DIR) -> str:
    """A stamp over other entry modules (the 2D drawing scorer) by the same rules."""
    return digest(import_closure(modules, package_dir), parameters, package_dir)
