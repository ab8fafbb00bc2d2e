"""The first ``skc find`` in a fresh home, as a user meets it (issue 35): this checkout's skc
against another's (``--other``, e.g. main's), alternated in the same minutes.

Run with the Python of the environment skillc is installed in (``skc`` next to it)::

    /path/to/venv/bin/python bench/first_answer.py --other /path/to/main-venv/bin/skc \\
        [--runs 3] LIBRARY [LIBRARY...]

Each run, for each skc: a fresh home (``HOME``, ``SKILLC_HOME``, ``XDG_*`` new and empty,
under ``/tmp`` for a short socket path), the environment a user has without the semantic
extra (``SKILLC_FIND_SEMANTIC=0``; the find server allowed), ``skc -v find --format json
--path LIBRARY``: its wall time and CPU time (user + system of the process and what it
waited for; not of the find server it starts), whether it was whole, its ranker, and where
it was answered (``-v``: this process, from the files or not). Then ``skc watch --status``
until it says the server runs and is not ``building`` (the catalog built whole): the time
from the start of the first find until then; then a find answered by the server, its wall time, and
whether its answer is the first one. The server is stopped after each run. Prints markdown
for bench/RESULTS.md; the first lines say the machine and its load.

``--semantic installed``: ``SKILLC_FIND_SEMANTIC`` is left unset, so each skc ranks as its
install allows (a venv with the ``semantic`` extra against one without it, given as
``--other``: "with and without the extra"); with ``--vectors`` (this skc only), after the
catalog is built, the time until every skill's vectors are in the catalog (the find server
computes them) before the served find, whose ranker is then ``lexical+semantic``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import compiled, cpu_model, find_skc, skill_folders
from first_find import QUERY, fresh_env, vectors


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def find(skc: Path, env: dict[str, str], library: Path) -> tuple[float, float, dict[str, Any], str]:
    wall, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(
        [str(skc), "-v", "find", "--format", "json", "--path", str(library), QUERY],
        env=env, capture_output=True, text=True, cwd=env["HOME"],
    )  # fmt: skip
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"error: skc find exited {done.returncode}: {done.stderr[-500:]}")
    answered = next(
        (
            line.split("answered by ", 1)[1]
            for line in done.stderr.splitlines()
            if "answered by" in line
        ),
        "?",
    )
    started = " (started a find server)" if "started a find server" in done.stderr else ""
    return wall, cpu, json.loads(done.stdout), answered.split(";")[0] + started


def one_run(skc: Path, library: Path, semantic: str, wait_vectors: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ffa-", dir="/tmp") as tmp:
        env = fresh_env(Path(tmp))
        if semantic == "off":
            env["SKILLC_FIND_SEMANTIC"] = "0"
        start = time.perf_counter()
        wall, cpu, answer, answered = find(skc, env, library)
        started = "started a find server" in answered
        try:
            ready = None
            while started and time.perf_counter() - start < 600:  # until the catalog is built
                status = subprocess.run(
                    [str(skc), "watch", "--status", "--format", "json"],
                    env=env, capture_output=True, text=True,
                )  # fmt: skip
                said = json.loads(status.stdout) if status.returncode == 0 else {}
                if said.get("running") and not said.get("building"):
                    ready = time.perf_counter() - start
                    break
                time.sleep(0.2)
            filled = None
            while wait_vectors and ready is not None and time.perf_counter() - start < 1200:
                total, done = vectors(Path(env["SKILLC_HOME"]))
                if total and done == total:
                    filled = time.perf_counter() - start
                    break
                time.sleep(0.5)
            later_wall, _, later, later_by = find(skc, env, library)
        finally:
            subprocess.run([str(skc), "watch", "--stop"], env=env, capture_output=True)
    return {
        "wall": wall,
        "cpu": cpu,
        "searched": answer["searched"],
        "partial": answer["partial"],
        "ranker": answer["ranker"],
        "answered": answered,
        "ready": ready,
        "filled": filled,
        "later": later_wall,
        "later_ranker": later["ranker"],
        "later_by": later_by,
        "same": [s["path"] for s in later["skills"]] == [s["path"] for s in answer["skills"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("libraries", nargs="+", type=Path)
    parser.add_argument("--other", type=Path, required=True, help="the skc to compare with")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--semantic",
        choices=("off", "installed"),
        default="off",
        help="SKILLC_FIND_SEMANTIC=0 (off), or unset: as each skc's install",
    )
    parser.add_argument("--vectors", action="store_true", help="wait for this skc's vectors")
    args = parser.parse_args()
    this = find_skc()
    compiled()
    print(f"{cpu_model()}, {os.cpu_count()} cores; load average at start {os.getloadavg()}")
    print(f"this: {this}; other: {args.other}; medians of {args.runs} runs, alternated")
    print(f"SKILLC_FIND_SEMANTIC: {'0' if args.semantic == 'off' else 'unset'}\n")
    print(
        "| library | skc | first find wall (s) | CPU (s) | searched | partial | ranker "
        "| answered by | server ready after (s) | every vector in after (s) "
        "| served find (s), ranker | same skills |"
    )
    print("|---|---|---:|---:|---:|---|---|---|---:|---:|---:|---|")
    for library in args.libraries:
        library = library.resolve()
        runs: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
        loads = []
        for _ in range(args.runs):
            for name, skc in (("this", this), ("other", args.other)):
                loads.append(os.getloadavg()[0])
                wait = args.vectors and name == "this"
                runs[name].append(one_run(skc, library, args.semantic, wait))
        for name, found in runs.items():
            r = found[0]
            ready = [x["ready"] for x in found if x["ready"] is not None] or [float("nan")]
            filled = [x["filled"] for x in found if x["filled"] is not None]
            print(
                f"| {library.name} ({len(skill_folders(library)):,}) | {name} "
                f"| {statistics.median(x['wall'] for x in found):.2f} "
                f"| {statistics.median(x['cpu'] for x in found):.2f} | {r['searched']} "
                f"| {sum(x['partial'] for x in found)} of {len(found)} | {r['ranker']} "
                f"| {r['answered']} | {statistics.median(ready):.1f} "
                f"| {f'{statistics.median(filled):.1f}' if filled else '-'} "
                f"| {statistics.median(x['later'] for x in found):.3f} ({r['later_by']}), "
                f"{r['later_ranker']} "
                f"| {sum(x['same'] for x in found)} of {len(found)} |"
            )
        print(
            f"\nload average during {library.name}: {min(loads):.1f}-{max(loads):.1f}; "
            f"each run's first find wall (this): {[round(x['wall'], 2) for x in runs['this']]}, "
            f"(other): {[round(x['wall'], 2) for x in runs['other']]}\n"
        )


if __name__ == "__main__":
    main()
