"""Benchmark: ``skc stats`` queries on big access logs (issue 6).

Builds, in a temporary folder (or ``--dir``, reused when it already holds the data):

- 50 global skills, ``skill-00`` to ``skill-49``, each with its own runtime log of 20,000 rows
  (1,000,000 rows in all), the way RFC-0007 stores logs: one ``logs.db`` per runtime;
- ``skill-big``: one skill whose log alone holds 1,000,000 rows (and ``skill-mid``, 250,000
  rows, to see the growth between the two);
- ``shared``: one runtime log of 1,000,000 rows written by 50 source folders of the same name
  (RFC-0007:C-RESOLUTION: they share a runtime), 20,000 rows each.

Each skill has 8 Markdown files with 40 sections; rows look like real use (show 45 %, search
20 %, open 15 %, outline 10 %, the rest sources/build/stats/lint; 3 % of shows and opens fail;
30 working folders in 10 projects; a year of timestamps). Rows are written with the schema of
``skillc_index.accesslog`` (its indexes included) in one transaction per database.

Then, for one skill of each kind, every query type of RFC-0003 runs through the public API
(``skillc_stats.query_stats``, warm, in this process) without filters and with all filters
(``--since``/``--until`` around the middle half of the year, one ``--project``), and the
median of ``--runs`` runs is reported, plus ``skc stats`` as a whole command (text summary,
a fresh process each run). Target: under 0.5 s each; the time grows no faster than the
number of rows of the queried skill (20,000 -> 1,000,000 rows: at most 50x; 250,000 ->
1,000,000: at most 4x), and not with the rows of other skills in the same database.

Usage: /path/to/venv/bin/python bench/stats_queries.py [--runs 5] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from skillc_index import Layout, resolve_skill
from skillc_index.accesslog import INSERT_ROW, connect, primary_log
from skillc_stats import QUERY_TYPES, query_stats

SKILLS = 50
ROWS_PER_SKILL = 20_000
BIG_ROWS = 1_000_000
MID_ROWS = 250_000
FILES = ["SKILL.md"] + [f"references/topic-{i}.md" for i in range(7)]
SECTIONS = {file: [f"Section {i}-{j}" for j in range(5)] for i, file in enumerate(FILES)}
ALL_SECTIONS = [(file, text) for file, texts in SECTIONS.items() for text in texts]
QUERIES = [f"how to use feature {i}" for i in range(200)]
PROJECTS = [f"/home/dev/project-{i}" for i in range(10)]
CWDS = [project + sub for project in PROJECTS for sub in ("", "/src", "/docs/api")]
COMMANDS = ["show"] * 45 + ["search"] * 20 + ["open"] * 15 + ["outline"] * 10
COMMANDS += ["sources"] * 4 + ["build"] * 3 + ["stats"] * 2 + ["lint"]
START = 1_767_225_600  # 2026-01-01T00:00:00Z
YEAR = 365 * 86_400
FILTERS: dict[str, Any] = {
    "since": "2026-04-01",
    "until": "2026-09-30T23:59:59Z",
    "projects": ["/home/dev/project-3"],
}


def write_skill(folder: Path) -> None:
    for file, texts in SECTIONS.items():
        path = folder / file
        path.parent.mkdir(parents=True, exist_ok=True)
        head = "---\nname: {0}\ndescription: Benchmark skill. Use when timing.\n---\n\n"
        lines = [head.format(folder.name) if file == "SKILL.md" else ""]
        lines.append(f"# {file}\n\n")
        lines += [f"## {text}\n\nSome text.\n\n" for text in texts]
        path.write_text("".join(lines), encoding="utf-8")


def rows(count: int, skill: str, skill_path: str, seed: int) -> Iterator[tuple[Any, ...]]:
    rng = random.Random(seed)
    step = YEAR / count
    run_id = ""
    for n in range(count):
        moment = START + int(n * step)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))
        if n % 20 == 0:
            run_id = stamp.replace("-", "").replace(":", "") + f"-{rng.randrange(65536):04x}"
        command = rng.choice(COMMANDS)
        error = None
        args: dict[str, Any] = {}
        if command == "show":
            file, section = rng.choice(ALL_SECTIONS)
            given = file if rng.random() < 0.25 else None
            args = {"section": section, "file": given, "max_lines": None}
            if rng.random() < 0.03:
                args["section"] = f"Missing {rng.randrange(20)}"
                error = f"error[E020]: section not found: '{args['section']}'"
        elif command == "open":
            args = {"path": rng.choice(FILES), "max_lines": None}
            if rng.random() < 0.03:
                args["path"] = "gone.md"
                error = "error[E021]: file not found: 'gone.md'"
        elif command == "search":
            args = {"query": rng.choice(QUERIES), "result_count": rng.randrange(10), "limit": 10}
        text = json.dumps(args, sort_keys=True)
        yield (stamp, run_id, command, skill, skill_path, rng.choice(CWDS), text, error)


def fill(log: Path, parts: list[tuple[str, str, int]], seed: int) -> None:
    """Write ``(skill, skill_path, count)`` parts into one log, interleaved by time."""
    db = connect(log)
    try:
        db.execute("BEGIN")
        streams = [rows(n, skill, path, seed + i) for i, (skill, path, n) in enumerate(parts)]
        while streams:
            for stream in list(streams):
                chunk = [row for _, row in zip(range(1000), stream, strict=False)]
                if not chunk:
                    streams.remove(stream)
                    continue
                db.executemany(INSERT_ROW, chunk)
        db.execute("COMMIT")
    finally:
        db.close()


def build(root: Path) -> None:
    home = root / "home"
    store = home / ".skillc" / "skills"
    runtime = home / ".skillc" / "runtime"
    sizes = {f"skill-{i:02d}": ROWS_PER_SKILL for i in range(SKILLS)}
    sizes.update({"skill-mid": MID_ROWS, "skill-big": BIG_ROWS})
    names = list(sizes)
    for name in names:
        write_skill(store / name)
    started = time.perf_counter()
    for i, name in enumerate(names):
        source = str((store / name).resolve())
        fill(primary_log(runtime / name), [(name, source, sizes[name])], seed=i * 1000)
    # shared: 50 folders called "shared", outside the store, one global runtime
    sources = []
    for i in range(SKILLS):
        folder = root / "elsewhere" / f"checkout-{i:02d}" / "shared"
        write_skill(folder)
        sources.append(("shared", str(folder.resolve()), ROWS_PER_SKILL))
    fill(primary_log(runtime / "shared"), sources, seed=99_000)
    (root / "complete").write_text("ok\n", encoding="utf-8")
    print(f"built the logs in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def median_seconds(func: Any, runs: int) -> float:
    func()  # warm-up: the first run also imports and opens
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(root: Path, runs: int) -> dict[str, dict[str, float]]:
    home = root / "home"
    layout = Layout.discover(root, {"SKILLC_HOME": str(home)})
    targets = {
        "20k rows, own log": resolve_skill("skill-07", layout),
        "20k rows, shared 1M log": resolve_skill(
            str(root / "elsewhere" / "checkout-07" / "shared"), layout
        ),
        "250k rows, own log": resolve_skill("skill-mid", layout),
        "1M rows, own log": resolve_skill("skill-big", layout),
    }
    results: dict[str, dict[str, float]] = {}
    for label, skill in targets.items():
        for query in QUERY_TYPES:
            for filtered in (False, True):
                options = FILTERS if filtered else {}
                key = f"{query}{' (filtered)' if filtered else ''}"

                def once(skill: Any = skill, query: str = query, options: Any = options) -> None:
                    query_stats(skill, layout, group_by=query, **options)

                results.setdefault(key, {})[label] = median_seconds(once, runs)
    return results


def measure_command(root: Path, runs: int) -> dict[str, float]:
    """``skc stats <skill>`` (the text summary) as a whole process, logging included."""
    skc = Path(sys.executable).parent / "skc"
    env = {**os.environ, "SKILLC_HOME": str(root / "home")}
    found: dict[str, float] = {}
    for name in ("skill-07", "skill-mid", "skill-big"):
        argv = [str(skc), "stats", name]

        def once(argv: list[str] = argv) -> None:
            subprocess.run(argv, cwd=root, env=env, check=True, capture_output=True)

        found[name] = median_seconds(once, runs)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, help="keep the data here (reused next time)")
    options = parser.parse_args()
    root = options.dir or Path(tempfile.mkdtemp(prefix="skillc-stats-bench-"))
    try:
        if not (root / "complete").exists():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            build(root)
        load_before = os.getloadavg()[0]
        results = measure(root, options.runs)
        command = measure_command(root, options.runs)
        load_after = os.getloadavg()[0]
        runtime = root / "home" / ".skillc" / "runtime"
        sizes = {
            name: primary_log(runtime / name).stat().st_size
            for name in ("skill-07", "shared", "skill-mid", "skill-big")
        }
    finally:
        if options.dir is None:
            shutil.rmtree(root, ignore_errors=True)

    labels = list(next(iter(results.values())))
    print(f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    print(
        f"- machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"{platform.system()} {platform.release()}"
    )
    print(f"- load average (1 min) before/after the timed runs: {load_before:.2f}/{load_after:.2f}")
    print(
        f"- python: {platform.python_version()} ({sys.executable}), SQLite {sqlite3.sqlite_version}"
    )
    print(
        f"- runs: median of {options.runs} warm runs per cell; filtered = --since "
        f"{FILTERS['since']} --until {FILTERS['until']} --project {FILTERS['projects'][0]}"
    )
    print(
        "- database sizes (table and indexes): "
        + ", ".join(f"{name} {size / 2**20:.0f} MiB" for name, size in sizes.items())
    )
    print()
    header = " | ".join(f"{label} ms" for label in labels)
    print(f"| query | {header} | 1M / 20k (rows 50x) | 1M / 250k (rows 4x) |")
    print("|---|" + "---:|" * (len(labels) + 2))
    worst = 0.0
    for key, cells in results.items():
        big, mid, small = cells[labels[-1]], cells[labels[-2]], cells[labels[0]]
        worst = max(worst, max(cells.values()))
        values = " | ".join(f"{cells[label] * 1000:.1f}" for label in labels)
        print(f"| {key} | {values} | {big / small:.1f}x | {big / mid:.1f}x |")
    print()
    print("| `skc stats` (text summary, whole process) | median ms |")
    print("|---|---:|")
    for name, seconds in command.items():
        print(f"| `skc stats {name}` | {seconds * 1000:.0f} |")
    print()
    print(f"slowest query: {worst * 1000:.0f} ms (target 500 ms)")


if __name__ == "__main__":
    main()
