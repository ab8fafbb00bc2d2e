"""Search worst cases (issue 9): queries and sections that make FTS5's ``snippet()`` slow.

    /path/to/venv/bin/python bench/search_worst.py [--runs 3] [--native-limit 60]

FTS5's ``snippet()`` costs the square of the query's hits in the row it summarises. A skill
whose SKILL.md holds one section of ``--words`` repetitions of two words (``abcdefghij
common``) is built once; then each query runs through ``skillc_gateway.search_skill`` (the
deduplicated, windowed search) and, for comparison, as the plain FTS5 statement skillc used
before (``snippet()`` over the whole row, every query word a phrase, duplicates kept). A
plain run predicted to take longer than ``--native-limit`` seconds is skipped (its cost is
quadratic: ``n`` spellings of a word cost about ``n**2`` times one). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

QUERIES: list[tuple[str, str]] = [
    ("one word, every 2nd token", "common"),
    ("16 spellings of one word", " ".join("!" * i + "abcdefghij" for i in range(16))),
    ("64 spellings of one word", " ".join("!" * i + "abcdefghij" for i in range(64))),
    ("1,000 spellings of one word", " ".join("!" * i + "abcdefghij" for i in range(1000))),
    ("1,000 different words", " ".join(f"w{n}" for n in range(1000))),
]


def make_project(folder: Path, words: int) -> Path:
    project = folder / "project"
    source = project / ".skillc" / "skills" / "worst"
    source.mkdir(parents=True)
    body = " ".join(["abcdefghij common"] * words) + "\n\n" + " ".join(f"w{n}" for n in range(5000))
    (source / "SKILL.md").write_text(
        f"---\nname: worst\ndescription: Use when measuring.\n---\n\n# Worst\n\n{body}\n",
        encoding="utf-8",
    )
    skc = Path(sys.executable).with_name("skc")
    subprocess.run([str(skc), "build", "worst"], cwd=project, check=True, capture_output=True)
    return project


def plain_fts5(index: Path, query: str) -> float:
    """The statement of skillc before issue 9's fix, timed once."""
    words = [w for w in query.split() if w]
    match = " ".join('"' + w.replace('"', '""') + '"' for w in words)
    sql = (
        "SELECT file, section, snippet(sections, 2, '[MATCH]', '[/MATCH]', '...', 32), rank"
        " FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT 10"
    )
    with closing(sqlite3.connect(index)) as connection:
        start = time.perf_counter()
        connection.execute(sql, (match,)).fetchall()
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--words", type=int, default=2_000, help="repetitions of the two words")
    parser.add_argument("--native-limit", type=float, default=60.0)
    args = parser.parse_args()

    from skillc_gateway import search_skill
    from skillc_index import Layout, resolve_skill

    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp), args.words)
        os.environ["SKILLC_HOME"] = str(Path(tmp) / "home")
        skill = resolve_skill("worst", Layout.discover(project))
        (index,) = (skill.runtime / ".skillc-meta").glob("search-*.db")
        print(f"- date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%dT%H:%MZ}")
        machine = f"{platform.machine()}, nproc {os.cpu_count()}"
        versions = f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
        print(f"- machine: {machine}, {versions}")
        print(f"- one section: {args.words:,} x 'abcdefghij common', then 5,000 other words\n")
        print("| query | skillc (median ms) | plain FTS5 snippet (ms) | ratio |")
        print("|---|---:|---:|---:|")
        one_phrase: float | None = None  # the plain cost of the first query: one phrase
        for label, query in QUERIES:
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                search_skill(skill, query)
                times.append(time.perf_counter() - start)
            ours = statistics.median(times)
            spellings = len(query.split()) if "spellings" in label else 1
            predicted = 0.0 if one_phrase is None else one_phrase * spellings**2
            if predicted > args.native_limit:
                plain_cell, ratio = f"skipped ({predicted:,.0f} s predicted)", "-"
            else:
                plain = plain_fts5(index, query)
                one_phrase = plain if one_phrase is None else one_phrase
                plain_cell, ratio = f"{plain * 1000:,.0f}", f"{plain / ours:,.0f}x"
            print(f"| {label} | {ours * 1000:,.1f} | {plain_cell} | {ratio} |")


if __name__ == "__main__":
    main()
