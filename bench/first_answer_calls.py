"""A session's answers from the skills' files in a row (issue 35): the calls the MCP server
answers while the find server builds the catalog, in one process and without the server.

    .venv/bin/python bench/first_answer_calls.py LIBRARY --requests SET.jsonl [--count 60]
        [--rounds 2] [--base DIR]

Each run is a new process with a fresh, empty skillc home: ``find_skills(..., server=True,
builds=True)`` answers the first ``--count`` requests of a routing set (the ``query`` of each
line, in order) over LIBRARY from its files (the kept catalog in memory of
:mod:`skillc_gateway.catalog.first_answer`), words only. Prints the first call's seconds and
the later calls' median, 90th percentile, slowest and sum. ``--base DIR``: a checkout of
another commit whose packages' sources go first on ``PYTHONPATH``, run before this checkout's
in each round. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import codes, cpu_model


def calls(library: str, requests: str, count: int) -> dict[str, float]:
    """The child: the requests answered in a row, their seconds."""
    os.environ.pop("SKILLC_FIND_SERVER", None)
    os.environ["SKILLC_FIND_SEMANTIC"] = "0"
    from skillc_gateway.catalog import find_skills
    from skillc_index import Layout

    with open(requests, encoding="utf-8") as handle:
        queries = [json.loads(line)["query"] for line in handle if line.strip()][:count]
    with tempfile.TemporaryDirectory() as home:
        layout = Layout.discover(home, {"SKILLC_HOME": home})
        seconds = []
        for query in queries:
            start = time.perf_counter()
            found = find_skills(layout, query, limit=10, paths=(library,), server=True, builds=True)
            seconds.append(time.perf_counter() - start)
            if not found.first:
                raise SystemExit(f"answered by a catalog, not the files: {query!r}")
    later = seconds[1:]
    return {
        "first": seconds[0],
        "median": statistics.median(later),
        "p90": statistics.quantiles(later, n=10, method="inclusive")[-1]
        if len(later) > 1
        else later[0],
        "slowest": max(later),
        "sum": sum(later),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--requests", type=Path, required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.count < 2:
        parser.error("--count: at least 2 (the first call, and the later ones)")
    library, requests = str(args.library.resolve()), str(args.requests.resolve())
    if args.child:
        print(json.dumps(calls(library, requests, args.count)))
        return 0
    runs = codes(args.base)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    print(f"## A session's answers from the files, {args.count} requests ({cpu_model()})")
    print()
    print("| round | code | first (s) | later median (s) | later p90 (s) | slowest (s) | sum (s) |")
    print("|---|---|---|---|---|---|---|")
    for n in range(args.rounds):
        for code, extra in runs:
            child = [sys.executable, __file__, library, "--requests", requests, "--child",
                     "--count", str(args.count)]  # fmt: skip
            out = subprocess.run(
                child, env={**env, **extra}, capture_output=True, text=True, check=True
            ).stdout
            got = json.loads(out.splitlines()[-1])
            print(
                f"| {n + 1} | {code} | {got['first']:.2f} | {got['median']:.2f} "
                f"| {got['p90']:.2f} | {got['slowest']:.2f} | {got['sum']:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
