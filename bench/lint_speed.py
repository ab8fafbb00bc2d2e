"""Lint speed (issue 17): the corpus with 1 and 2 workers against markdown-it-py, and the
start-up of ``skillc-lint`` on one skill against ``python -c "import click"``.

Run with the Python of an environment where skillc-lint is installed::

    /path/to/venv/bin/python bench/lint_speed.py [--runs 5] [--starts 15] [--corpus DIR]

Part 1, in this one process, interleaved round-robin (order rotated each round; medians):

- ``lint, 1 worker``: :func:`skillc_lint.lint_folders` over the outermost corpus skills with
  ``jobs=1`` (in this process, one skill after another: what ``skillc-lint --jobs 1`` does
  without printing or logging);
- ``lint, 2 workers``: the same with ``jobs=2`` (a process pool, started and stopped in
  each round: its cost is counted);
- ``lint, 2 threads``: the same skills on a pool of 2 threads (why the pool is processes);
- ``markdown-it``: ``MarkdownIt("commonmark").parse`` over the same ``.md`` files (read from
  disk), and over the SKILL.md files alone.

Each job's median wall time, and its median CPU time (user + system of this process and of
the pool's workers): on a busy machine the second worker finds no free core, and the CPU
column shows whether the pool itself costs more than the serial lint.

Target: ``lint, 2 workers`` at most 0.6x ``markdown-it`` (the same files).

Part 2, real processes, interleaved: ``skillc-lint <one small skill>`` (the console script
next to this Python, a temporary ``SKILLC_HOME``, bytecode cached) against ``python -c
"import click"``, and against ``python -c "import click, markdown_it, yaml"`` (the floor of
any lint: the interpreter, the CLI kit and the two parsers); median wall time and median CPU
time (user + system, from ``getrusage``) of ``--starts`` runs each. Target: at most 1.5x
``import click``.

The machine is shared: every ratio is of two medians measured in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchlib import corpus_root, cpu_model

CORPUS_TARGET = 0.6
START_TARGET = 1.5

SKILL = """---
name: tables
description: Formats Markdown tables. Use when a table needs aligning.
---

# tables

Align the columns of a Markdown table; see [the rules](references/rules.md).
"""


def corpus_jobs(corpus: Path) -> tuple[dict[str, Callable[[], int]], str]:
    from concurrent.futures import ThreadPoolExecutor

    from markdown_it import MarkdownIt

    from skillc_index import walk_skill
    from skillc_lint import default_registry, find_skill_folders, lint_folders, lint_skill

    skills = find_skill_folders(corpus)
    files = [s / rel for s in skills for rel in walk_skill(s).files if rel.lower().endswith(".md")]
    skill_md = [s / "SKILL.md" for s in skills]
    size = sum(path.stat().st_size for path in files)
    registry = default_registry()
    parser = MarkdownIt("commonmark")

    def lint(jobs: int) -> Callable[[], int]:
        def run() -> int:
            return sum(
                len(outcome.diagnostics)
                for outcome in lint_folders(skills, registry, jobs=jobs)
                if not isinstance(outcome, Exception)
            )

        return run

    def threads() -> int:
        with ThreadPoolExecutor(2) as pool:
            results = pool.map(lambda folder: lint_skill(folder, registry=registry), skills)
            return sum(len(result.diagnostics) for result in results)

    def parse(paths: list[Path]) -> Callable[[], int]:
        def run() -> int:
            for path in paths:
                parser.parse(path.read_bytes().decode("utf-8", "replace"))
            return 0

        return run

    jobs = {
        "lint, 1 worker": lint(1),
        "lint, 2 workers": lint(2),
        "lint, 2 threads": threads,
        "markdown-it (the same .md files)": parse(files),
        "markdown-it (SKILL.md files only)": parse(skill_md),
    }
    described = (
        f"{len(skills)} outermost skills, {len(files)} .md files ({size / 1e6:.1f} MB), "
        f"{len(skill_md)} of them SKILL.md"
    )
    return jobs, described


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its children that have ended (the
    pool's workers, once it is shut down)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def interleaved(
    jobs: dict[str, Callable[[], int]], runs: int, warmup: int
) -> dict[str, tuple[float, float]]:
    """Median wall time and median CPU time of each job."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in jobs}
    names = list(jobs)
    counts: dict[str, int] = {}
    for round_index in range(warmup + runs):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            start, cpu = time.perf_counter(), cpu_seconds()
            counts[name] = jobs[name]()
            if round_index >= warmup:
                times[name].append((time.perf_counter() - start, cpu_seconds() - cpu))
    lint_counts = {counts[name] for name in names if name.startswith("lint")}
    assert len(lint_counts) == 1, f"the lint jobs found different diagnostics: {counts}"
    return {
        name: (
            statistics.median(wall for wall, _ in values),
            statistics.median(cpu for _, cpu in values),
        )
        for name, values in times.items()
    }


