"""The MCP server's first ``skc_find`` calls in a fresh home (issue 35): how long each call
takes while the catalog is built and its vectors computed, and what ranked it.

    .venv/bin/python bench/mcp_first_find.py LIBRARY [--calls 45] [--every 2] [--runs 2]
        [--base DIR] [--requests JSONL]

Each run: a fresh home (``HOME`` and ``SKILLC_HOME`` new and empty, under ``/tmp``), one ``skc
mcp`` session over stdio, ``--calls`` ``skc_find`` calls over LIBRARY (``path`` the library,
``limit`` 5, four held-out-style requests in turn, or with ``--requests`` the ``query`` of
each line of a routing set's JSONL in order) one every ``--every`` seconds after the
last answer; then every ``skillc_gateway watch`` process of that home is stopped. Prints, per
run, the seconds of the first call, of the calls answered before the catalog was whole (from
the skills' files, or partial), when the answers were first ranked with the names' vectors
and with every vector, the slowest call after the first and the median of those calls.
``--base DIR``: a checkout of another commit whose packages' sources go first on
``PYTHONPATH``, run before this checkout's in each round. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import codes, cpu_model, find_skc
from mcp_latency import Session

QUERIES = (
    "connect to the MaintainX REST API with an API key",
    "create a BigQuery view over the raw events table",
    "deploy a worker to Cloudflare",
    "queue transcription requests and back off when the API answers 429",
)


def run(
    skc: str,
    library: str,
    calls: int,
    every: float,
    extra: dict[str, str],
    queries: tuple[str, ...] = QUERIES,
) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="mff-", dir="/tmp"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    env.update(SKILLC_HOME=str(home), HOME=str(home), **extra)
    mcp = Session([skc, "mcp"], Path(library), env)
    mcp.initialize()
    start = time.perf_counter()
    rows: list[tuple[float, float, str, bool]] = []  # since start, seconds, ranker, partial
    try:
        for n in range(calls):
            arguments = {"query": queries[n % len(queries)], "path": [library], "limit": 5}
            called = time.perf_counter()
            elapsed, response = mcp.request("tools/call", {"name": "skc_find",
                                                           "arguments": arguments})  # fmt: skip
            found = response["result"]["structuredContent"]
            rows.append((called - start, elapsed, found["ranker"], found["partial"]))
            time.sleep(every)
    finally:
        mcp.close()
        for line in subprocess.run(["ps", "-eo", "pid,args"], capture_output=True,
                                   text=True, check=False).stdout.splitlines():  # fmt: skip
            pid, _, args = line.strip().partition(" ")
            if "skillc_gateway watch" in args and _home_of(int(pid)) == str(home):
                os.kill(int(pid), 15)
        shutil.rmtree(home, ignore_errors=True)

    def since(ranker: str) -> str:
        hits = [at for at, _, name, _ in rows if name == ranker]
        return f"{hits[0]:.0f} s" if hits else "-"

    return {
        "first": rows[0][1],
        "slowest_after": max(seconds for _, seconds, _, _ in rows[1:]),
        "median_after": statistics.median(seconds for _, seconds, _, _ in rows[1:]),
        "partial": sum(1 for *_, partial in rows if partial),
        "names": since("lexical+semantic-names"),
        "all": since("lexical+semantic"),
        "rankers": sorted({name for _, _, name, _ in rows}),
    }


def _home_of(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            for item in handle.read().split(b"\0"):
                if item.startswith(b"SKILLC_HOME="):
                    return item.partition(b"=")[2].decode()
    except OSError:
        return None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--calls", type=int, default=45)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--requests", type=Path, default=None)
    args = parser.parse_args(argv)
    queries = QUERIES
    if args.requests is not None:
        with args.requests.open(encoding="utf-8") as handle:
            queries = tuple(json.loads(line)["query"] for line in handle if line.strip())
    skc = str(find_skc())
    library = str(args.library.resolve())
    runs = codes(args.base)
    print(f"## MCP `skc_find` in a fresh home ({cpu_model()}, {os.cpu_count()} cores)")
    print()
    print("| run | code | first call (s) | slowest later call (s) | median later call (s) "
          "| partial answers | names' vectors from | every vector from | rankers |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for n in range(args.runs):
        for code, extra in runs:
            found = run(skc, library, args.calls, args.every, extra, queries)
            print(
                f"| {n + 1} | {code} | {found['first']:.2f} | {found['slowest_after']:.2f} "
                f"| {found['median_after']:.2f} "
                f"| {found['partial']} | {found['names']} | {found['all']} "
                f"| {', '.join(found['rankers'])} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
