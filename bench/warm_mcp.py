"""Warm MCP ``skc_find`` at scale with the semantic extra (issue 35): the corpus copied until
``--skills`` skills (``find_scale.make_library``), a home whose catalog the find server builds
and fills from nothing (timed: words, every name's vector, every body's), then ``skc mcp``
sessions of ``--calls`` ``skc_find`` calls after 10 warm-up calls, the semantic step's and
the words' alone (``SKILLC_FIND_SEMANTIC=0``) alternated for ``--rounds`` rounds.

    .venv/bin/python bench/warm_mcp.py [--skills 20000] [--calls 110] [--rounds 2]
        [--library DIR] [--home DIR] [--base DIR] [--words-only]

Requests: the dev set's, in order (none asked twice in a session of up to 120 calls), each
``path`` the library, ``limit`` 10; p50 / p95 from writing a request to reading its answer,
and the MCP process's CPU a call (``/proc/PID/stat``, the warm-up left out). ``--home`` is
kept (a filled catalog is reused: the build is timed only when it starts from nothing). The
find server is stopped before the sessions, so that nothing else runs. ``--base DIR``: a
checkout of another commit (``git worktree add --detach DIR REV``) whose packages' sources
are put first on ``PYTHONPATH`` for a session of each ranker before this checkout's, so that
the two are compared in one run. ``--words-only``: the sessions of the words alone only (no
vector is computed: a home whose catalog has none stays so, and is built without them).
Prints markdown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchlib import codes, corpus_root, cpu_model, find_skc, process_cpu, vector_counts
from find_scale import dev_queries, make_library, percentile
from mcp_latency import Session
from skillc_gateway.catalog.database import CATALOG_FILE


def fill(
    skc: str, library: str, env: dict[str, str], catalog: Path, words_only: bool = False
) -> dict[str, float]:
    """Start the find server with a find, then wait until every vector is in: the seconds
    until the words of every skill, every name's vector and every body's (``words_only``:
    until the words only)."""
    start = time.perf_counter()
    subprocess.run([skc, "find", "--path", library, "--format", "json", "warm up"],
                   env=env, capture_output=True, check=True)  # fmt: skip
    marks: dict[str, float] = {}
    listed = 0
    while True:
        time.sleep(2)
        found = vector_counts(catalog)
        if found is None:
            continue
        skills, names, bodies = found
        now = time.perf_counter() - start
        if skills and skills == listed and "words" not in marks:
            marks["words"] = now  # two looks with the same count: the build is over
            if words_only:
                return marks
        listed = skills
        if "words" in marks and not names and "names" not in marks:
            marks["names"] = now
        if "names" in marks and not bodies:
            marks["bodies"] = now
            return marks


def session(
    skc: str, library: str, env: dict[str, str], queries: list[str], calls: int
) -> tuple[float, float, float]:
    """p50 and p95 (ms) of ``calls`` skc_find calls after 10, and the CPU a call (ms)."""
    mcp = Session([skc, "mcp"], Path(library), env)
    mcp.initialize()
    times: list[float] = []
    cpu = 0.0
    for n in range(calls + 10):
        if n == 10:
            cpu = process_cpu(mcp.process.pid)
        arguments = {"query": queries[n % len(queries)], "path": [library], "limit": 10}
        elapsed = mcp.call("skc_find", arguments, modern=False)
        if n >= 10:
            times.append(elapsed)
    cpu = process_cpu(mcp.process.pid) - cpu
    mcp.close()
    return 1000 * statistics.median(times), 1000 * percentile(times, 0.95), 1000 * cpu / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=20000)
    parser.add_argument("--calls", type=int, default=110)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--library", type=Path, default=Path("/tmp/skillc-find-library"))
    parser.add_argument("--home", type=Path, default=Path("/tmp/skillc-warm-home"))
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--base", type=Path, default=None, help="a checkout to compare with")
    parser.add_argument("--words-only", action="store_true", help="no session with the extra")
    args = parser.parse_args(argv)
    skc = str(find_skc())
    count = make_library(corpus_root(args.corpus), args.library, args.skills)
    library = str(args.library.resolve())
    home = args.home.resolve()
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: with the bytecode cache
    env.update(SKILLC_HOME=str(home), HOME=str(home))
    words = {"SKILLC_FIND_SEMANTIC": "0"}
    rankers = [("lexical+semantic", {}), ("lexical", words)]
    if args.words_only:
        env.update(words)
        rankers = rankers[1:]
    catalog = home / ".skillc" / CATALOG_FILE
    print(f"## Warm MCP `skc_find` ({cpu_model()}, {os.cpu_count()} cores), {count} skills")
    print()
    if not catalog.exists():
        marks = fill(skc, library, env, catalog, args.words_only)
        vectors = (
            f", every name's vector at {marks['names']:.0f} s, every body's at "
            f"{marks['bodies']:.0f} s"
            if "bodies" in marks
            else ""
        )
        print(
            "The find server built the catalog from nothing: the words of every skill at "
            f"{marks['words']:.0f} s{vectors}."
        )
        print()
    subprocess.run([skc, "watch", "--stop"], env=env, capture_output=True, check=False)
    queries = dev_queries()
    runs = codes(args.base)
    print("| round | code | ranker | p50 (ms) | p95 (ms) | MCP process CPU a call (ms) | load |")
    print("|---|---|---|---|---|---|---|")
    for n in range(args.rounds):
        for ranker, extra in rankers:
            for code, path in runs:
                p50, p95, cpu = session(skc, library, {**env, **extra, **path}, queries, args.calls)
                load = os.getloadavg()[0]
                print(
                    f"| {n + 1} | {code} | {ranker} | {p50:.1f} | {p95:.1f} | {cpu:.1f} "
                    f"| {load:.1f} |"
                )
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