def timed_process(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def start_up(starts: int) -> dict[str, tuple[float, float]]:
    script = Path(sys.executable).parent / "skillc-lint"
    if not script.is_file():
        sys.exit(f"error: no skillc-lint next to {sys.executable}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        skill = work / "tables"
        (skill / "references").mkdir(parents=True)
        (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
        (skill / "references" / "rules.md").write_text("# Rules\n\nPipes.\n", encoding="utf-8")
        # bytecode cached as in any installed environment (a PYTHONDONTWRITEBYTECODE=1 shell
        # would otherwise time the compilation of every skillc module on each start)
        env = {**os.environ, "SKILLC_HOME": str(work / "home")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        commands = {
            "skillc-lint <one skill>": [str(script), "tables"],
            'python -c "import click"': [sys.executable, "-c", "import click"],
            # the floor of any lint: the interpreter, the CLI kit, the parsers
            'python -c "import click, markdown_it, yaml"': [
                sys.executable,
                "-c",
                "import click, markdown_it, yaml",
            ],
        }
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_index in range(starts + 2):
            for name, command in commands.items():
                sample = timed_process(command, work, env)
                if round_index >= 2:  # two warm-up rounds (file cache)
                    samples[name].append(sample)
    return {
        name: (
            statistics.median(wall for wall, _ in values),
            statistics.median(cpu for _, cpu in values),
        )
        for name, values in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="measured corpus rounds (5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured corpus rounds (1)")
    parser.add_argument("--starts", type=int, default=15, help="measured start-ups each (15)")
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    corpus = corpus_root(args.corpus).resolve()
    if not corpus.is_dir():
        sys.exit(f"error: corpus not found at {corpus} (use --corpus or SKILLC_CORPUS)")

    jobs, described = corpus_jobs(corpus)
    median = interleaved(jobs, args.runs, args.warmup)
    starts = start_up(args.starts)

    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    print(f"- date: {now.replace('+00:00', 'Z')}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, load average {os.getloadavg()}")
    print(f"- python: {platform.python_version()} ({sys.executable})")
    print(f"- corpus: {corpus} ({described})")
    print(
        f"- method: {args.runs} measured rounds after {args.warmup} warm-up, interleaved "
        f"round-robin in one process; {args.starts} start-ups of each command; medians"
    )
    print()
    base = median["markdown-it (the same .md files)"][0]
    one = median["lint, 1 worker"][0]
    print(
        "| job | median wall s | median CPU s | ratio to markdown-it (same files) "
        "| ratio to 1 worker |"
    )
    print("|---|---:|---:|---:|---:|")
    for name, (wall, cpu) in median.items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {wall / base:.2f}x | {wall / one:.2f}x |")
    print()
    two = median["lint, 2 workers"][0]
    verdict = "met" if two / base <= CORPUS_TARGET else "NOT met"
    print(
        f"Target: lint with 2 workers at most {CORPUS_TARGET}x markdown-it-py: {verdict} "
        f"({two / base:.2f}x; 2 workers vs 1: {two / one:.2f}x; load average now "
        f"{os.getloadavg()[0]:.1f})."
    )
    print()
    print("| command | median wall ms | median CPU ms |")
    print("|---|---:|---:|")
    for name, (wall, cpu) in starts.items():
        print(f"| `{name}` | {wall * 1000:.0f} | {cpu * 1000:.0f} |")
    lint_wall, lint_cpu = starts["skillc-lint <one skill>"]
    click_wall, click_cpu = starts['python -c "import click"']
    wall_ratio, cpu_ratio = lint_wall / click_wall, lint_cpu / click_cpu
    verdict = "met" if max(wall_ratio, cpu_ratio) <= START_TARGET else "NOT met"
    print()
    print(
        f"Target: one-skill start-up at most {START_TARGET}x `import click`: {verdict} "
        f"({wall_ratio:.2f}x wall, {cpu_ratio:.2f}x CPU)."
    )


if __name__ == "__main__":
    main()
