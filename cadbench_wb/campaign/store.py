# SPDX-License-Identifier: LGPL-2.1-or-later
"""The campaign's score store: SQLite in WAL mode, one committed row per finished scoring.

A score is keyed by what decides its figures and nothing else: the case's content (case.yaml
and the files it names), the candidate's bytes and format, the scoring options and the
fingerprints of the metric chain (the drawing chain's only when drawings are scored). So a
kill -9 loses nothing finished, the same command scores only what is missing, and a changed
candidate or a changed scorer re-scores exactly what it affects. Identical candidate bytes
delivered twice are scored once.

Stored results hold no machine paths: the case folder and the candidate file are replaced by
the tokens below, which the reports fill in with paths relative to the campaign's roots.
"""

import hashlib
import json
import os
import sqlite3
import time

from cadbench_wb.inputs.formats import FORMATS
from cadbench_wb.results import result as results

SCHEMA_VERSION = 1
CASE_TOKEN = "{case}"
CANDIDATE_TOKEN = "{candidate}"
# Keys of the case file that name further files of the case (their bytes feed the case hash).
CASE_FILE_FIELDS = ("reference", "drawing", "build")


def file_sha256(path: str) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


def case_sha256(case) -> str:
    """The hash of a case's content: case.yaml plus every file it names that exists."""
    hasher = hashlib.sha256()
    hasher.update(b"case.yaml\0" + bytes.fromhex(file_sha256(case.case_file)))
    for field in CASE_FILE_FIELDS:
        name = case.raw.get(field)
        path = os.path.join(case.path, name) if isinstance(name, str) else None
        if path and os.path.isfile(path):
            hasher.update(f"{field}:{name}\0".encode() + bytes.fromhex(file_sha256(path)))
    return hasher.hexdigest()


def score_key(
    case_hash: str, candidate_hash: str, candidate_format: str, options: dict, fingerprints: dict
) -> str:
    material = json.dumps(
        [case_hash, candidate_hash, candidate_format, options, fingerprints], sort_keys=True
    )
    return hashlib.sha256(material.encode()).hexdigest()


def candidate_change(planned_hash: str, result: dict) -> str | None:
    """Why a result may not be stored under the key planned for planned_hash: the bytes it
    scored (its candidate's sha256, None when none were read) are not the planned ones, as
    when the file was replaced between the plan and the scoring. None when they agree. A
    code submission's planned hash is "<script sha256>:<code stamp>" (batch.plan): its
    result names the script's sha256."""
    planned = planned_hash.split(":", 1)[0]
    planned = planned if _is_sha256(planned) else None
    scored = (result.get("candidate") or {}).get("sha256")
    if scored == planned:
        return None
    return (
        f"the candidate changed between the plan (sha256 {planned or 'none: not a readable file'})"
        f" and its scoring (sha256 {scored or 'none: not read'}): not stored; run the same "
        "command again once the submissions stay put"
    )


def _is_sha256(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def candidate_format(path: str) -> str:
    return FORMATS.get(os.path.splitext(path)[1].lower(), "unknown")


def tokenized(value, case_dir: str, candidate: str):
    """The result with the case folder and the candidate path replaced by tokens wherever
    they occur, inside longer strings too (a failure detail names the file)."""
    if isinstance(value, str):
        value = value.replace(candidate, CANDIDATE_TOKEN)
        return value.replace(case_dir + os.sep, CASE_TOKEN + "/").replace(case_dir, CASE_TOKEN)
    if isinstance(value, dict):
        return {k: tokenized(v, case_dir, candidate) for k, v in value.items()}
    if isinstance(value, list):
        return [tokenized(v, case_dir, candidate) for v in value]
    return value


def detokenized(value, case_name: str, candidate_name: str):
    """The stored result with the tokens replaced by the names a report shows."""
    if isinstance(value, str):
        return value.replace(CANDIDATE_TOKEN, candidate_name).replace(CASE_TOKEN, case_name)
    if isinstance(value, dict):
        return {k: detokenized(v, case_name, candidate_name) for k, v in value.items()}
    if isinstance(value, list):
        return [detokenized(v, case_name, candidate_name) for v in value]
    return value


class Store:
    """Finished scores by key, and the log of attempts that left a job NOT CHECKED."""

    def __init__(self, path: str):
        self.path = path
        self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable against the death of this process (kill -9); only a power cut
        # can lose the last transactions, which are then simply scored again.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS scores (
                key TEXT PRIMARY KEY,
                case_id TEXT NOT NULL,
                case_sha256 TEXT NOT NULL,
                candidate_sha256 TEXT NOT NULL,
                metric_fingerprint TEXT NOT NULL,
                result TEXT NOT NULL,
                seconds REAL,
                attempts INTEGER NOT NULL DEFAULT 1,
                scored_at REAL NOT NULL
            );
            CREATE TABLE IF NOT EXISTS unchecked (
                key TEXT NOT NULL,
                case_id TEXT NOT NULL,
                reason TEXT NOT NULL,
                detail TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                at REAL NOT NULL
            );
            """
        )
        version = self.db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
        if version is None:
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM scores")}

    def put(
        self,
        key: str,
        case_id: str,
        case_hash: str,
        candidate_hash: str,
        result: dict,
        seconds: float | None,
        attempts: int = 1,
    ) -> None:
        """Store one finished score (result already tokenized, without timing), committed."""
        self.db.execute(
            "INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                case_id,
                case_hash,
                candidate_hash,
                result.get("metricFingerprint", ""),
                json.dumps(result, sort_keys=True),
                seconds,
                attempts,
                time.time(),
            ),
        )

    def note_unchecked(self, key: str, case_id: str, reason: str, detail: str, attempts: int):
        self.db.execute(
            "INSERT INTO unchecked VALUES (?, ?, ?, ?, ?, ?)",
            (key, case_id, reason, detail, attempts, time.time()),
        )

    def delete(self, keys: list[str]) -> None:
        self.db.executemany("DELETE FROM scores WHERE key = ?", [(k,) for k in keys])

    def get(self, key: str) -> dict | None:
        """The stored result under key, in the current result schema (a result stored
        under cadbench.score/1 is read through result.upgraded: same figures)."""
        row = self.db.execute("SELECT result FROM scores WHERE key = ?", (key,)).fetchone()
        return results.upgraded(json.loads(row[0])) if row else None

    def seconds(self, key: str) -> float | None:
        row = self.db.execute("SELECT seconds FROM scores WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def close(self) -> None:
        self.db.close()
