"""Batch build benchmark (issue 16): ``skc build`` of every corpus skill in one command.

Run with the Python of the environment skillc is installed in (skc must sit next to it)::

    /path/to/venv/bin/python bench/build_all.py [--runs 3] [--corpus DIR]

Setup (not timed), for each run: a temporary project (``skc init``) with a private
``$SKILLC_HOME``; every corpus folder holding SKILL.md (nested ones too) is copied to
``skills/<folder name>``, a duplicate folder name getting ``-2``, ``-3``... (581 skills for
the shared corpus).

1. **From scratch**: ``skc build skills/``: every skill imported into ``.skillc/skills/``,
   hashed, parsed, indexed, its stub and manifest written and symlinked into
   ``.claude/skills/``, in parallel on the machine's cores.
2. **Unchanged**: ``skc build skills/`` again: every skill re-checked, nothing rebuilt.
3. **Baseline**: one ``python`` process importing markdown-it-py and parsing every ``.md``
   file those builds parse (``MarkdownIt("commonmark").enable("table")``, the configuration
   skillc parses with), in one process on one core.

Each is a whole process (interpreter start included), timed with ``subprocess.run``; the
three run interleaved, once per round, and the median of the rounds is reported, with the
CPU time (user + system, the build's worker processes included): on a shared machine the
wall time of the parallel build depends on the cores the others leave free. Targets:
from scratch at most 1.0x the baseline (the cores pay for the work beyond parsing),
unchanged under 2 s. Prints markdown ready for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import copy_corpus, corpus_root, cpu_model, find_skc

SCRATCH_TARGET = 1.0
UNCHANGED_TARGET_S = 2.0

PARSE = """
import sys
from markdown_it import MarkdownIt

parser = MarkdownIt("commonmark").enable("table")
with open(sys.argv[1], encoding="utf-8") as listing:
    for line in listing:
        with open(line.rstrip("\\n"), "rb") as handle:
            parser.parse(handle.read().decode("utf-8", errors="replace"))
"""


def markdown_files(skills: Path) -> list[Path]:
    """Every ``.md`` file the builds parse: each skill's, as skillc walks it."""
    from skillc_index import find_skill_folders, walk_skill

    files: list[Path] = []
    for skill in find_skill_folders(skills):
        files += [skill / rel for rel in walk_skill(skill).files if rel.endswith(".md")]
    return files


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds of the command, and the CPU seconds (user + system) it and its child
    processes used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-10:])
        sys.exit(f"error: {' '.join(command)} failed ({done.returncode}):\n{tail}")
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    corpus = corpus_root(args.corpus)
    if not corpus.is_dir():
        sys.exit(f"error: no corpus at {corpus} (set SKILLC_CORPUS or pass --corpus)")
    skc = str(find_skc())
    times: dict[str, list[float]] = {"scratch": [], "unchanged": [], "parse": []}
    cpu: dict[str, list[float]] = {name: [] for name in times}

    def measure(name: str, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        wall, used = timed(command, cwd, env)
        times[name].append(wall)
        cpu[name].append(used)

    count = files = 0
    with tempfile.TemporaryDirectory(prefix="skc-build-all-") as tmp:
        for run in range(args.runs):
            root = Path(tmp) / f"r{run}"
            project, home = root / "project", root / "home"
            project.mkdir(parents=True)
            home.mkdir()
            env = {**os.environ, "SKILLC_HOME": str(home)}
            env.pop("SKILLC_CONFIG", None)
            count = copy_corpus(corpus, project / "skills")
            timed([skc, "init"], project, env)
            listing = root / "files.txt"
            paths = markdown_files(project / "skills")
            files = len(paths)
            listing.write_text("".join(f"{path}\n" for path in paths), encoding="utf-8")
            parse = [sys.executable, "-c", PARSE, str(listing)]
            build = [skc, "build", "skills/"]
            # the baseline alternates before and after the builds: a busy machine hits both
            if run % 2 == 0:
                measure("parse", parse, project, env)
            measure("scratch", build, project, env)
            measure("unchanged", build, project, env)
            if run % 2 == 1:
                measure("parse", parse, project, env)
            shutil.rmtree(root)
    median = {name: statistics.median(values) for name, values in times.items()}
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    print(f"## Batch build (issue 16): {today}\n")
    print(
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}. Corpus: {count} skills, {files} Markdown "
        f"files parsed. Median of {args.runs} runs, each a whole process.\n"
    )
    print("| command | median | runs | ratio to markdown-it | CPU (median) | target |")
    print("|---|---|---|---|---|---|")
    rows = [
        ("scratch", f"`skc build skills/` from scratch ({count} skills)", f"<= {SCRATCH_TARGET}x"),
        ("unchanged", "`skc build skills/` again, unchanged", f"< {UNCHANGED_TARGET_S:g} s"),
        ("parse", "markdown-it-py parsing the same files, one process", "baseline"),
    ]
    for name, label, target in rows:
        values = ", ".join(f"{value:.2f}" for value in times[name])
        ratio = median[name] / median["parse"]
        used = statistics.median(cpu[name])
        print(
            f"| {label} | {median[name]:.2f} s | {values} | {ratio:.2f}x | {used:.2f} s "
            f"| {target} |"
        )
    ok_scratch = median["scratch"] / median["parse"] <= SCRATCH_TARGET
    ok_unchanged = median["unchanged"] < UNCHANGED_TARGET_S
    print(
        f"\nFrom scratch: {'met' if ok_scratch else 'NOT met'}; unchanged: "
        f"{'met' if ok_unchanged else 'NOT met'}."
    )


if __name__ == "__main__":
    main()
