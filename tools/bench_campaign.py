# SPDX-License-Identifier: LGPL-2.1-or-later
"""Campaign throughput and per-job overhead (issue 7).

1. Throughput: bundled cases' candidates (cases/*/candidates/, see CANDIDATES) laid out as
   one system whose runs are the candidate names, scored with every metric by 1 and then 2
   reused workers from an empty store: scorings per minute over the scoring phase, and the
   ratio 2 workers / 1 worker measured in the same run (target >= 1.8 on 2 free cores). On
   a shared machine, busyWorkers shows whether the pool kept every worker fed and the load
   average why the jobs themselves ran slower. The two results.json must be byte-identical
   (the worker count never changes a figure; in a checkout that others edit meanwhile, the
   fingerprint guard makes them differ instead).
2. Per-job overhead: the same small jobs (a 10 x 8 x 6 box, --only shape) scored by a
   fresh process per job (runner.run_job, as `cadbench score` does) and by one reused
   worker; overhead = wall time per job minus the scoring time the worker itself reports.
"""

import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

OVERHEAD_JOBS = 12
# A pure-Python CPU loop: the most two processes can gain over one on this machine right now.
CPU_LOOP = "s = 0\nfor i in range(30_000_000):\n    s += i * i\n"


def machine_ratio() -> float:
    """Work per second of two CPU-bound processes against one (2.0 on two free cores): the
    baseline for the campaign's ratio, measured in the same run on the same, shared machine."""
    import subprocess

    def wall(count: int) -> float:
        started = time.monotonic()
        processes = [subprocess.Popen([sys.executable, "-c", CPU_LOOP]) for _ in range(count)]
        for process in processes:
            process.wait()
        return time.monotonic() - started

    return 2 * wall(1) / wall(2)


# Per case: a good candidate, a scaled one, a mirrored one, one with a feature missing and a
# broken file - the mix a real campaign sees. Thread cases are left out: their booleans take
# minutes and would measure the thread kernel (bench_threads), not the campaign machinery.
CANDIDATES = ("perfect_moved", "scaled_102", "mirrored", "missing_", "broken_garbage")


def _cases_and_submissions(cases_dir: str, target: str) -> tuple[str, int]:
    """(a cases folder of the chosen bundled cases, candidate files laid out as
    bench/<candidate name>/<case_id>.<ext>)."""
    from cadbench_wb.case_model.cases import load_case

    chosen_cases = os.path.join(target, "cases")
    submissions = os.path.join(target, "submissions")
    count = 0
    for case_id in sorted(os.listdir(cases_dir)):
        folder = os.path.join(cases_dir, case_id)
        candidates = os.path.join(folder, "candidates")
        if not os.path.isdir(candidates) or "threads" in load_case(folder).raw:
            continue
        os.makedirs(chosen_cases, exist_ok=True)
        os.symlink(folder, os.path.join(chosen_cases, case_id))
        for name in sorted(os.listdir(candidates)):
            stem, ext = os.path.splitext(name)
            if not any(stem.startswith(prefix) for prefix in CANDIDATES):
                continue
            run = os.path.join(submissions, "bench", stem)
            os.makedirs(run, exist_ok=True)
            shutil.copyfile(os.path.join(candidates, name), os.path.join(run, case_id + ext))
            count += 1
    return chosen_cases, count


def throughput(out_dir: str) -> dict:
    from cadbench_wb.campaign import batch

    inputs = os.path.join(out_dir, "inputs")
    shutil.rmtree(inputs, ignore_errors=True)
    cases_dir, files = _cases_and_submissions(os.path.join(ROOT, "cases"), inputs)
    submissions = os.path.join(inputs, "submissions")
    figures, documents = {}, {}
    for workers in (1, 2):
        campaign_dir = os.path.join(out_dir, f"workers_{workers}")
        shutil.rmtree(campaign_dir, ignore_errors=True)
        with open(os.devnull, "w") as quiet:
            document = batch.run_campaign(
                batch.Settings(
                    cases_dir=cases_dir,
                    submissions_dir=submissions,
                    out_dir=campaign_dir,
                    workers=workers,
                    progress_stream=quiet,
                )
            )
        stats = document["stats"]
        figures[workers] = {
            "jobs": stats["scoredNow"],
            "scoringSeconds": stats["scoringSeconds"],
            "perMinute": 60.0 * stats["scoredNow"] / stats["scoringSeconds"],
            # Seconds of jobs in hand per second of wall time: how well the pool keeps its
            # workers fed, whatever else the machine is doing.
            "busyWorkers": sum(stats["secondsPerJob"].values()) / stats["scoringSeconds"],
            "loadAverage": os.getloadavg()[0],
        }
        with open(os.path.join(campaign_dir, "results.json"), "rb") as handle:
            documents[workers] = handle.read()
        figures[workers]["notChecked"] = sum(s["notScored"] for s in document["summary"].values())
    return {
        "candidateFiles": files,
        "workers1": figures[1],
        "workers2": figures[2],
        "ratio2to1": figures[2]["perMinute"] / figures[1]["perMinute"],
        "identicalResults": documents[1] == documents[2],
    }


