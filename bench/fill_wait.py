"""What a find waits for while the find server computes a catalog's vectors (issue 35):
the server answers one request at a time and fills vectors between them, so a find that
comes during a turn of the fill waits for it.

    .venv/bin/python bench/fill_wait.py HOME LIBRARY [--seconds 30] [--every 0.5]
        [--rounds 2] [--base DIR]

``HOME`` is a skillc home whose catalog holds LIBRARY's skills (``routing_eval.py``'s lab,
say); it is not changed. Each run: a copy of its catalog with every vector emptied in a new
home, a find server started there (``skc watch --detach``), then for ``--seconds`` one ``skc
find --format json --path LIBRARY`` every ``--every`` seconds after the last answer (the
routing dev requests in order, none asked twice); then the server is stopped. Prints, per
run, the finds answered while vectors were still missing and their wall time (median, 90th
percentile, slowest), and the vectors stored meanwhile. ``--base DIR``: a checkout of
another commit whose packages' sources go first on ``PYTHONPATH``, run before this
checkout's in each round. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import codes, cpu_model, find_skc
from find_scale import dev_queries, watch_status
from skillc_gateway.catalog.database import CATALOG_FILE


def one_run(skc: str, home: Path, library: str, args: argparse.Namespace, extra: dict[str, str]):
    with tempfile.TemporaryDirectory(prefix="fw-", dir="/tmp") as scratch:
        fresh = Path(scratch)
        (fresh / ".skillc").mkdir()
        catalog = fresh / ".skillc" / CATALOG_FILE
        shutil.copyfile(home / ".skillc" / CATALOG_FILE, catalog)
        with sqlite3.connect(catalog) as db:
            db.execute("UPDATE rank_vectors SET vec = NULL")
            (texts,) = db.execute("SELECT count(*) FROM rank_vectors").fetchone()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
        env.update(SKILLC_HOME=str(fresh), HOME=str(fresh), **extra)
        subprocess.run([skc, "watch", "--detach"], env=env, cwd=scratch, check=True,
                       capture_output=True)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not watch_status(skc, env, Path(scratch)).get("pid"):
                if time.monotonic() > deadline:
                    raise SystemExit("error: the find server did not start")
                time.sleep(0.1)
            queries = dev_queries()
            waits: list[float] = []
            start = time.monotonic()
            n = 0
            while time.monotonic() - start < args.seconds:
                command = [skc, "find", "--format", "json", "--path", library, queries[n]]
                called = time.perf_counter()
                done = subprocess.run(command, env=env, cwd=scratch, capture_output=True,
                                      check=True)  # fmt: skip
                elapsed = time.perf_counter() - called
                n += 1
                if json.loads(done.stdout)["ranker"] == "lexical+semantic":
                    break  # every vector in: no fill to wait for
                waits.append(elapsed)
                time.sleep(args.every)
        finally:
            subprocess.run([skc, "watch", "--stop"], env=env, cwd=scratch, capture_output=True)
        with sqlite3.connect(catalog) as db:
            (left,) = db.execute("SELECT count(*) FROM rank_vectors WHERE vec IS NULL").fetchone()
    return waits, texts - left, texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("library", type=Path)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None)
    args = parser.parse_args(argv)
    skc = str(find_skc())
    runs = codes(args.base)
    print(f"## Finds during the find server's fill ({cpu_model()}, {os.cpu_count()} cores)")
    print()
    print("| round | code | finds while filling | median (s) | p90 (s) | slowest (s) "
          "| vectors stored |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for n in range(args.rounds):
        for code, extra in runs:
            waits, stored, texts = one_run(skc, args.home.resolve(), str(args.library.resolve()),
                                           args, extra)  # fmt: skip
            if len(waits) < 2:
                print(f"| {n + 1} | {code} | {len(waits)} | - | - | - | {stored} of {texts} |")
                continue
            p90 = statistics.quantiles(waits, n=10, method="inclusive")[-1]
            print(
                f"| {n + 1} | {code} | {len(waits)} | {statistics.median(waits):.3f} "
                f"| {p90:.3f} | {max(waits):.3f} "
                f"| {stored} of {texts} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
