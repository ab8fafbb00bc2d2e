"""Large inputs (issue 9): how time and memory grow with the size of a skill.

Run with the Python of the environment skillc is installed in (skc must sit next to it)::

    /path/to/venv/bin/python bench/large_inputs.py [--fractions 0.125,0.25,0.5,1] [--runs 3]
        [--kinds files,bigfile,headings] [--workdir DIR]

Three inputs, each generated at several fractions of its full size (tests/stress runs them
scaled down; this script runs the full sizes):

- ``files``: a skill of 10,000 files and 200 MB (90% ``.md`` with a heading every ~1 KB,
  10% ``.txt``, in folders of 100);
- ``bigfile``: a skill whose one reference file is a 50 MB Markdown file (a section every
  ~2 KB);
- ``headings``: a SKILL.md of 100,000 headings (H1 to H3, one line of text each).

Every command of the kit runs as a subprocess, ``--runs`` rounds per input: ``build`` (from
scratch, then unchanged), ``outline``, ``show`` (a section near the end; in ``bigfile`` and
``headings``, a section well inside the first MiB: only that much of a Markdown file is
parsed for headings, issue 13), ``search`` (a rare word, then two words found in every
paragraph), ``open``
(the largest file, ``--max-lines 20``), ``sources`` and ``lint``. For each: the median wall
time and the peak resident set of that child alone (``wait4`` in a small launcher, see
tests/stress/stress_support.py). Prints a markdown table and, per command, the ratio of
cost between consecutive sizes (2.0 means linear when the sizes double).

The generators are imported by tests/stress/test_large_inputs.py, which runs small fractions.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

# tests/stress/stress_support.py measures child processes (one definition for tests and bench)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "stress"))

from stress_support import Measured, age_files, run_measured

FULL_FILES = 10_000
FULL_FILES_BYTES = 200_000_000
FULL_BIGFILE_BYTES = 50_000_000
FULL_HEADINGS = 100_000

FRONTMATTER = '---\nname: "{name}"\ndescription: "Use when measuring large inputs."\n---\n'
WORDS = [
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "consectetur",
    "adipiscing",
    "elit",
    "sed",
    "do",
    "eiusmod",
    "tempor",
    "incididunt",
    "ut",
    "labore",
    "et",
    "dolore",
    "magna",
    "aliqua",
    "enim",
    "ad",
    "minim",
    "veniam",
    "quis",
    "nostrud",
    "exercitation",
    "ullamco",
]


def paragraph(seed: int, size: int) -> str:
    """About ``size`` characters of words (deterministic), ending with a blank line."""
    words: list[str] = []
    length = 0
    index = seed
    while length < size:
        word = WORDS[index % len(WORDS)]
        words.append(word)
        length += len(word) + 1
        index += 7
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    return "\n".join(lines) + "\n\n"


def make_many_files(source: Path, files: int, total_bytes: int) -> None:
    """``files`` files of about ``total_bytes`` in all; the last file holds ``needle``."""
    per_file = max(total_bytes // max(files, 1), 200)
    block = paragraph(0, 900)
    source.mkdir(parents=True, exist_ok=True)
    (source / "SKILL.md").write_text(
        FRONTMATTER.format(name=source.name) + "# Many files\n\n## Overview\n\nMany files.\n",
        encoding="utf-8",
    )
    for number in range(1, files):
        folder = source / f"part{number // 100:03d}"
        folder.mkdir(exist_ok=True)
        if number % 10 == 0:
            text = block * max(per_file // len(block), 1)
            (folder / f"f{number:05d}.txt").write_text(text, encoding="utf-8")
            continue
        parts = [f"# File {number}\n\n"]
        size = len(parts[0])
        section = 0
        while size < per_file:
            piece = f"## Topic {number}.{section}\n\n{block}"
            parts.append(piece)
            size += len(piece)
            section += 1
        if number == files - 1:
            parts.append("## Final section\n\nthe needle is here\n")
        (folder / f"f{number:05d}.md").write_text("".join(parts), encoding="utf-8")


def make_big_file(source: Path, size: int) -> None:
    """SKILL.md and ``references/big.md`` of about ``size`` bytes; its last section is
    ``Final section`` holding ``needle``."""
    (source / "references").mkdir(parents=True, exist_ok=True)
    (source / "SKILL.md").write_text(
        FRONTMATTER.format(name=source.name)
        + "# Big file\n\nSee [the reference](references/big.md).\n",
        encoding="utf-8",
    )
    block = paragraph(3, 1900)
    with (source / "references" / "big.md").open("w", encoding="utf-8") as handle:
        handle.write("# Big reference\n\n")
        written = 0
        number = 0
        while written < size:
            level = "###" if number % 4 else "##"
            piece = f"{level} Part {number}\n\n{block}"
            handle.write(piece)
            written += len(piece)
            number += 1
        handle.write("## Final section\n\nthe needle is here\n")


def make_many_headings(source: Path, count: int) -> None:
    """A SKILL.md of ``count`` headings (H1, H2, H3 in turn), the last ``Final section``."""
    source.mkdir(parents=True, exist_ok=True)
    parts = [FRONTMATTER.format(name=source.name)]
    for number in range(count - 1):
        level = "#" * (1 + number % 3)
        parts.append(f"{level} Heading {number}\n\ntext {number}\n\n")
    parts.append("## Final section\n\nthe needle is here\n")
    (source / "SKILL.md").write_text("".join(parts), encoding="utf-8")


class Input(NamedTuple):
    """One generated input: how to make it at a fraction of its full size."""

    kind: str
    describe: Callable[[float], str]
    make: Callable[[Path, float], None]
    largest: str
    """The file ``open`` reads."""
    section: str = "Final section"
    """The section ``show`` reads: present at every size, and before the 1 MiB parse limit."""

    def format(self, argument: str, skill: str) -> str:
        """One argument of a command template, its ``{skill}``, ``{largest}`` and
        ``{section}`` filled."""
        return argument.format(skill=skill, largest=self.largest, section=self.section)


INPUTS = {
    "files": Input(
        "files",
        lambda f: f"{round(FULL_FILES * f):,} files, {FULL_FILES_BYTES * f / 1e6:.0f} MB",
        lambda s, f: make_many_files(s, round(FULL_FILES * f), round(FULL_FILES_BYTES * f)),
        "SKILL.md",
    ),
    "bigfile": Input(
        "bigfile",
        lambda f: f"one {FULL_BIGFILE_BYTES * f / 1e6:.1f} MB file",
        lambda s, f: make_big_file(s, round(FULL_BIGFILE_BYTES * f)),
        "references/big.md",
        "Part 200",
    ),
    "headings": Input(
        "headings",
        lambda f: f"{round(FULL_HEADINGS * f):,} headings",
        lambda s, f: make_many_headings(s, round(FULL_HEADINGS * f)),
        "SKILL.md",
        "Heading 4500",
    ),
}

COMMANDS: dict[str, Sequence[str]] = {
    "build": ("build", "{skill}"),
    "build (unchanged)": ("build", "{skill}"),
    "outline": ("outline", "{skill}"),
    "show": ("show", "{skill}", "--section", "{section}"),
    "search": ("search", "{skill}", "needle"),
    "search (frequent words)": ("search", "{skill}", "tempor labore"),
    "open": ("open", "{skill}", "{largest}", "--max-lines", "20"),
    "sources": ("sources", "{skill}"),
    "lint": ("lint", "{skill}"),
}


def measure(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> Measured:
    """Run ``argv``; wall time and that child's own peak RSS (see stress_support)."""
    return run_measured(argv, cwd=cwd, env=env, timeout=3600)