def overhead(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    import Part

    from cadbench_wb.campaign import pool
    from cadbench_wb.runtime import outcome, runner

    folder = os.path.join(out_dir, "overhead")
    os.makedirs(folder, exist_ok=True)
    reference = os.path.join(folder, "reference.step")
    Part.makeBox(10, 8, 6).exportStep(reference)
    payloads = []
    for index in range(OVERHEAD_JOBS):
        candidate = os.path.join(folder, f"candidate_{index}.step")
        Part.makeBox(10 * (1.01 + 0.01 * index), 8, 6).exportStep(candidate)
        payloads.append(
            outcome.Job("score", reference, candidate, outcome.Options(only=("shape",)))
        )
    started = time.monotonic()
    fresh_inside = []
    for payload in payloads:
        scored = runner.run_job(payload, outcome.Limits(120, 4096)).result
        fresh_inside.append(scored["timing"]["total"])
    fresh = (time.monotonic() - started) / OVERHEAD_JOBS
    reused_inside = []
    local = pool.LocalPool(1, timeout=120, memory_mb=4096)
    jobs = [pool.Job(str(i), p) for i, p in enumerate(payloads)]
    started = time.monotonic()
    local.run(jobs, lambda job, outcome: reused_inside.append(outcome["result"]["timing"]["total"]))
    reused = (time.monotonic() - started) / OVERHEAD_JOBS
    return {
        "jobs": OVERHEAD_JOBS,
        "freshProcessPerJobSeconds": fresh,
        "reusedWorkerPerJobSeconds": reused,
        "freshOverheadSeconds": fresh - sum(fresh_inside) / OVERHEAD_JOBS,
        "reusedOverheadSeconds": reused - sum(reused_inside) / OVERHEAD_JOBS,
        "workersStarted": local.started_workers,
    }


def run(out_dir: str) -> dict:
    out_dir = os.path.join(out_dir, "campaign")
    os.makedirs(out_dir, exist_ok=True)
    before = machine_ratio()
    figures = {"throughput": throughput(out_dir)}
    after = machine_ratio()
    figures["overhead"] = overhead(out_dir)
    t, o = figures["throughput"], figures["overhead"]
    t["machineRatioBefore"], t["machineRatioAfter"] = before, after
    t["scalingEfficiency"] = t["ratio2to1"] / ((before + after) / 2)
    print(f"campaign: {t['candidateFiles']} candidate files, {t['workers1']['jobs']} scorings")
    for workers in (1, 2):
        f = t[f"workers{workers}"]
        print(
            f"  {workers} worker(s): {f['perMinute']:7.1f} scorings/min "
            f"({f['jobs']} in {f['scoringSeconds']:.1f} s), {f['busyWorkers']:.2f} workers busy "
            f"on average, load average {f['loadAverage']:.1f} at the end"
        )
    print(
        f"  ratio 2/1 workers: {t['ratio2to1']:.2f} (target >= 1.8); CPU-loop baseline 2/1 "
        f"{before:.2f} before, {after:.2f} after; efficiency {t['scalingEfficiency']:.2f}; "
        f"results identical: {t['identicalResults']}"
    )
    print(
        f"  per job ({o['jobs']} jobs, shape only): "
        f"fresh process {o['freshProcessPerJobSeconds']:.3f} s"
        f" (overhead {o['freshOverheadSeconds']:.3f} s), reused worker "
        f"{o['reusedWorkerPerJobSeconds']:.3f} s (overhead {o['reusedOverheadSeconds']:.3f} s, "
        f"{o['workersStarted']} worker started)"
    )
    return figures


if __name__ == "__main__":
    import json

    from bench import out_folder

    print(json.dumps(run(out_folder(__doc__, "out/bench")), indent=2))
