"""What the words' stored heads (``catalog/heads.py``, issue 35) cost when the catalog is
written: storing every head (the find server's ``heads.fill``), and indexing edited skills
again over a catalog that holds them (their triggers delete the heads whose best rows a
write changes) against one no fill has made them in yet, alternated in one process.

    .venv/bin/python bench/heads_cost.py [--library DIR] [--edits 50] [--runs 5]

DIR: a folder of skills (default: the corpus), copied to a temporary folder and built there
in this process (words only). Each run appends a line to the SKILL.md of ``--edits`` skills
and times the ``Catalog.find`` that indexes them again, once with every head stored and once
without the heads' table and triggers. Prints markdown: the medians, their ratio, and the
heads an edit deleted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchlib import corpus_root, cpu_model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, default=None)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ["SKILLC_FIND_SEMANTIC"] = "0"  # the words: what the heads are made of
    from skillc_gateway.catalog import Catalog, find_roots, heads
    from skillc_gateway.catalog.database import writing
    from skillc_gateway.catalog.rank import DEPTH
    from skillc_index import Layout

    source = (args.library or corpus_root()).resolve()
    with tempfile.TemporaryDirectory(prefix="skc-heads-") as base:
        library = Path(base) / "lib"
        shutil.copytree(source, library)
        home = Path(base) / "home"
        layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
        catalog = Catalog.shared(layout)
        roots = find_roots(layout, [str(library)])
        start = time.perf_counter()
        catalog.find("warm up", roots, 1, budget=3600)
        built = time.perf_counter() - start
        db = catalog.db
        skills = sorted(library.rglob("SKILL.md"))
        times: dict[str, list[float]] = {"stored": [], "none": []}
        fills: list[float] = []
        deleted: list[int] = []
        count = 0
        for run in range(args.runs):
            for mode in ("stored", "none"):
                if mode == "stored":
                    start = time.perf_counter()
                    heads.fill(db, DEPTH, time.monotonic() + 3600, lambda: writing(db))
                    fills.append(time.perf_counter() - start)
                    count = db.execute("SELECT count(*) FROM rank_heads").fetchone()[0]
                else:  # as before the first fill: no table, no trigger
                    with writing(db):
                        db.execute("DROP TRIGGER IF EXISTS rank_heads_added")
                        db.execute("DROP TRIGGER IF EXISTS rank_heads_removed")
                        db.execute("DROP TABLE IF EXISTS rank_heads")
                edited = skills[(run * 2 + (mode == "none")) * args.edits :][: args.edits]
                if len(edited) < args.edits:  # each run edits skills of its own
                    raise SystemExit("error: the library has too few skills for --runs and --edits")
                for path in edited:
                    with path.open("a", encoding="utf-8") as handle:
                        handle.write(f"\nEdited in run {run}.\n")
                start = time.perf_counter()
                catalog.find("warm up", roots, 1, budget=3600)
                times[mode].append(time.perf_counter() - start)
                if mode == "stored":
                    left = db.execute("SELECT count(*) FROM rank_heads").fetchone()[0]
                    deleted.append(count - left)
        catalog.close()
    median = {mode: statistics.median(value) for mode, value in times.items()}
    print(f"## The words' stored heads: what they cost ({cpu_model()}), {source}")
    print()
    print(f"Built in {built:.1f} s; {count} heads stored in {statistics.median(fills):.2f} s")
    print(f"(median of {args.runs}).")
    print()
    print(f"| {args.edits} skills edited, indexed again | median (ms) | runs (ms) |")
    print("|---|---|---|")
    for mode, label in (("stored", "every head stored"), ("none", "no head, no trigger")):
        runs = ", ".join(f"{1000 * t:.0f}" for t in times[mode])
        print(f"| {label} | {1000 * median[mode]:.0f} | {runs} |")
    print(f"| ratio | {median['stored'] / median['none']:.3f} | |")
    print()
    print(f"Heads deleted by the {args.edits} edits: {deleted} of {count}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