def run_input(
    skc: Path, spec: Input, fraction: float, workdir: Path, runs: int = 1
) -> list[tuple[str, Measured]]:
    """Generate one input in a fresh project and run every command on it ``runs`` times (the
    runtime removed before each round, so ``build`` starts from scratch); per command, the
    round with the median time, and the highest peak RSS of all rounds."""
    import shutil
    import statistics

    project = workdir / f"{spec.kind}-{fraction}"
    home = workdir / f"home-{spec.kind}-{fraction}"
    (project / ".skillc" / "skills").mkdir(parents=True)
    home.mkdir()
    skill = "large"
    spec.make(project / ".skillc" / "skills" / skill, fraction)
    age_files(project / ".skillc" / "skills" / skill)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env["SKILLC_HOME"] = str(home)
    rounds: dict[str, list[Measured]] = {name: [] for name in COMMANDS}
    for _round in range(runs):
        shutil.rmtree(project / ".skillc" / "runtime", ignore_errors=True)
        for name, template in COMMANDS.items():
            argv = [str(skc), *(spec.format(a, skill) for a in template)]
            rounds[name].append(measure(argv, project, env))
    costs: list[tuple[str, Measured]] = []
    for name, measured in rounds.items():
        median = statistics.median_low([m.seconds for m in measured])
        chosen = next(m for m in measured if m.seconds == median)
        peak = max(m.max_rss_kb for m in measured)
        failed = next((m for m in measured if m.returncode), chosen)
        costs.append((name, failed._replace(seconds=median, max_rss_kb=peak)))
    return costs


