"""The finds of a fresh home's first minute (issue 35): the first ``skc find`` over a large
library answers from the skills' files and starts a find server, which builds the catalog;
this measures the finds that come while it builds.

    .venv/bin/python bench/first_minute.py LIBRARY [--finds 12] [--pause 1.0] [--rounds 2]
        [--base DIR]

Each run: a fresh home (``first_find.fresh_env``), then ``skc -v find --format json --path
LIBRARY`` with the routing dev requests in order, one after the other, ``--pause`` seconds
between an answer and the next request, until the find server says it has built the
catalog (``skc watch --status``, asked after each find, untimed: not ``building``), at most
``--finds``; then the server is stopped. Prints per run: the first find's wall time, the
finds made while the server built (how many answered by their own process from the files,
how many by the server; median and slowest wall time), and the time from the first find's
start until the catalog was built. ``--base DIR``: a checkout of another commit whose
packages' sources go first on ``PYTHONPATH``, run before this checkout's in each round; the
two codes' answers to the same requests are compared (the skills' paths, in order). Prints
markdown.
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

from benchlib import codes, cpu_model, find_skc
from find_scale import dev_queries, watch_status
from first_find import fresh_env


def one_run(
    skc: str, library: str, args: argparse.Namespace, extra: dict[str, str]
) -> tuple[list[tuple[float, str, list[str]]], float | None]:
    """The finds of one fresh home: (wall time, who answered, the skills' paths) each, and
    the seconds from the first find's start until the catalog was built (None: not within
    ``--finds``)."""
    with tempfile.TemporaryDirectory(prefix="fm-", dir="/tmp") as scratch:
        env = {**fresh_env(Path(scratch)), **extra}
        finds: list[tuple[float, str, list[str]]] = []
        built = None
        start = time.perf_counter()
        try:
            for query in dev_queries()[: args.finds]:
                called = time.perf_counter()
                done = subprocess.run(
                    [skc, "-v", "find", "--format", "json", "--path", library, query],
                    env=env, cwd=scratch, capture_output=True, text=True,
                )  # fmt: skip
                elapsed = time.perf_counter() - called
                if done.returncode != 0:
                    sys.exit(f"error: skc find exited {done.returncode}: {done.stderr[-500:]}")
                who = "server" if "answered by the find server" in done.stderr else "process"
                paths = [skill["path"] for skill in json.loads(done.stdout)["skills"]]
                finds.append((elapsed, who, paths))
                status = watch_status(skc, env, Path(scratch))
                if status.get("running") and not status.get("building"):
                    built = time.perf_counter() - start
                    break
                time.sleep(args.pause)
        finally:
            subprocess.run([skc, "watch", "--stop"], env=env, cwd=scratch, capture_output=True)
    return finds, built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--finds", type=int, default=12)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None)
    args = parser.parse_args(argv)
    skc = str(find_skc())
    library = str(args.library.resolve())
    print(f"## The finds while the find server builds ({cpu_model()}, {os.cpu_count()} cores)")
    print()
    print(f"`{args.library}`, a pause of {args.pause:g} s between an answer and the next find.")
    print()
    print(
        "| round | code | first find (s) | finds while building: by their process / by the "
        "server | median (s) | slowest (s) | built after (s) | answers as the other code's |"
    )
    print("|---|---|---|---|---|---|---|---|")  # fmt: skip
    for n in range(args.rounds):
        answers: list[list[list[str]]] = []
        for code, extra in codes(args.base):
            finds, built = one_run(skc, library, args, extra)
            answers.append([paths for _, _, paths in finds])
            later = [(elapsed, who) for elapsed, who, _ in finds[1:]]
            times = [elapsed for elapsed, _ in later]
            same = "-"
            if len(answers) == 2:
                common = min(len(answers[0]), len(answers[1]))
                alike = sum(answers[0][i] == answers[1][i] for i in range(common))
                same = f"{alike} of {common}"
            print(
                f"| {n + 1} | {code} | {finds[0][0]:.2f} "
                f"| {sum(who == 'process' for _, who in later)} / "
                f"{sum(who == 'server' for _, who in later)} "
                f"| {statistics.median(times):.2f} | {max(times):.2f} "
                f"| {'-' if built is None else f'{built:.1f}'} | {same} |"
                if times
                else f"| {n + 1} | {code} | {finds[0][0]:.2f} | 0 / 0 | - | - | - | {same} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