def index_size(project: Path) -> int:
    return sum(p.stat().st_size for p in project.rglob("search-*.db"))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fractions", default="0.125,0.25,0.5,1")
    parser.add_argument("--kinds", default=",".join(INPUTS))
    parser.add_argument("--workdir", type=Path, help="where to generate (default: a temp dir)")
    parser.add_argument("--runs", type=int, default=1, help="rounds per input (median time)")
    args = parser.parse_args(argv)
    fractions = [float(f) for f in args.fractions.split(",")]
    skc = Path(sys.executable).parent / "skc"
    if not skc.is_file():
        sys.exit(f"error: no 'skc' next to {sys.executable}; run with the venv's Python")

    rows: list[tuple[str, str, str, Measured]] = []
    with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
        workdir = Path(folder).resolve()
        for kind in args.kinds.split(","):
            spec = INPUTS[kind]
            for fraction in fractions:
                print(f"... {kind} at {fraction}: {spec.describe(fraction)}", file=sys.stderr)
                for command, cost in run_input(skc, spec, fraction, workdir, args.runs):
                    rows.append((kind, spec.describe(fraction), command, cost))
                    status = "ok" if cost.returncode == 0 else f"EXIT {cost.returncode}"
                    mb = cost.max_rss_kb / 1024
                    print(
                        f"    {command}: {cost.seconds:.2f} s, {mb:.0f} MB, {status}",
                        file=sys.stderr,
                    )
                    if cost.returncode:
                        print(cost.stderr[-2000:], file=sys.stderr)
                project = workdir / f"{kind}-{fraction}"
                print(f"    index: {index_size(project) / 1e6:.1f} MB", file=sys.stderr)

    print(f"- date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%dT%H:%M:%SZ}")
    print(
        f"- machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"{platform.system()} {platform.release()}"
    )
    print(
        f"- python: {platform.python_version()} ({sys.executable}), SQLite {sqlite3.sqlite_version}"
    )
    print(f"- rounds per input: {args.runs} (median time; highest peak RSS)")
    print()
    print("| input | size | command | exit | seconds | max RSS MB |")
    print("|---|---|---|---:|---:|---:|")
    for kind, size, command, cost in rows:
        print(
            f"| {kind} | {size} | {command} | {cost.returncode} | {cost.seconds:.2f} | "
            f"{cost.max_rss_kb / 1024:.0f} |"
        )
    print()
    print("Growth between consecutive sizes (time ratio / RSS ratio; sizes double):")
    print()
    print("| input | command | " + " | ".join(f"{a}->{b}" for a, b in pairwise(fractions)) + " |")
    print("|---|---|" + "---:|" * (len(fractions) - 1))
    for kind in args.kinds.split(","):
        for command in COMMANDS:
            costs = [c for k, _s, name, c in rows if k == kind and name == command]
            cells = [
                f"{b.seconds / a.seconds:.2f} / {b.max_rss_kb / a.max_rss_kb:.2f}"
                for a, b in pairwise(costs)
            ]
            print(f"| {kind} | {command} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
